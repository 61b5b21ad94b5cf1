// The scenario catalogue. Ids are stable: they appear in URLs, the CLI and tests.

import { globalAtomic } from './catalogue/global-atomic.ts';
import { globalPlain } from './catalogue/global-plain.ts';
import { globalSpinlock } from './catalogue/global-spinlock.ts';
import { lazyNrFiles } from './catalogue/lazy-nr-files.ts';
import { percpuAtomic64 } from './catalogue/percpu-atomic64.ts';
import { percpuClassic } from './catalogue/percpu-classic.ts';
import { percpuLglock } from './catalogue/percpu-lglock.ts';
import { percpuModern } from './catalogue/percpu-modern.ts';
import { percpuSeq } from './catalogue/percpu-seq.ts';
import { percpuSeqMulti } from './catalogue/percpu-seq-multi.ts';
import { percpuSumFuzzy } from './catalogue/percpu-sum-fuzzy.ts';
import { thisCpuMigrate } from './catalogue/this-cpu-migrate.ts';
import { thisCpuOps } from './catalogue/this-cpu-ops.ts';
import { irqLocalRmw } from './catalogue/irq-local-rmw.ts';
import { cmpxchgLocalGeneric } from './catalogue/cmpxchg-local-generic.ts';
import { tornRead32 } from './catalogue/torn-read-32.ts';
import { percpuRwsem } from './catalogue/percpu-rwsem.ts';
import { seqcountSum } from './catalogue/seqcount-sum.ts';
import { percpuRefSwitch } from './catalogue/percpu-ref-switch.ts';
import { percpuHotplugSum } from './catalogue/percpu-hotplug-sum.ts';
import { percpuLimitedAdd } from './catalogue/percpu-limited-add.ts';
import { percpuUpgrade } from './catalogue/percpu-upgrade.ts';
import { percpuTree } from './catalogue/percpu-tree.ts';
import { loadedScenario, openProgram, openProgramText, registerScenarios } from './load.ts';
import type { MemoryModel } from '../machine/machine.ts';
import { ParamError } from './params.ts';
import { PROGRAM_ID } from './program.ts';
import type { Scenario } from './types.ts';

export type { Scenario } from './types.ts';

/** What a picker or a list needs to show of a scenario. */
export type ScenarioSummary = Pick<
  Scenario,
  'id' | 'title' | 'group' | 'source' | 'summary' | 'reconstruction'
>;

/** Every scenario, in the catalogue's order (docs/catalogue.md; roughly: by thread, then by era). */
export const catalogue: readonly Scenario[] = [
  globalPlain,
  globalAtomic,
  globalSpinlock,
  lazyNrFiles,
  percpuClassic,
  percpuAtomic64,
  percpuLglock,
  percpuSeq,
  percpuSeqMulti,
  percpuSumFuzzy,
  thisCpuMigrate,
  thisCpuOps,
  irqLocalRmw,
  cmpxchgLocalGeneric,
  percpuModern,
  tornRead32,
  percpuRwsem,
  seqcountSum,
  percpuRefSwitch,
  percpuHotplugSum,
  percpuLimitedAdd,
  percpuUpgrade,
  percpuTree,
];

// Found at once by the modules that load entries one at a time (load.ts), once this module has.
registerScenarios(catalogue);

export { openProgram, openProgramText };

/** The scenario with this id (`program`: the open typed program), or undefined. */
export function findScenario(id: string): Scenario | undefined {
  if (id === PROGRAM_ID) return loadedScenario(id);
  return catalogue.find((s) => s.id === id);
}

/** The scenario with this id; throws, naming it, when there is none. */
export function scenarioNamed(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(`unknown scenario '${id}'`);
  return sc;
}

/**
 * How another thread is told which scenario to open: its id, and for a typed program its text
 * (a worker has no program open until it is handed one).
 */
export interface ScenarioRequest {
  readonly scenario: string;
  /** A typed program's text, for scenario `program`: the worker opens it first. */
  readonly program?: string;
}

/** The request for scenario `id` as this thread has it open. */
export function scenarioRequest(id: string): ScenarioRequest {
  const text = id === PROGRAM_ID ? openProgramText() : null;
  return text === null ? { scenario: id } : { scenario: id, program: text };
}

/**
 * The scenario a request names, as a worker opens it: a typed program is compiled first, for
 * `memory` when the worker knows the model it runs under. Throws ParamError, with the reason,
 * for a program that does not compile or a scenario there is none of.
 */
export function openRequest(req: ScenarioRequest, memory?: MemoryModel | 'lkmm'): Scenario {
  if (req.program !== undefined && !openProgram(req.program, memory).ok)
    throw new ParamError('the program does not compile');
  const sc = findScenario(req.scenario);
  if (!sc) throw new ParamError(`unknown scenario '${req.scenario}'`);
  return sc;
}
