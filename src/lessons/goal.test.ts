// The goal language: each kind judged as a student would read it, on exact integers.

import { describe, expect, it } from 'vitest';
import { describeGoal, goalMet, goalNames, type Goal } from './goal.ts';

const none = new Set<string>();

describe('goalMet', () => {
  it('breaks and keeps look only at the broken invariants', () => {
    const broken = new Set(['no-lost-update']);
    expect(goalMet({ kind: 'breaks', invariant: 'no-lost-update' }, {}, broken)).toBe(true);
    expect(goalMet({ kind: 'breaks', invariant: 'sum-within-window' }, {}, broken)).toBe(false);
    expect(goalMet({ kind: 'keeps', invariant: 'no-lost-update' }, {}, broken)).toBe(false);
    expect(goalMet({ kind: 'keeps', invariant: 'sum-within-window' }, {}, broken)).toBe(true);
  });

  it('observable checks every bound given', () => {
    const o = { retries: 2 };
    expect(goalMet({ kind: 'observable', name: 'retries', atLeast: 2 }, o, none)).toBe(true);
    expect(goalMet({ kind: 'observable', name: 'retries', atLeast: 3 }, o, none)).toBe(false);
    expect(goalMet({ kind: 'observable', name: 'retries', atLeast: 1, atMost: 1 }, o, none)).toBe(
      false,
    );
    expect(goalMet({ kind: 'observable', name: 'retries', equals: 2 }, o, none)).toBe(true);
  });

  it('a value not known yet (null), missing or a list never meets a goal on it', () => {
    const g: Goal = { kind: 'observable', name: 'sum', atMost: 10 };
    expect(goalMet(g, { sum: null }, none)).toBe(false);
    expect(goalMet(g, {}, none)).toBe(false);
    expect(goalMet(g, { sum: [1, 2] }, none)).toBe(false);
  });

  it('difference is signed: exact − sum ≥ 4 is a sum that missed a batch of 4', () => {
    const missed = { exact: 4, sum: 0 };
    const twice = { exact: 4, sum: 7 };
    const g: Goal = { kind: 'difference', of: 'exact', minus: 'sum', atLeast: 4 };
    expect(goalMet(g, missed, none)).toBe(true);
    expect(goalMet(g, twice, none)).toBe(false);
  });

  it('gap is unsigned', () => {
    const g: Goal = { kind: 'gap', between: ['sum', 'exact'], atLeast: 3 };
    expect(goalMet(g, { exact: 4, sum: 0 }, none)).toBe(true);
    expect(goalMet(g, { exact: 4, sum: 7 }, none)).toBe(true);
    expect(goalMet(g, { exact: 4, sum: 3 }, none)).toBe(false);
  });

  it('compares 64-bit values exactly, bigints beyond 2^53 included', () => {
    const big = 2n ** 60n;
    const o = { exact: big + 1n, read: big };
    expect(goalMet({ kind: 'difference', of: 'exact', minus: 'read', equals: 1 }, o, none)).toBe(
      true,
    );
    expect(goalMet({ kind: 'observable', name: 'read', atLeast: 2 ** 53 }, o, none)).toBe(true);
  });

  it('all needs every part, any needs one', () => {
    const o = { slot0: 15, slot1: 0 };
    const a: Goal = { kind: 'observable', name: 'slot0', equals: 15 };
    const b: Goal = { kind: 'observable', name: 'slot1', equals: 1 };
    expect(goalMet({ kind: 'all', goals: [a, b] }, o, none)).toBe(false);
    expect(goalMet({ kind: 'any', goals: [a, b] }, o, none)).toBe(true);
    expect(goalMet({ kind: 'all', goals: [] }, o, none)).toBe(true);
    expect(goalMet({ kind: 'any', goals: [] }, o, none)).toBe(false);
  });
});

describe('goalNames and describeGoal', () => {
  const g: Goal = {
    kind: 'any',
    goals: [
      { kind: 'breaks', invariant: 'no-lost-update' },
      { kind: 'difference', of: 'exact', minus: 'sum', atLeast: 4 },
    ],
  };

  it('goalNames lists the observables and invariants a goal names', () => {
    expect(goalNames(g)).toEqual({ observables: ['exact', 'sum'], invariants: ['no-lost-update'] });
  });

  it('describeGoal says the goal in one line', () => {
    expect(describeGoal(g)).toBe('breaks no-lost-update, or exact − sum ≥ 4');
  });

  it('a goal survives a JSON round trip unchanged', () => {
    expect(JSON.parse(JSON.stringify(g))).toEqual(g);
  });
});
