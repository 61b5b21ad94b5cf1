// What a run has come to: its observables and the invariants it broke, judged as Explore and the
// witnesses judge them (scenarios/judge.ts).

import type { Machine } from '../machine/machine.ts';
import { brokenIds, judgeRun } from '../scenarios/judge.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';

export interface RunVerdict {
  /** Whether the last state is terminal (every task and handler done, no IRQ pending). */
  readonly terminal: boolean;
  readonly observables: Observables;
  /** Invariant ids broken so far, sorted; final ones only once the run has finished. */
  readonly broken: readonly string[];
}

/** The verdict on a run given as its states (states[0] the start, as replay() returns them). */
export function runVerdict(
  sc: Scenario,
  m: Machine,
  states: readonly Int32Array[],
  p: Params,
): RunVerdict {
  const j = judgeRun(sc, m, states, p);
  return { terminal: j.terminal, observables: j.observables, broken: brokenIds(j) };
}
