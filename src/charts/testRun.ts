// Test helper: a witness of the catalogue replayed into a Run, as Step mode holds it (the same
// timeline, machine/timeline.ts, without the store around it).

import { parseSchedule } from '../machine/schedule.ts';
import { startTimeline, takeEvents } from '../machine/timeline.ts';
import { scenarioNamed } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Run } from './history.ts';

/** The Run of witness `name` of scenario `id`, with the cursor at `at` (default: the end). */
export function witnessRun(id: string, name: string, at?: number): Run {
  const sc = scenarioNamed(id);
  const w = sc.witnesses.find((x) => x.name === name);
  if (!w) throw new Error(`no witness ${name} in ${id}`);
  const m = sc.build(resolveParams(sc, w.params)).machine;
  const t = takeEvents(startTimeline(m), parseSchedule(w.schedule));
  return { m, states: t.states, events: t.events, cursor: at ?? t.events.length };
}
