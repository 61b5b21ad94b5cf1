// Which scenarios run live, and how: live workers repeat each task's program, so a scenario runs
// live with parameters that make each program ONE operation (one add, one sum). What the charts
// read of the counter comes from the program's own declaration (counter.ts). The parameters a run
// uses are liveParams.ts's, which needs the whole catalogue: this module does not, so Step mode
// can ask whether a scenario runs live without loading every entry (scenarios/load.ts).

import type { CompiledProgram } from '../lang/compiled.ts';
import { counterReaders } from '../lang/counter.ts';
import { Op } from '../machine/isa.ts';
import { loadedScenario } from '../scenarios/load.ts';
import { resolveParams } from '../scenarios/params.ts';
import { PROGRAM_ID } from '../scenarios/program.ts';
import type { ParamValue } from '../scenarios/types.ts';

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
  /** Parameters the live controls offer besides `cpus` (when the scenario has them). */
  readonly controls: readonly string[];
  /** The number of CPUs is fixed by the scenario (e.g. one CPU and its IRQ). */
  readonly fixedCpus: number | null;
  /** The program has CPU hotplug (DEADk() callbacks): the hotplug rate applies to it. */
  readonly hotplug?: boolean;
}

/** Every percpu_counter variant: the last CPU sums (with 2 CPUs or more), the others add. */
function percpu(
  id: string,
  operation: string,
  extra: (cpus: number, summer: boolean) => Record<string, ParamValue> = () => ({}),
): LiveSpec {
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
    controls: ['batch', 'amounts', 'variant'],
    fixedCpus: null,
  };
}

function nrFiles(id: string, operation: string): LiveSpec {
  return {
    id,
    operation,
    loop: (cpus) => ({ cpus, iterations: 1 }),
    hasSummer: false,
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
  // CPU0's task upgrades the counter to per-CPU on its first pass (a no-op after); every CPU adds.
  {
    id: 'percpu-upgrade',
    operation: 'lazy_pcpu_counter_add_atomic, upgraded to per-CPU',
    loop: (cpus) => ({ cpus, adds: [1], amounts: [1], upgrader: 0 }),
    hasSummer: false,
    controls: ['batch', 'variant'],
    fixedCpus: null,
  },
  // The counter tree: every CPU adds 1 (the last sums precisely, with a summer); its per-CPU
  // words start at 0 and no IRQ handler adds.
  {
    id: 'percpu-tree',
    operation: 'percpu_counter_tree_add (the counter tree, RFC)',
    loop: (cpus: number, summer: boolean) => ({
      cpus,
      adds: Array.from({ length: cpus }, () => 1),
      amounts: [1],
      start: [],
      irq: 0,
      summer: summer && cpus >= 2 ? cpus - 1 : -1,
    }),
    hasSummer: true,
    controls: ['batch', 'variant'],
    fixedCpus: null,
  },
  {
    id: 'irq-local-rmw',
    operation: 'a per-CPU add an IRQ can interrupt',
    loop: () => ({}),
    hasSummer: false,
    controls: ['variant'],
    fixedCpus: 1,
  },
  {
    id: 'this-cpu-ops',
    operation: 'one this_cpu add',
    loop: () => ({}),
    hasSummer: false,
    controls: ['variant'],
    fixedCpus: 2,
  },
  // check_mm()'s sum repeats on CPU2 while CPU1 goes offline and comes back at the hotplug rate;
  // its dead callbacks fold its slot on CPU0. The counter never changes: every sum should be 0.
  {
    id: 'percpu-hotplug-sum',
    operation: '__percpu_counter_sum while CPU1 goes offline and online',
    loop: () => ({}),
    hasSummer: true,
    controls: ['variant', 'mapped'],
    fixedCpus: 3,
    hotplug: true,
  },
];

export function liveSpecOf(id: string): LiveSpec | undefined {
  if (id === PROGRAM_ID) return programSpec();
  return liveSpecs.find((s) => s.id === id);
}

/** Why a typed program cannot run live, in a sentence, or null when it can. */
export function whyNotLive(program: CompiledProgram): string | null {
  const a = program.anatomy;
  if (!a) return 'Live runs a counter: declare one with `counter { count …; add …; }`.';
  if (a.adds.size === 0)
    return 'Live repeats the adds: name the add function in the counter (`add f;`).';
  // Live repeats each thread: one that loops forever never ends an operation, nor stops.
  if (program.machine.code.some((c) => c.some((i) => i.op === Op.Pause)))
    return 'a thread loops forever: Live repeats each thread, so each must end.';
  // CPU hotplug runs free too: a CPU with dead callbacks goes offline at the hotplug rate, once
  // it has no task left (live/cpu/hotplug.ts).
  return null;
}

/**
 * The open typed program runs live when it declares a counter with an add: its threads repeat
 * as written, on the CPUs they name; a thread that calls the counter's sum is its summer.
 */
function programSpec(): LiveSpec | undefined {
  const sc = loadedScenario(PROGRAM_ID);
  const program = sc?.program?.(resolveParams(sc, {}));
  const counter = program ? counterReaders(program) : null;
  if (!program || !counter || whyNotLive(program) !== null) return undefined;
  return {
    id: PROGRAM_ID,
    operation: `${counter.adds.join('(), ')}()`,
    loop: () => ({}),
    hasSummer: counter.summers.length > 0,
    controls: [],
    fixedCpus: program.machine.cpus,
    hotplug: program.machine.hotplug !== null,
  };
}

/** The most CPU workers a live run (and a Scaling sweep) starts. */
export const MAX_LIVE_CPUS = 64;

/**
 * The default number of live CPUs, the page's and the CLI's: the cores but one, so the page (or
 * the shell) keeps a core, and never fewer than two, since a race (or a summer beside an adder)
 * needs two CPUs.
 */
export function defaultCpus(cores: number): number {
  return Math.max(2, Math.min(MAX_LIVE_CPUS, cores - 1));
}
