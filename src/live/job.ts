// A live CPU worker's whole job, the same wherever it runs (a Web Worker in the page, a Node
// worker thread in the CLI and the tests): what it is posted, how it rebuilds the run's machine
// from plain data, and its life from mapping the shared memory to its CPU's end. The page's
// side of a run (starting the workers, stopping them, reading what they did) is run.ts.

import { callChecks } from './calls.ts';
import { type CpuClock, runCpu } from './cpu/cpu.ts';
import { liveCounter } from './counter.ts';
import { chooseEngine } from './engine/choose.ts';
import type { EngineKind, Tier } from './engine/engine.ts';
import { runLockstep } from './lockstep.ts';
import { mapLive, type SharedMemory, type SlotLayout } from './memory.ts';
import { PROBE_ID, probeMachine, runProbeCpu } from './probe.ts';
import type { Machine } from '../machine/machine.ts';
import { openRequest, scenarioNamed, type ScenarioRequest } from '../scenarios/index.ts';
import { intParam } from '../scenarios/params.ts';
import { memoryOf } from '../scenarios/textScenario.ts';
import type { Params } from '../scenarios/types.ts';

/** What one CPU worker is asked to do (posted to it: plain data and the shared memory). */
export interface CpuJob extends ScenarioRequest {
  readonly memory: SharedMemory;
  readonly params: Params;
  readonly cpu: number;
  /**
   * free: run at full speed; lockstep: apply the events the page hands this CPU; probe: run
   * the visibility probe's task once (probe.ts).
   */
  readonly mode: 'free' | 'lockstep' | 'probe';
  readonly engine: EngineKind;
  /** bare: compiled CPUs run bare while no event can fall due; exact: always exact. */
  readonly tier: Tier;
  /** Where the counter's cells go: each on its own line (padded), or adjacent (packed). */
  readonly layout: SlotLayout;
}

/**
 * The machine a live run of `scenario` builds: the same, deterministic, in every thread. A free
 * run's CPUs are real ones, with the hardware's own memory model, so its machine has no store
 * buffers; a lockstep replay applies the model's events, flushes included, so under memory tso
 * its machine keeps the buffers in shared memory.
 */
export function liveMachine(
  scenario: string,
  params: Params,
  layout: SlotLayout = 'padded',
  mode: CpuJob['mode'] = 'free',
): Machine {
  if (scenario === PROBE_ID) return probeMachine(intParam(params, 'writes'));
  const packedCells = layout === 'packed';
  // Live repeats each program as written: its loops run free, with no hidden bound.
  return scenarioNamed(scenario).build(params, {
    padded: true,
    packedCells,
    live: true,
    ...(mode === 'lockstep' ? { memory: memoryOf(params) } : {}),
  }).machine;
}

/**
 * A worker's whole life: opens the job's scenario (a typed program is compiled here first),
 * rebuilds the machine, maps the memory, runs its CPU to the end.
 */
export function runJob(job: CpuJob, clock: CpuClock): void {
  if (job.mode === 'probe') {
    const m = liveMachine(job.scenario, job.params);
    const mem = mapLive(job.memory, m);
    runProbeCpu(mem, m, job.cpu, chooseEngine(mem, m, job.cpu, job.engine, job.tier));
    return;
  }
  const sc = openRequest(job);
  const m = liveMachine(job.scenario, job.params, job.layout, job.mode);
  const mem = mapLive(job.memory, m);
  if (job.mode === 'lockstep') {
    runLockstep(mem, m, job.cpu);
    return;
  }
  const checks = callChecks(m, liveCounter(sc, job.params, m, job.layout));
  runCpu(mem, m, job.cpu, clock, { checks, engine: job.engine, tier: job.tier });
}
