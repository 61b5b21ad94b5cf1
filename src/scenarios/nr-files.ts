// What the four 2006 nr_files scenarios share: their parameters, their observables (`nr`, the
// counter's final value, and `exact`, what it should be) and the no-lost-update verdict; and the
// whole of the three that keep one global counter, but for how each increments it.
//
// Source thread: LKML "[patch 2/2] fix file counting", January 2006 (Dipankar Sarma's atomic_t
// nr_files, Eric Dumazet's per-CPU lazy nr_files <43D92DD6.6090607@cosmosbay.com>, and the
// 2.6.16 filp_count_lock they replaced).

import { compile, type Machine, type TaskSpec } from '../machine/machine.ts';
import { type Cell, type Layout, LayoutBuilder } from '../machine/layout.ts';
import { ProgramBuilder } from '../machine/builder.ts';
import { intParam, intSpec } from './params.ts';
import { readCell, totalTally } from './observe.ts';
import { plus, unwrap32 } from '../machine/int64.ts';
import { defineScenario, type ScenarioDraft } from './define.ts';
import { NR_FILES_GROUP } from './groups.ts';
import type { InvariantSpec, ObservableSpec, Params, Scenario } from './types.ts';

export const NR_FILES_SOURCE =
  'LKML "[patch 2/2] fix file counting", Jan 2006 (Dipankar Sarma; Eric Dumazet <43D92DD6.6090607@cosmosbay.com>)';

export const cpusParam = intSpec('cpus', 2, [1, 64], 'Number of CPUs; each runs one task');

export const iterationsParam = intSpec(
  'iterations',
  2,
  [0, 10000],
  'How many times each CPU opens a file (increments the counter)',
);

export const initialParam = intSpec(
  'initial',
  0,
  [-1_000_000_000, 1_000_000_000],
  'Initial value of nr_files',
);

export const params = [cpusParam, iterationsParam, initialParam];

/** `exact`: the initial value plus every increment the tasks made. */
export const exactObservable: ObservableSpec = {
  name: 'exact',
  description: 'The true count: initial + every increment made by every CPU',
  read: (m, s, p) => plus(intParam(p, 'initial'), totalTally(m, s)),
};

/** `nr`: the value of the global counter `nr_files`. */
export const nrObservable: ObservableSpec = {
  name: 'nr',
  description: 'The final value of nr_files',
  read: (m, s) => readCell(m, s, 'nr'),
};

/** `no-lost-update` of the nr_files scenarios: nr holds every file counted (nr = exact). */
export const everyFileCounted: InvariantSpec = {
  id: 'no-lost-update',
  when: 'final',
  description: 'Every increment is counted: nr = exact',
  // nr_files is an int: compared modulo 2^32, so a counter that wrapped has lost nothing.
  final: (o) =>
    String(unwrap32(o.nr as number, o.exact as number)) === String(o.exact)
      ? null
      : `nr is ${String(o.nr)} but ${String(o.exact)} files were counted: ${lost(o.nr, o.exact)} lost`,
};

function lost(nr: unknown, exact: unknown): string {
  const d = Number(exact) - Number(nr);
  return d === 1 ? '1 increment' : `${d} increments`;
}

/** No interrupts or migrations in these scenarios: exploration bounds are all zero. */

/** One task per CPU, each running `body` `iterations` times. */
export function perCpuTasks(p: Params, body: (b: ProgramBuilder) => void): TaskSpec[] {
  const cpus = intParam(p, 'cpus');
  const iterations = intParam(p, 'iterations');
  const tasks: TaskSpec[] = [];
  for (let k = 0; k < cpus; k++) {
    const b = new ProgramBuilder(`T${k}`);
    b.repeat(iterations, () => {
      body(b);
    });
    tasks.push({ name: `T${k}`, cpu: k, program: b.build() });
  }
  return tasks;
}

export function machineOf(p: Params, layout: Layout, tasks: TaskSpec[]): Machine {
  return compile({ cpus: intParam(p, 'cpus'), wordBits: 64, layout, tasks });
}

/** The witnesses' machine: two CPUs open one file each, nr_files starting at 100 (§6a). */
export const TWO_OPENS_FROM_100: Params = { cpus: 2, iterations: 1, initial: 100 };

/** An entry with one global nr_files, as written: what it shows and how a CPU increments it. */
export type GlobalCounterDraft<T> = Pick<
  ScenarioDraft,
  'id' | 'title' | 'summary' | 'guarantees' | 'witnesses' | 'lesson'
> & {
  /** The thread by default. */
  readonly source?: string;
  readonly listing: readonly string[];
  readonly notes: readonly string[];
  /** Cells laid out before nr_files (a lock). */
  readonly before: (L: LayoutBuilder) => T;
  /** One increment of `nr`, as the entry's listing writes it. */
  readonly increment: (b: ProgramBuilder, nr: Cell, before: T) => void;
};

/**
 * The entries that keep one global nr_files (plain, atomic, under a lock): they share their
 * parameters, their machine, and the verdict of every file counted, and differ in the increment.
 */
export function globalCounter<T>(d: GlobalCounterDraft<T>): Scenario {
  return defineScenario({
    id: d.id,
    title: d.title,
    group: NR_FILES_GROUP,
    source: d.source ?? NR_FILES_SOURCE,
    summary: d.summary,
    reconstruction: false,
    params,
    build(p, opts) {
      const L = new LayoutBuilder(intParam(p, 'cpus'), opts);
      const before = d.before(L);
      const nr = L.cell('nr', 'nr_files', 's32', intParam(p, 'initial'));
      const tasks = perCpuTasks(p, (b) => {
        d.increment(b, nr, before);
      });
      return {
        params: p,
        machine: machineOf(p, L.build(), tasks),
        listing: { lines: d.listing, notes: d.notes },
      };
    },
    observables: () => [nrObservable, exactObservable],
    invariants: [everyFileCounted],
    ...(d.guarantees ? { guarantees: d.guarantees } : {}),
    witnesses: d.witnesses,
    lesson: d.lesson,
  });
}
