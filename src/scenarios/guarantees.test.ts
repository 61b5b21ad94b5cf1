// Each scenario's guarantees, checked over 1000 seeded random schedules per variant within the
// scenario's default explore bounds: always-invariants at every state, final ones at the end.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceRun } from '../machine/randomRun.ts';
import { catalogue } from './index.ts';
import { alwaysViolations, finalViolations, observe } from './outcome.ts';
import { resolveParams } from './params.ts';

const cases = catalogue.flatMap((sc) =>
  Object.entries(sc.guarantees).map(([variant, ids]) => ({
    sc,
    variant,
    ids,
    name: variant === '*' ? sc.id : `${sc.id} (variant ${variant})`,
  })),
);

describe('guarantees over random schedules', () => {
  it.each(cases)('$name keeps its guarantees in 1000 schedules', ({ sc, variant, ids }) => {
    const p = resolveParams(sc, variant === '*' ? {} : { variant });
    const { machine } = sc.build(p);
    const wanted = new Set(ids);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 80 }), (choices) => {
        const run = choiceRun(machine, choices, sc.bounds, 20_000, (s) => {
          const broken = alwaysViolations(sc, machine, s, p).filter((v) => wanted.has(v.id));
          expect(broken).toEqual([]);
        });
        expect(run.terminal).toBe(true);
        const o = observe(sc, machine, run.state, p);
        expect(
          finalViolations(sc, o, p, machine, run.state).filter((v) => wanted.has(v.id)),
        ).toEqual([]);
      }),
      { seed: 42, numRuns: 1000 },
    );
  });

  it('every guarantee names an invariant of its scenario', () => {
    for (const { sc, ids } of cases) {
      for (const id of ids) expect(sc.invariants.map((i) => i.id)).toContain(id);
    }
  });
});
