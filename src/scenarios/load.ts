// The catalogue one entry at a time, and the typed program the lab has open. index.ts holds every
// entry at once, for the CLI, the workers, the tests and the screens that list them all; a Step
// link needs only the entry it opens, so Step mode finds its scenarios here and loads an entry
// the first time it is asked for (a chunk of its own in the app's build). index.ts registers
// its entries here as it loads, so once any screen has brought the whole catalogue, every entry
// is found at once.

import { globalPlain } from './catalogue/global-plain.ts';
import { PROGRAM_ID, programScenario, type ProgramResult } from './program.ts';
import type { MemoryModel } from '../machine/machine.ts';
import type { Scenario } from './types.ts';

/** Each entry's module, by id, in the catalogue's order (a test holds it to index.ts). */
const LOADERS: Readonly<Record<string, () => Promise<Scenario>>> = {
  'global-plain': () => import('./catalogue/global-plain.ts').then((m) => m.globalPlain),
  'global-atomic': () => import('./catalogue/global-atomic.ts').then((m) => m.globalAtomic),
  'global-spinlock': () => import('./catalogue/global-spinlock.ts').then((m) => m.globalSpinlock),
  'lazy-nr-files': () => import('./catalogue/lazy-nr-files.ts').then((m) => m.lazyNrFiles),
  'percpu-classic': () => import('./catalogue/percpu-classic.ts').then((m) => m.percpuClassic),
  'percpu-atomic64': () => import('./catalogue/percpu-atomic64.ts').then((m) => m.percpuAtomic64),
  'percpu-lglock': () => import('./catalogue/percpu-lglock.ts').then((m) => m.percpuLglock),
  'percpu-seq': () => import('./catalogue/percpu-seq.ts').then((m) => m.percpuSeq),
  'percpu-seq-multi': () => import('./catalogue/percpu-seq-multi.ts').then((m) => m.percpuSeqMulti),
  'percpu-sum-fuzzy': () => import('./catalogue/percpu-sum-fuzzy.ts').then((m) => m.percpuSumFuzzy),
  'this-cpu-migrate': () => import('./catalogue/this-cpu-migrate.ts').then((m) => m.thisCpuMigrate),
  'this-cpu-ops': () => import('./catalogue/this-cpu-ops.ts').then((m) => m.thisCpuOps),
  'irq-local-rmw': () => import('./catalogue/irq-local-rmw.ts').then((m) => m.irqLocalRmw),
  'cmpxchg-local-generic': () =>
    import('./catalogue/cmpxchg-local-generic.ts').then((m) => m.cmpxchgLocalGeneric),
  'percpu-modern': () => import('./catalogue/percpu-modern.ts').then((m) => m.percpuModern),
  'torn-read-32': () => import('./catalogue/torn-read-32.ts').then((m) => m.tornRead32),
  'percpu-rwsem': () => import('./catalogue/percpu-rwsem.ts').then((m) => m.percpuRwsem),
  'seqcount-sum': () => import('./catalogue/seqcount-sum.ts').then((m) => m.seqcountSum),
  'percpu-ref-switch': () =>
    import('./catalogue/percpu-ref-switch.ts').then((m) => m.percpuRefSwitch),
  'percpu-hotplug-sum': () =>
    import('./catalogue/percpu-hotplug-sum.ts').then((m) => m.percpuHotplugSum),
  'percpu-limited-add': () =>
    import('./catalogue/percpu-limited-add.ts').then((m) => m.percpuLimitedAdd),
  'percpu-upgrade': () => import('./catalogue/percpu-upgrade.ts').then((m) => m.percpuUpgrade),
  'percpu-tree': () => import('./catalogue/percpu-tree.ts').then((m) => m.percpuTree),
};

/** Every entry's id, in the catalogue's order. */
export const catalogueIds: readonly string[] = Object.keys(LOADERS);

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
  return Object.hasOwn(LOADERS, id) && !loaded.has(id);
}

/** The scenario with this id, loading its entry first if needed; undefined for no such id. */
export async function loadScenario(id: string): Promise<Scenario | undefined> {
  const load = needsLoading(id) ? LOADERS[id] : undefined;
  if (load) loaded.set(id, await load());
  return loadedScenario(id);
}
