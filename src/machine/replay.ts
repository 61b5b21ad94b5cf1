// Replaying a schedule: apply each event with its legality checked, and describe every step.

import { applyChecked, formatEvent, IllegalEventError } from './events.ts';
import { initialState, newTrace } from './interpreter.ts';
import type { Machine } from './machine.ts';
import { describeStep, type StepDescription } from './narrate.ts';

export interface ReplayedStep extends StepDescription {
  /** Position in the schedule, from 0. */
  readonly index: number;
  /** The schedule token, e.g. "0", "irq1", "mig0>1". */
  readonly event: string;
}

/** An event of a schedule that is not legal at its point; `index` says which one. */
export class ReplayError extends Error {
  constructor(
    readonly index: number,
    readonly event: string,
    readonly reason: string,
  ) {
    super(`event ${index + 1} ('${event}') is not possible at that point: ${reason}`);
  }
}

/**
 * Replays `events` from the initial state (or `from`). Returns the described steps and every
 * state (states[0] is the start, states[i + 1] follows step i), so callers can travel in time.
 */
export function replay(
  m: Machine,
  events: readonly number[],
  from: Int32Array = initialState(m),
): { steps: ReplayedStep[]; states: Int32Array[] } {
  const states: Int32Array[] = [from.slice()];
  const steps: ReplayedStep[] = [];
  const trace = newTrace();
  let s = from.slice();
  events.forEach((ev, index) => {
    const before = s.slice();
    try {
      applyChecked(m, s, ev, trace);
    } catch (e) {
      if (e instanceof IllegalEventError) throw new ReplayError(index, formatEvent(ev), e.reason);
      throw e;
    }
    steps.push({ index, event: formatEvent(ev), ...describeStep(m, before, s, ev, trace) });
    states.push(s);
    s = s.slice();
  });
  return { steps, states };
}
