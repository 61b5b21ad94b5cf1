// Which scenarios run live, and how: live workers repeat each task's program, so a scenario runs
// live with parameters that make each program ONE operation (one add, one sum), and the charts
// need to know which cells are the per-CPU slots and what the counter's full value is.

import { catalogue, findScenario } from '../scenarios/index.ts';
import { plus, unwrap32 } from '../machine/int64.ts';
import { intParam, resolveParams } from '../scenarios/params.ts';
import type { Observables, Params, ParamValue, Scenario } from '../scenarios/types.ts';

export interface LiveSpec {
  readonly id: string;
  /** What one add is, in the kernel's words, for charts and headlines. */
  readonly operation: string;
  /**
   * The parameters that make each task program one operation, for a machine of `cpus` CPUs;
   * with `summer`, the last CPU calls sum() (where the scenario has one), else every CPU adds.
   */
  readonly loop: (cpus: number, summer: boolean) => Readonly<Record<string, ParamValue>>;
  /** The scenario has a sum() a CPU can call while the others add. */
  readonly hasSummer: boolean;
  /** The counter's full value in memory: lost updates are the exact total minus this, at rest. */
  readonly value: (o: Observables, p: Params) => number | bigint;
  /** The per-CPU deltas drawn as bars against the batch (null: the scenario has none). */
  readonly slots: string | null;
  /** The threshold drawn on the bars (percpu_counter_batch), or null. */
  readonly batch: (p: Params) => number | null;
  /**
   * The cheap approximate read (percpu_counter_read(), get_nr_files()) from the observables, and
   * its error bound at rest, where the scenario has one.
   */
  readonly read: {
    /** What the kernel calls it, e.g. "percpu_counter_read()". */
    readonly name: string;
    readonly value: (o: Observables) => number | bigint;
    readonly bound: (p: Params) => number;
    /** The bound in words, e.g. "(batch − 1) × CPUs". */
    readonly boundText: string;
  } | null;
  /** The result slot where sum() writes what it returned, where there is a summer. */
  readonly sum: string | null;
  /** Parameters the live controls offer besides `cpus` (when the scenario has them). */
  readonly controls: readonly string[];
  /** The number of CPUs is fixed by the scenario (e.g. one CPU and its IRQ). */
  readonly fixedCpus: number | null;
}

const num = (v: unknown): number | bigint => (typeof v === 'bigint' ? v : Number(v ?? 0));

/** `start` plus every slotN observable. */
function slotTotal(o: Observables, start: number | bigint): number | bigint {
  let total = start;
  for (const [name, v] of Object.entries(o))
    if (/^slot\d+$/.test(name)) total = plus(total, num(v));
  return total;
}

/** count + every slotN (+ slowcount where the variant has one). */
function percpuValue(o: Observables): number | bigint {
  return slotTotal(o, plus(num(o.count), 'slowcount' in o ? num(o.slowcount) : 0));
}

const bandOf = (p: Params) => (intParam(p, 'batch') - 1) * intParam(p, 'cpus');

/** Every percpu_counter variant: the last CPU sums (with 2 CPUs or more), the others add. */
function percpu(
  id: string,
  operation: string,
  extra: (cpus: number, summer: boolean) => Record<string, ParamValue> = () => ({}),
) {
  return {
    id,
    operation,
    loop: (cpus: number, summer: boolean) => ({
      cpus,
      adds: [1],
      sums: 1,
      adders: 'counted',
      reader: -1,
      summer: summer && cpus >= 2 ? cpus - 1 : -1,
      ...extra(cpus, summer),
    }),
    hasSummer: true,
    value: percpuValue,
    slots: 'slots',
    batch: (p: Params) => intParam(p, 'batch'),
    // read() is fbc->count, plus slowcount where the variant diverts adds there.
    read: {
      name: 'percpu_counter_read()',
      value: (o: Observables) => plus(num(o.count), num(o.slowcount)),
      bound: bandOf,
      boundText: '(batch − 1) × CPUs',
    },
    sum: 'sum',
    controls: ['batch', 'amounts', 'variant'],
    fixedCpus: null,
  } satisfies LiveSpec;
}

function nrFiles(id: string, operation: string): LiveSpec {
  return {
    id,
    operation,
    loop: (cpus) => ({ cpus, iterations: 1 }),
    hasSummer: false,
    // An int that may have wrapped in a long run: the value it stands for (see unwrap32).
    value: (o) => unwrap32(num(o.nr), num(o.exact)),
    slots: id === 'lazy-nr-files' ? 'local' : null,
    batch: (p) => (id === 'lazy-nr-files' ? intParam(p, 'threshold') : null),
    read:
      id === 'lazy-nr-files'
        ? {
            name: 'get_nr_files()',
            value: (o) => unwrap32(num(o.read), num(o.exact)),
            bound: (p) => intParam(p, 'threshold') * intParam(p, 'cpus'),
            boundText: 'threshold × CPUs',
          }
        : null,
    sum: null,
    controls: id === 'lazy-nr-files' ? ['threshold'] : [],
    fixedCpus: null,
  };
}

export const liveSpecs: readonly LiveSpec[] = [
  nrFiles('global-plain', 'nr_files++ on one shared word (racy)'),
  nrFiles('global-atomic', 'atomic_inc on one shared word'),
  nrFiles('global-spinlock', 'nr_files++ under one spinlock'),
  nrFiles('lazy-nr-files', 'per-CPU nr_files with a threshold'),
  percpu('percpu-classic', 'percpu_counter_add (2.6.39)', () => ({ comparer: -1 })),
  percpu('percpu-atomic64', 'percpu_counter_add with an atomic64 count'),
  percpu('percpu-lglock', 'percpu_counter_add under per-CPU locks'),
  percpu('percpu-seq', 'percpu_counter_add with a sequence bit'),
  // Two summers in flight when there are CPUs to spare.
  percpu('percpu-seq-multi', 'percpu_counter_add with several sums in flight', (cpus, summer) => ({
    summer2: summer && cpus >= 3 ? cpus - 2 : -1,
  })),
  percpu('percpu-sum-fuzzy', 'percpu_counter_add with a retrying sum'),
  percpu('percpu-modern', 'percpu_counter_add_batch (mainline)'),
  // In these two the per-CPU cells are whole counters, not deltas bounded by a batch: bars of
  // millions would show nothing, so they have no slot chart.
  {
    id: 'irq-local-rmw',
    operation: 'a per-CPU add an IRQ can interrupt',
    loop: () => ({}),
    hasSummer: false,
    value: (o) => num(o.c),
    slots: null,
    batch: () => null,
    read: null,
    sum: null,
    controls: ['variant'],
    fixedCpus: 1,
  },
  {
    id: 'this-cpu-ops',
    operation: 'one this_cpu add',
    loop: () => ({}),
    hasSummer: false,
    value: (o) => slotTotal(o, 0),
    slots: null,
    batch: () => null,
    read: null,
    sum: null,
    controls: ['variant'],
    fixedCpus: 2,
  },
];

export function liveSpecOf(id: string): LiveSpec | undefined {
  return liveSpecs.find((s) => s.id === id);
}

/** The scenarios that run live, in catalogue order. */
export function liveScenarios(): Scenario[] {
  return catalogue.filter((sc) => liveSpecOf(sc.id) !== undefined);
}

export interface LiveShape {
  /** The last CPU calls sum() where the scenario has one (default); false: every CPU adds. */
  readonly summer?: boolean;
  /** A named parameter set applied under the choices (e.g. "kernel": batch max(32, 2 × CPUs)). */
  readonly preset?: string;
}

/** The parameters a live run of `id` uses: the user's choices, then the loop's. */
export function liveParams(
  id: string,
  cpus: number,
  choices: Readonly<Record<string, ParamValue>> = {},
  shape: LiveShape = {},
): Params {
  const sc = findScenario(id);
  const spec = liveSpecOf(id);
  if (!sc || !spec) throw new Error(`${id} does not run live`);
  const n = spec.fixedCpus ?? cpus;
  const known = Object.fromEntries(
    Object.entries(choices).filter(([name]) => sc.params.some((q) => q.name === name)),
  );
  const preset =
    shape.preset !== undefined && shape.preset in sc.presets ? shape.preset : undefined;
  return resolveParams(sc, { ...known, ...spec.loop(n, shape.summer ?? true) }, preset);
}
