// Explore's answer for a program with a final condition, in herd7's words (src/lang/herdAnswer.ts):
// the end states the explorer reached, each counted once, and the Model line says so. herd7
// counts executions: `lab check` recounts them with the axiomatic engine where it can.

import type { CompiledProgram } from '../lang/compiled.ts';
import { type EndState, herdAnswer, type HerdAnswer } from '../lang/herdAnswer.ts';
import { apply } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import type { ExploreResult } from './explore.ts';

/** The end state an explorer witness leads to. */
function endState(m: Machine, events: readonly number[]): Int32Array {
  const s = initialState(m);
  for (const ev of events) apply(m, s, ev);
  return s;
}

/** The end states of an exploration, one count each. */
export function exploredEnds(machine: Machine, r: ExploreResult): EndState[] {
  return r.outcomes
    .filter((o) => o.terminal)
    .map((o) => ({ state: endState(machine, o.witness.events), count: 1 }));
}

/** herd7's verdict on a program's exploration, or null when the program has no condition. */
export function herdVerdict(
  p: CompiledProgram,
  machine: Machine,
  r: ExploreResult,
  seconds?: number,
): HerdAnswer | null {
  return herdAnswer(p, exploredEnds(machine, r), 'states', {
    model: machine.tso ? 'tso' : 'sc',
    ...(seconds === undefined ? {} : { seconds }),
  });
}
