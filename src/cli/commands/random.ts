// `lab random <id> --seed N --runs K`: seeded random schedules within the scenario's explore
// bounds, grouped by outcome, each with one (the shortest seen) schedule that reproduces it.

import { jsonObservables, observablesLine, shownObservables } from '../../scenarios/outcome.ts';
import { DEFAULT_MAX_STEPS } from '../../machine/randomRun.ts';
import { randomOutcomes } from '../randomOutcomes.ts';
import {
  intOption,
  memoryChosen,
  modelOf,
  paramsArg,
  parseCommand,
  refuseLkmm,
  scenarioArg,
  scenarioOptions,
} from '../args.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';
import { shownName } from '../../scenarios/program.ts';

export function randomCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(
    argv,
    {
      ...scenarioOptions,
      seed: { type: 'string' },
      runs: { type: 'string' },
      'max-steps': { type: 'string' },
    },
    { positionals: 1 },
  );
  const sc = scenarioArg(positionals[0]);
  if (values.seed === undefined)
    throw new UsageError('random needs --seed N (runs are repeatable)');
  const seed = intOption('seed', values.seed, 0, 2 ** 31 - 1);
  const runs = intOption('runs', values.runs, 100, 1_000_000);
  const maxSteps = intOption('max-steps', values['max-steps'], DEFAULT_MAX_STEPS, 10_000_000);
  if (runs < 1) throw new UsageError('--runs must be at least 1');
  const params = paramsArg(sc, values.set, values.preset, values.memory);
  refuseLkmm(sc, params, memoryChosen(values.memory, values.set), 'random');
  const outcomes = randomOutcomes(sc, params, seed, runs, maxSteps);
  const doc = {
    scenario: sc.id,
    memory: modelOf(params),
    params,
    seed,
    runs,
    outcomes: outcomes.map((o) => ({
      observables: jsonObservables(o.observables),
      violations: o.violations,
      terminal: o.terminal,
      count: o.count,
      schedule: o.schedule,
    })),
  };
  if (values.json) return toJson(doc);
  const out = [
    `${shownName(sc)} under ${doc.memory}: ${String(runs)} random ${runs === 1 ? 'run' : 'runs'}, seed ${seed}`,
  ];
  for (const o of outcomes) {
    const obs = observablesLine(shownObservables(sc, params, o.observables));
    const verdict = !o.terminal
      ? 'did not finish'
      : o.violations.length
        ? `violates ${o.violations.map((v) => v.id).join(', ')}`
        : 'ok';
    out.push(
      `${String(o.count).padStart(7)} × ${obs}  (${verdict})`,
      `          e.g. "${o.schedule}"`,
    );
  }
  return out.join('\n');
}
