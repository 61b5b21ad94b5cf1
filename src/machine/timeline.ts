// A timeline: the events taken on a machine, every state along them and a cursor, so stepping
// back, redoing and jumping are exact and instant. The one home of "apply an event and narrate
// it": replay, the test kit, Step mode's session and the links it opens all go through here.

import { applyChecked, formatEvent, IllegalEventError } from './events.ts';
import { initialState, MachineFault, newTrace } from './interpreter.ts';
import type { Machine } from './machine.ts';
import { describeStep, type StepDescription } from './narrate.ts';
import { copyState } from './state.ts';

export interface ReplayedStep extends StepDescription {
  /** Position in the schedule, from 0. */
  readonly index: number;
  /** The schedule token, e.g. "0", "irq1", "mig0>1". */
  readonly event: string;
}

export interface Timeline {
  readonly m: Machine;
  /** Every event taken so far, including those after the cursor (the redo tail). */
  readonly events: readonly number[];
  /** states[i] is the state after the first i events; states[0] is the start. */
  readonly states: readonly Int32Array[];
  /** steps[i] describes events[i]. */
  readonly steps: readonly ReplayedStep[];
  /** How many events are applied in the state shown (0 … events.length). */
  readonly cursor: number;
}

/**
 * An event of a schedule that is not legal at its point. `index` counts from 0 among the events
 * given to `takeEvents`; the message counts from 1, as a person reads a schedule.
 */
export class ReplayError extends Error {
  constructor(
    readonly index: number,
    readonly event: string,
    readonly reason: string,
    /** The event is legal but the machine faults on it (a typed program's division by zero). */
    readonly fault = false,
  ) {
    super(
      fault
        ? `event ${index + 1} ('${event}') stops the machine: ${reason}`
        : `event ${index + 1} ('${event}') is not possible at that point: ${reason}`,
    );
  }
}

/** A timeline at the start of machine m (its initial state, or `from`). */
export function startTimeline(m: Machine, from: Int32Array = initialState(m)): Timeline {
  return { m, events: [], states: [copyState(from)], steps: [], cursor: 0 };
}

/** The state shown. */
export function currentState(t: Timeline): Int32Array {
  return t.states[t.cursor] as Int32Array;
}

/** Applies `ev` to a copy of `before`; throws IllegalEventError when it is not legal there. */
function advance(m: Machine, before: Int32Array, ev: number, index: number) {
  const after = copyState(before);
  const trace = newTrace();
  applyChecked(m, after, ev, trace);
  const step: ReplayedStep = {
    index,
    event: formatEvent(ev),
    ...describeStep(m, before, after, ev, trace),
  };
  return { after, step };
}

/**
 * Takes `ev` at the cursor. Events after the cursor are dropped unless `ev` is the next one
 * (then it is a redo). Throws IllegalEventError when the event is not legal there.
 */
export function takeEvent<T extends Timeline>(t: T, ev: number): T {
  if (t.cursor < t.events.length && t.events[t.cursor] === ev)
    return { ...t, cursor: t.cursor + 1 };
  const { after, step } = advance(t.m, currentState(t), ev, t.cursor);
  return {
    ...t,
    events: [...t.events.slice(0, t.cursor), ev],
    states: [...t.states.slice(0, t.cursor + 1), after],
    steps: [...t.steps.slice(0, t.cursor), step],
    cursor: t.cursor + 1,
  };
}

/**
 * Takes several events in a row at the cursor (a schedule), dropping any redo tail. Throws
 * ReplayError naming the first event that is not legal where it comes.
 */
export function takeEvents<T extends Timeline>(t: T, events: readonly number[]): T {
  const all = t.events.slice(0, t.cursor);
  const states = t.states.slice(0, t.cursor + 1);
  const steps = t.steps.slice(0, t.cursor);
  let s = currentState(t);
  events.forEach((ev, i) => {
    let next: ReturnType<typeof advance>;
    try {
      next = advance(t.m, s, ev, all.length);
    } catch (e) {
      if (e instanceof IllegalEventError) throw new ReplayError(i, formatEvent(ev), e.reason);
      if (e instanceof MachineFault) throw new ReplayError(i, formatEvent(ev), e.message, true);
      throw e;
    }
    all.push(ev);
    states.push(next.after);
    steps.push(next.step);
    s = next.after;
  });
  return { ...t, events: all, states, steps, cursor: all.length };
}

/** Moves the cursor (back, forward, or a jump), within the timeline. */
export function moveTo<T extends Timeline>(t: T, cursor: number): T {
  const c = Math.max(0, Math.min(t.events.length, cursor));
  return c === t.cursor ? t : { ...t, cursor: c };
}

/** A schedule loaded at its start, ready to step: every event is the redo tail. */
export function loadSchedule<T extends Timeline>(t: T, events: readonly number[]): T {
  return moveTo(takeEvents(t, events), t.cursor);
}
