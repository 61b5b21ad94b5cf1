// Many seeded random runs of a scenario, grouped by outcome.

import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { randomRun } from '../machine/random-run.ts';
import { formatSchedule } from '../machine/schedule.ts';
import { finalViolations, observe, outcomeKey, type Violation } from './outcome.ts';
import type { Observables, Params, Scenario } from './types.ts';

export interface RandomOutcome {
  readonly observables: Observables;
  readonly violations: readonly Violation[];
  /** False for runs that hit the step limit or deadlocked before finishing. */
  readonly terminal: boolean;
  count: number;
  /** The shortest schedule seen that ends in this outcome. */
  schedule: string;
  steps: number;
}

export function randomOutcomes(
  sc: Scenario,
  params: Params,
  seed: number,
  runs: number,
  maxSteps = 100_000,
): RandomOutcome[] {
  const { machine } = sc.build(params);
  const rng = xoroshiro128plus(seed);
  const pick = (n: number) => unsafeUniformIntDistribution(0, n - 1, rng);
  const byKey = new Map<string, RandomOutcome>();
  for (let r = 0; r < runs; r++) {
    const run = randomRun(machine, pick, sc.bounds, maxSteps);
    const observables = observe(sc, machine, run.state, params);
    const key = `${run.terminal ? 'T' : 'N'}${outcomeKey(observables)}`;
    const seen = byKey.get(key);
    if (seen) {
      seen.count++;
      if (run.events.length < seen.steps) {
        seen.steps = run.events.length;
        seen.schedule = formatSchedule(run.events);
      }
      continue;
    }
    byKey.set(key, {
      observables,
      violations: run.terminal ? finalViolations(sc, observables, params) : [],
      terminal: run.terminal,
      count: 1,
      schedule: formatSchedule(run.events),
      steps: run.events.length,
    });
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || a.steps - b.steps);
}
