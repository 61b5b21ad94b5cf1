// Many seeded random runs of a scenario, grouped by outcome.

import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { DEFAULT_MAX_STEPS, randomRun } from '../machine/randomRun.ts';
import { formatSchedule } from '../machine/schedule.ts';
import {
  alwaysViolations,
  finalViolations,
  observe,
  outcomeKey,
  type Violation,
} from '../scenarios/outcome.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';

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
  maxSteps = DEFAULT_MAX_STEPS,
): RandomOutcome[] {
  const { machine } = sc.build(params);
  const rng = xoroshiro128plus(seed);
  const pick = (n: number) => unsafeUniformIntDistribution(0, n - 1, rng);
  const byKey = new Map<string, RandomOutcome>();
  const hasAlways = sc.invariants.some((i) => i.when === 'always');
  for (let r = 0; r < runs; r++) {
    // Always-invariants are judged at every state; each is reported once, as first broken.
    const always = new Map<string, Violation>();
    const run = randomRun(
      machine,
      pick,
      sc.bounds,
      maxSteps,
      hasAlways
        ? (s) => {
            for (const v of alwaysViolations(sc, machine, s, params))
              if (!always.has(v.id)) always.set(v.id, v);
          }
        : undefined,
    );
    const observables = observe(sc, machine, run.state, params);
    const violations = [
      ...always.values(),
      ...(run.terminal ? finalViolations(sc, observables, params, machine, run.state) : []),
    ];
    const key = `${run.terminal ? 'T' : 'N'}${outcomeKey(observables)}${violations.map((v) => v.id).join(',')}`;
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
      violations,
      terminal: run.terminal,
      count: 1,
      schedule: formatSchedule(run.events),
      steps: run.events.length,
    });
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || a.steps - b.steps);
}
