// Replaying a schedule: apply each event with its legality checked, and describe every step.

import { initialState } from './interpreter.ts';
import type { Machine } from './machine.ts';
import { type ReplayedStep, startTimeline, takeEvents } from './timeline.ts';

export { ReplayError, type ReplayedStep } from './timeline.ts';

/**
 * Replays `events` from the initial state (or `from`). Returns the described steps and every
 * state (states[0] is the start, states[i + 1] follows step i), so callers can travel in time.
 * Throws ReplayError naming the first event that is not legal where it comes.
 */
export function replay(
  m: Machine,
  events: readonly number[],
  from: Int32Array = initialState(m),
): { steps: ReplayedStep[]; states: Int32Array[] } {
  const t = takeEvents(startTimeline(m, from), events);
  return { steps: [...t.steps], states: [...t.states] };
}
