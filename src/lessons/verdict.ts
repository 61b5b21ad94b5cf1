// What a run has come to: its observables and the invariants it broke, judged the way Explore
// and the witnesses judge them (always-invariants at every state on the way, final ones at the
// end of a finished run).

import { isTerminal } from '../machine/events.ts';
import type { Machine } from '../machine/machine.ts';
import { alwaysViolations, finalViolations, observe } from '../scenarios/outcome.ts';
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
  const last = states[states.length - 1];
  if (!last) throw new RangeError('a run has at least its initial state');
  const broken = new Set<string>();
  for (const s of states) for (const v of alwaysViolations(sc, m, s, p)) broken.add(v.id);
  const terminal = isTerminal(m, last);
  const observables = observe(sc, m, last, p);
  if (terminal) for (const v of finalViolations(sc, observables, p)) broken.add(v.id);
  return { terminal, observables, broken: [...broken].sort() };
}
