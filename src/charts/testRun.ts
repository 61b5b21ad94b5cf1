// Test helper: a witness of the catalogue replayed into a Run, as Step mode holds it.

import { parseSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import { startSession, takeEvents } from '../store/session.ts';
import type { Run } from './history.ts';

/** The Run of witness `name` of scenario `id`, with the cursor at `at` (default: the end). */
export function witnessRun(id: string, name: string, at?: number): Run {
  const sc = findScenario(id);
  if (!sc) throw new Error(`no scenario ${id}`);
  const w = sc.witnesses.find((x) => x.name === name);
  if (!w) throw new Error(`no witness ${name} in ${id}`);
  const s = takeEvents(startSession(sc, w.params), parseSchedule(w.schedule));
  return {
    m: s.instance.machine,
    states: s.states,
    events: s.events,
    cursor: at ?? s.events.length,
  };
}
