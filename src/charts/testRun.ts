// Test helper: a witness of the catalogue replayed into a Run, as Step mode holds it (the same
// timeline, machine/timeline.ts, without the store around it).

import { parseSchedule } from '../machine/schedule.ts';
import { startTimeline, takeEvents } from '../machine/timeline.ts';
import { scenarioNamed } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { Run } from '../machine/executed.ts';

/** The Run of `schedule` on scenario `sc` with `params`, with the cursor at `at` (default: the end). */
export function scheduleRun(sc: Scenario, params: Params, schedule: string, at?: number): Run {
  const m = sc.build(params).machine;
  const t = takeEvents(startTimeline(m), parseSchedule(schedule));
  return { m, states: t.states, events: t.events, cursor: at ?? t.events.length };
}

/** The Run of witness `name` of scenario `id`, with the cursor at `at` (default: the end). */
export function witnessRun(id: string, name: string, at?: number): Run {
  const sc = scenarioNamed(id);
  const w = sc.witnesses.find((x) => x.name === name);
  if (!w) throw new Error(`no witness ${name} in ${id}`);
  return scheduleRun(sc, resolveParams(sc, w.params), w.schedule, at);
}
