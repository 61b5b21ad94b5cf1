// Properties of the 2006 nr_files scenarios over many seeded random schedules.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply, enabledEvents, isTerminal } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import { hiOf, loOf } from '../machine/int64.ts';
import { ctxBase, CTX_TALLY } from '../machine/machine.ts';
import { findScenario } from './index.ts';
import { finalViolations, observe } from './outcome.ts';
import { resolveParams } from './params.ts';
import type { Observables, Scenario } from './types.ts';

function scenario(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(id);
  return sc;
}

/**
 * Runs a schedule chosen by `choices` (each picks among the legal steps) to the end. Once the
 * choices are used up it goes round-robin, so a CPU spinning on a lock cannot starve its holder.
 */
/** The final verdicts on observables o (these invariants judge the observables alone). */
function finalOf(sc: Scenario, o: Observables, p: ReturnType<typeof resolveParams>) {
  const { machine } = sc.build(p);
  return finalViolations(sc, o, p, machine, initialState(machine));
}

function runTo(
  sc: Scenario,
  params: Record<string, number>,
  choices: readonly number[],
): Observables {
  const p = resolveParams(sc, params);
  const { machine } = sc.build(p);
  const s = initialState(machine);
  const out: number[] = [];
  let i = 0;
  while (!isTerminal(machine, s)) {
    const n = enabledEvents(machine, s, out);
    // Steps only: these scenarios have no handlers and no preemption to explore.
    const steps = out.slice(0, n).filter((e) => (e & 7) === 0);
    const c = i < choices.length ? (choices[i] as number) : i;
    i++;
    apply(machine, s, steps[c % steps.length] as number);
  }
  return observe(sc, machine, s, p);
}

/** The nr_files parameters: CPUs and files per CPU within the given ranges, initial −50 to 50. */
const nrFilesParams = (
  [minCpus, maxCpus]: [number, number],
  [minFiles, maxFiles]: [number, number],
) => ({
  cpus: fc.integer({ min: minCpus, max: maxCpus }),
  iterations: fc.integer({ min: minFiles, max: maxFiles }),
  initial: fc.integer({ min: -50, max: 50 }),
});

const shape = fc.record(nrFilesParams([1, 4], [0, 4]));
const choices = fc.array(fc.nat(), { minLength: 1, maxLength: 64 });

describe('the 2006 nr_files scenarios over random schedules', () => {
  it.each(['global-atomic', 'global-spinlock'])(
    '%s always ends with nr = exact (1000 schedules)',
    (id) => {
      const sc = scenario(id);
      fc.assert(
        fc.property(shape, choices, (params, ch) => {
          const o = runTo(sc, params, ch);
          expect(o.nr).toBe(params.initial + params.cpus * params.iterations);
          expect(o.nr).toBe(o.exact);
          expect(finalOf(sc, o, resolveParams(sc, params))).toEqual([]);
        }),
        { seed: 2006, numRuns: 1000 },
      );
    },
  );

  it('global-plain never ends above exact, nor below initial + 2 when cpus ≥ 2 and iterations ≥ 2', () => {
    const sc = scenario('global-plain');
    const atLeastTwo = fc.record(nrFilesParams([2, 4], [2, 4]));
    fc.assert(
      fc.property(atLeastTwo, choices, (params, ch) => {
        const o = runTo(sc, params, ch);
        expect(o.exact).toBe(params.initial + params.cpus * params.iterations);
        expect(o.nr as number).toBeLessThanOrEqual(o.exact as number);
        expect(o.nr as number).toBeGreaterThanOrEqual(params.initial + 2);
      }),
      { seed: 1, numRuns: 1000 },
    );
  });

  it('an int that wrapped after 2^32 increments has lost nothing; a real loss still shows', () => {
    // What Live mode reads after a long run: nr_files is an int, the exact total is not.
    const exact = 5_780_000_000;
    /** A state whose int `cell` holds `value` after CPU0's task added `exact` (from 0). */
    const longRun = (sc: Scenario, cell: string, value: number) => {
      const p = resolveParams(sc, { initial: 0 });
      const { machine: m } = sc.build(p);
      const s = initialState(m);
      const c = m.layout.cells.find((x) => x.name === cell);
      if (!c || c.perCpu) throw new Error(`no global ${cell}`);
      s[c.addr] = value | 0;
      const t = ctxBase(m, 0) + CTX_TALLY;
      s[t] = loOf(exact);
      s[t + 1] = hiOf(exact);
      return finalViolations(sc, observe(sc, m, s, p), p, m, s).map((v) => v.id);
    };
    const atomic = scenario('global-atomic');
    expect(longRun(atomic, 'nr_files', exact - 2 ** 32)).toEqual([]);
    expect(longRun(atomic, 'nr_files', exact - 2 ** 32 - 7)).toEqual(['no-lost-update']);
    expect(longRun(scenario('lazy-nr-files'), 'files_stat.nr_files', exact - 2 ** 32)).toEqual([]);
  });

  it('global-plain does lose updates under some schedules', () => {
    const sc = scenario('global-plain');
    const o = runTo(sc, { cpus: 2, iterations: 2, initial: 0 }, [0, 1, 0, 1]);
    expect(o).toEqual({ nr: 2, exact: 4 });
  });

  it('lazy-nr-files never loses a file, and get_nr_files() stays within ±threshold × cpus', () => {
    const sc = scenario('lazy-nr-files');
    const params = fc.record({
      ...nrFilesParams([1, 4], [0, 6]),
      threshold: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(params, choices, (prm, ch) => {
        const o = runTo(sc, prm, ch);
        expect(o.nr).toBe(o.exact);
        const error = Math.abs((o.exact as number) - (o.read as number));
        expect(error).toBeLessThanOrEqual(prm.threshold * prm.cpus);
      }),
      { seed: 16, numRuns: 1000 },
    );
  });
});
