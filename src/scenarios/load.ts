// The catalogue one entry at a time, and the typed program the lab has open. index.ts holds every
// entry at once, for the CLI, the workers, the tests and the screens that list them all; a Step
// link needs only the entry it opens, so Step mode finds its scenarios here and loads an entry
// the first time it is asked for (a chunk of its own in the app's build), by its row in
// entries.ts. index.ts registers its entries here as it loads, so once any screen has brought
// the whole catalogue, every entry is found at once.

import globalPlain from './catalogue/global-plain.ts';
import { ENTRIES } from './entries.ts';
import { PROGRAM_ID, programScenario, type ProgramResult } from './program.ts';
import type { MemoryModel } from '../machine/machine.ts';
import type { Scenario } from './types.ts';

/** Each entry's module, by id (entries.ts). */
const LOADERS: ReadonlyMap<string, () => Promise<{ readonly default: Scenario }>> = new Map(
  ENTRIES.map((e) => [e.id, e.scenario]),
);

/** Every entry's id, in the catalogue's order. */
export const catalogueIds: readonly string[] = ENTRIES.map((e) => e.id);

/** What Step mode opens when a link cannot be used: the first entry, always at hand. */
export const firstScenario: Scenario = globalPlain;

const loaded = new Map<string, Scenario>([[firstScenario.id, firstScenario]]);

/** Makes entries found at once (index.ts registers the whole catalogue as it loads). */
export function registerScenarios(entries: readonly Scenario[]): void {
  for (const sc of entries) loaded.set(sc.id, sc);
}

/** The program typed into the lab that this page (or worker) has open, if any. */
let open: (ProgramResult & { readonly ok: true; readonly text: string }) | null = null;

/**
 * Compiles a typed program and, when it compiles, makes it the one `findScenario('program')`
 * returns: every mode then takes it as it takes a catalogue entry. A worker opens the text it
 * is handed before it looks its scenario up. `memory`: the model it will first run under, which
 * it is compiled for (programScenario).
 */
export function openProgram(text: string, memory?: MemoryModel | 'lkmm'): ProgramResult {
  if (open?.text === text) return open;
  const r = programScenario(text, PROGRAM_ID, memory);
  if (r.ok) open = { ...r, text };
  return r;
}

/** The text of the open typed program, or null. */
export function openProgramText(): string | null {
  return open?.text ?? null;
}

/** The scenario with this id if it is at hand (`program`: the open typed program), else undefined. */
export function loadedScenario(id: string): Scenario | undefined {
  return id === PROGRAM_ID ? open?.scenario : loaded.get(id);
}

/** Whether `id` is a catalogue entry that has not loaded yet (loadScenario brings it). */
export function needsLoading(id: string): boolean {
  return LOADERS.has(id) && !loaded.has(id);
}

/** The scenario with this id, loading its entry first if needed; undefined for no such id. */
export async function loadScenario(id: string): Promise<Scenario | undefined> {
  const load = needsLoading(id) ? LOADERS.get(id) : undefined;
  if (load) loaded.set(id, (await load()).default);
  return loadedScenario(id);
}
