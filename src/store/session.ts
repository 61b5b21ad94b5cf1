// A Step-mode session as plain data and pure transitions: the scenario instance and its
// timeline (machine/timeline.ts: the events, every state along them and a cursor). The zustand
// store (stepStore.ts) holds one of these; tests drive it directly.

import { resolveParams } from '../scenarios/params.ts';
import type { ParamValue, Params, Scenario, ScenarioInstance } from '../scenarios/types.ts';
import { startTimeline, type Timeline } from '../machine/timeline.ts';

export { currentState, loadSchedule, moveTo, takeEvent, takeEvents } from '../machine/timeline.ts';

export interface Session extends Timeline {
  readonly scenario: Scenario;
  readonly params: Params;
  readonly instance: ScenarioInstance;
}

/** A new session at the start of `scenario` with the given parameter overrides. */
export function startSession(
  scenario: Scenario,
  overrides: Readonly<Record<string, ParamValue>> = {},
): Session {
  const params = resolveParams(scenario, overrides);
  const instance = scenario.build(params);
  return { scenario, params, instance, ...startTimeline(instance.machine) };
}
