// Scoring and checking a student's schedule: what the classroom says after each attempt.

import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { checkAttempt } from './challenge.ts';
import { findLesson } from './catalogue/index.ts';
import { compareScores, distanceFrom, score, type Score } from './score.ts';
import type { Challenge } from './types.ts';

function challenge(scenario: string, id: string): { sc: Scenario; ch: Challenge } {
  const sc = findScenario(scenario);
  const ch = findLesson(scenario)?.challenges.find((c) => c.id === id);
  if (!sc || !ch) throw new Error(`${scenario}/${id}`);
  return { sc, ch };
}

describe('score', () => {
  const plain = findScenario('global-plain') as Scenario;
  const m = plain.build(resolveParams(plain, { iterations: 1 })).machine;

  it('score(global-plain, "0 0 1 1") has no switch: CPU0 had finished when CPU1 began', () => {
    expect(score(m, parseSchedule('0 0 1 1'))).toEqual({ interventions: 0, switches: 0, steps: 4 });
  });

  it('score(global-plain, "0 1 0 1") counts a switch each time a CPU that could go on is left', () => {
    // 0→1 (CPU0 could store), 1→0 (CPU1 could store); CPU0 has finished before the last 1.
    expect(score(m, parseSchedule('0 1 0 1'))).toEqual({ interventions: 0, switches: 2, steps: 4 });
  });

  it('counts IRQs, NMIs, preemptions and migrations as interventions, and as steps', () => {
    const mig = findScenario('this-cpu-migrate') as Scenario;
    const mm = mig.build(resolveParams(mig, {})).machine;
    expect(score(mm, parseSchedule('0 mig0>1 1'))).toEqual({
      interventions: 1,
      switches: 0,
      steps: 3,
    });
  });
});

describe('compareScores', () => {
  const s = (interventions: number, switches: number, steps: number): Score => ({
    interventions,
    switches,
    steps,
  });

  it('one intervention fewer beats any number of steps', () => {
    expect(compareScores(s(0, 5, 100), s(1, 0, 3))).toBeLessThan(0);
  });

  it('with as many interventions, fewer switches win, then fewer steps', () => {
    expect(compareScores(s(1, 1, 50), s(1, 2, 10))).toBeLessThan(0);
    expect(compareScores(s(1, 1, 9), s(1, 1, 10))).toBeLessThan(0);
    expect(compareScores(s(1, 1, 10), s(1, 1, 10))).toBe(0);
  });

  it('sorts attempts from the simplest', () => {
    const attempts = [s(2, 0, 5), s(0, 3, 20), s(1, 0, 9), s(0, 1, 30), s(0, 1, 12)];
    expect([...attempts].sort(compareScores)).toEqual([
      s(0, 1, 12),
      s(0, 1, 30),
      s(0, 3, 20),
      s(1, 0, 9),
      s(2, 0, 5),
    ]);
  });

  it('distanceFrom says how far an attempt is from the simplest', () => {
    expect(distanceFrom(s(3, 2, 20), s(1, 0, 9))).toEqual({
      interventions: 2,
      switches: 2,
      steps: 11,
      best: false,
    });
    expect(distanceFrom(s(1, 0, 9), s(1, 0, 9)).best).toBe(true);
  });
});

describe('checkAttempt', () => {
  const { sc, ch } = challenge('global-plain', 'lose-one');

  it('a lost update is a finished run that reaches the goal, with its score', () => {
    const v = checkAttempt(sc, ch, '0 1 0 1 0 0 1 1');
    expect(v).toMatchObject({
      kind: 'finished',
      reached: true,
      broken: ['no-lost-update'],
      score: { interventions: 0, steps: 8 },
    });
  });

  it('a run with nothing lost is finished but does not reach the goal', () => {
    expect(checkAttempt(sc, ch, '0 0 0 0 1 1 1 1')).toMatchObject({
      kind: 'finished',
      reached: false,
      broken: [],
    });
  });

  it('a run still under way is unfinished: the goal is judged at the end', () => {
    expect(checkAttempt(sc, ch, '0 1')).toMatchObject({ kind: 'unfinished' });
  });

  it('a malformed schedule is invalid, with the column of the error', () => {
    const v = checkAttempt(sc, ch, '0 1 x');
    expect(v.kind).toBe('invalid');
    if (v.kind === 'invalid') expect(v.reason).toMatch(/column 5/);
  });

  it('an impossible event is invalid, with its index', () => {
    const v = checkAttempt(sc, ch, '0 0 0 0 0');
    expect(v).toMatchObject({ kind: 'invalid', index: 4 });
  });

  it('more interventions than the challenge allows is over its bounds, and says which', () => {
    const { sc: mig, ch: one } = challenge('this-cpu-migrate', 'zero-the-wrong-slot');
    const v = checkAttempt(mig, one, 'mig0>1 mig1>0 0 0');
    expect(v.kind).toBe('over-bounds');
    if (v.kind === 'over-bounds') expect(v.reason).toMatch(/2 migrations \(at most 1\)/);
  });
});
