// A Step-mode session as plain data and pure transitions: the scenario instance, the timeline of
// events with every state along it (so stepping back and jumping are exact and instant), and a
// cursor. The zustand store (stepStore.ts) holds one of these; tests drive it directly.

import { applyChecked, formatEvent } from '../machine/events.ts';
import { initialState, newTrace } from '../machine/interpreter.ts';
import { describeStep } from '../machine/narrate.ts';
import type { ReplayedStep } from '../machine/replay.ts';
import { copyState } from '../machine/state.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { ParamValue, Params, Scenario, ScenarioInstance } from '../scenarios/types.ts';

export interface Session {
  readonly scenario: Scenario;
  readonly params: Params;
  readonly instance: ScenarioInstance;
  /** Every event taken so far, including those after the cursor (redo). */
  readonly events: readonly number[];
  /** states[i] is the state after the first i events; states[0] is the start. */
  readonly states: readonly Int32Array[];
  /** steps[i] describes events[i]. */
  readonly steps: readonly ReplayedStep[];
  /** How many events are applied in the state shown (0 … events.length). */
  readonly cursor: number;
}

/** A new session at the start of `scenario` with the given parameter overrides. */
export function startSession(
  scenario: Scenario,
  overrides: Readonly<Record<string, ParamValue>> = {},
): Session {
  const params = resolveParams(scenario, overrides);
  const instance = scenario.build(params);
  return {
    scenario,
    params,
    instance,
    events: [],
    states: [initialState(instance.machine)],
    steps: [],
    cursor: 0,
  };
}

/** The state shown. */
export function currentState(s: Session): Int32Array {
  return s.states[s.cursor] as Int32Array;
}

/**
 * Takes `ev` at the cursor. Events after the cursor are dropped unless `ev` is the next one
 * (then it is a redo). Throws IllegalEventError when the event is not legal there.
 */
export function takeEvent(s: Session, ev: number): Session {
  if (s.cursor < s.events.length && s.events[s.cursor] === ev)
    return { ...s, cursor: s.cursor + 1 };
  const m = s.instance.machine;
  const before = currentState(s);
  const after = copyState(before);
  const trace = newTrace();
  applyChecked(m, after, ev, trace);
  const step: ReplayedStep = {
    index: s.cursor,
    event: formatEvent(ev),
    ...describeStep(m, before, after, ev, trace),
  };
  return {
    ...s,
    events: [...s.events.slice(0, s.cursor), ev],
    states: [...s.states.slice(0, s.cursor + 1), after],
    steps: [...s.steps.slice(0, s.cursor), step],
    cursor: s.cursor + 1,
  };
}

/** Takes several events in a row (a schedule); stops with IllegalEventError at a bad one. */
export function takeEvents(s: Session, events: readonly number[]): Session {
  let out = s;
  for (const ev of events) out = takeEvent(out, ev);
  return out;
}

/** Moves the cursor (back, forward, or a jump on the timeline), within the timeline. */
export function moveTo(s: Session, cursor: number): Session {
  const c = Math.max(0, Math.min(s.events.length, cursor));
  return c === s.cursor ? s : { ...s, cursor: c };
}
