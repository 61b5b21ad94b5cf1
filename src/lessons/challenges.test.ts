// Every challenge is honest: a 'reach' challenge has a solution within its bounds, and the
// simplest one Explore reports replays to the goal; an 'impossible' one has none, over every
// schedule within its bounds. Hints climb to an answer that works.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceRun } from '../machine/randomRun.ts';
import { findScenario } from '../scenarios/index.ts';
import { observe } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { challengeParams, checkAttempt } from './challenge.ts';
import { lessons } from './catalogue/index.ts';
import { goalNames } from './goal.ts';
import { compareScores } from './score.ts';
import { challengeStats } from './stats.ts';
import type { Challenge } from './types.ts';

const cases = lessons.flatMap((l) =>
  l.challenges.map((ch) => ({ sc: scenario(l.scenario), ch, name: `${l.scenario}/${ch.id}` })),
);

function scenario(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(`no scenario ${id}`);
  return sc;
}

/** Explore once per challenge: some take a second or two. */
const statsOf = new Map<Challenge, ReturnType<typeof challengeStats>>();
function stats(sc: Scenario, ch: Challenge) {
  let s = statsOf.get(ch);
  if (!s) {
    s = challengeStats(sc, ch);
    statsOf.set(ch, s);
  }
  return s;
}

describe('challenges', () => {
  it.each(cases)('$name names only what its scenario has', ({ sc, ch }) => {
    const p = challengeParams(sc, ch);
    const names = goalNames(ch.goal);
    const observables = sc.observables(p).map((o) => o.name);
    for (const o of names.observables) expect(observables).toContain(o);
    const invariants = sc.invariants.map((i) => i.id);
    for (const i of names.invariants) expect(invariants).toContain(i);
    for (const n of Object.values(ch.bounds)) expect(n).toBeGreaterThanOrEqual(0);
  });

  it.each(cases)('$name climbs 2 to 4 hints', ({ ch }) => {
    expect(ch.hints.length).toBeGreaterThanOrEqual(2);
    expect(ch.hints.length).toBeLessThanOrEqual(4);
  });

  it.each(cases.filter((c) => c.ch.mode === 'reach'))(
    '$name is solvable, and its simplest solution replays to the goal',
    ({ sc, ch }) => {
      const s = stats(sc, ch);
      expect(s.complete).toBe(true);
      expect(s.reachingEndStates).toBeGreaterThan(0);
      expect(s.reachingEndStates).toBeLessThanOrEqual(s.endStates);
      if (!s.simplest) throw new Error('no simplest solution');
      const v = checkAttempt(sc, ch, s.simplest.schedule);
      expect(v.kind).toBe('finished');
      if (v.kind !== 'finished') return;
      expect(v.reached).toBe(true);
      // Scored the way Explore ranked it.
      expect(v.score).toEqual(s.simplest.score);
    },
  );

  it.each(cases.filter((c) => c.ch.mode === 'impossible'))(
    '$name: no schedule within its bounds reaches the goal',
    ({ sc, ch }) => {
      const s = stats(sc, ch);
      expect(s.complete).toBe(true);
      expect(s.endStates).toBeGreaterThan(0);
      expect(s.reachingEndStates).toBe(0);
      expect(s.simplest).toBeNull();
    },
  );

  it.each(cases.flatMap((c) => c.ch.hints.filter((h) => h.schedule).map((h) => ({ ...c, h }))))(
    "$name: a hint's schedule is a solution, or for an impossible goal the nearest miss",
    ({ sc, ch, h }) => {
      const v = checkAttempt(sc, ch, h.schedule ?? '');
      expect(v.kind).toBe('finished');
      if (v.kind === 'finished') expect(v.reached).toBe(ch.mode === 'reach');
    },
  );

  it.each(cases)(
    '$name: random runs within its bounds never beat the simplest, nor reach an impossible goal',
    ({ sc, ch }) => {
      const s = stats(sc, ch);
      const p = resolveParams(sc, ch.params);
      const { machine } = sc.build(p);
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 200 }), (choices) => {
          const run = choiceRun(machine, choices, ch.bounds, 5_000);
          if (!run.terminal) return;
          const v = checkAttempt(sc, ch, run.events);
          expect(v.kind).toBe('finished');
          if (v.kind !== 'finished') return;
          expect(v.observables).toEqual(observe(sc, machine, run.state, p));
          if (ch.mode === 'impossible') expect(v.reached).toBe(false);
          else if (v.reached && s.simplest) {
            expect(compareScores(v.score, s.simplest.score)).toBeGreaterThanOrEqual(0);
          }
        }),
        { seed: 12, numRuns: 40 },
      );
    },
  );
});
