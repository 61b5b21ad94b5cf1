import { describe, expect, it } from 'vitest';
import { initialState } from '../machine/interpreter.ts';
import { findScenario } from '../scenarios/index.ts';
import { callChecks } from './calls.ts';
import { inFlightSlack } from './slack.ts';
import { liveCounter } from './counter.ts';
import { liveMachine } from './job.ts';
import { liveParams } from './liveParams.ts';

describe('judging each sum() as it returns', () => {
  const sc = findScenario('percpu-atomic64');
  if (!sc) throw new Error('missing');
  const p = liveParams('percpu-atomic64', 3);
  const m = liveMachine('percpu-atomic64', p);
  const checks = callChecks(m, liveCounter(sc, p, m));
  const slot = (name: string) => {
    const r = m.layout.results.find((x) => x.name === name);
    if (!r) throw new Error(name);
    return m.resOff + r.offset;
  };
  /** A state where the summer's last call saw totals a..b and returned v. */
  const call = (a: number, b: number, v: number) => {
    const s = initialState(m);
    s[slot('@window:P2')] = 2;
    s[slot('@window:P2') + 1] = a;
    s[slot('@window:P2') + 3] = b;
    s[slot('@sum:P2')] = 1;
    s[slot('@sum:P2') + 1] = v;
    return s;
  };

  it('has a check for the summer only', () => {
    expect(checks.map((c) => c !== null)).toEqual([false, false, true]);
    expect(inFlightSlack(m)).toBe(2); // two adders of 1
  });

  it('accepts a sum within its window (with the slack of the adds in flight), refuses one a batch off', () => {
    const check = checks[2];
    if (!check) throw new Error('no check');
    expect(check(call(100, 110, 105))).toBe(true);
    expect(check(call(100, 110, 112))).toBe(true); // an add in flight on each adder
    expect(check(call(100, 110, 114))).toBe(false); // a whole batch of 4 counted twice
    expect(check(call(100, 110, 96))).toBe(false); // a batch missed
  });

  it('judges nothing when adds have both signs, as the model does not', () => {
    const mixed = liveParams('percpu-atomic64', 3, { amounts: '1,-1' });
    const mm = liveMachine('percpu-atomic64', mixed);
    expect(callChecks(mm, liveCounter(sc, mixed, mm)).every((c) => c === null)).toBe(true);
  });
});
