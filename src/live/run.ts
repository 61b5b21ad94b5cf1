// A live run's life, the same wherever it runs: the page (Web Workers), the CLI and the tests
// (Node worker threads), and the Scaling view's sweeps. A platform only says how to start one
// CPU's worker and how to wait on shared memory; everything else is here: allocate the memory,
// start the CPUs together, stop them, notice a crashed or stuck one, terminate them, read and
// judge the state they stopped in, and replay schedules in lockstep.

import { callChecks } from './calls.ts';
import {
  allExited,
  applyDuty,
  applySettings,
  exited,
  faultedCpu,
  type LiveSettings,
  requestStop,
  startTogether,
  type Waiter,
} from './control.ts';
import { type CpuClock, runCpu } from './cpu/cpu.ts';
import type { EngineKind } from './engine/engine.ts';
import { compareWithModel, driveLockstep, type LockstepReport, runLockstep } from './lockstep.ts';
import { allocateLive, C_QUIESCED, type LiveMemory, mapLive, type SharedMemory } from './memory.ts';
import { type LiveReading, readSample, type Sample, takeSample } from './readout.ts';
import { liveCounter } from './counter.ts';
import { chooseEngine } from './engine/choose.ts';
import { PROBE_ID, probeMachine, type ProbeResult, probeSeen, runProbeCpu } from './probe.ts';
import { intParam } from '../scenarios/params.ts';
import { type LiveVerdict, liveVerdict } from './verdict.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import { findScenario, openProgram, openProgramText } from '../scenarios/index.ts';
import { PROGRAM_ID } from '../scenarios/program.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { memoryOf } from '../scenarios/text-scenario.ts';
import { messageOf } from '../machine/errors.ts';

/** What one CPU worker is asked to do (posted to it: plain data and the shared memory). */
export interface CpuJob {
  readonly memory: SharedMemory;
  readonly scenario: string;
  readonly params: Params;
  readonly cpu: number;
  /**
   * free: run at full speed; lockstep: apply the events the page hands this CPU; probe: run
   * the visibility probe's task once (probe.ts).
   */
  readonly mode: 'free' | 'lockstep' | 'probe';
  readonly engine: EngineKind;
  /** Where the counter's cells go: each on its own line (padded), or adjacent (packed). */
  readonly layout: SlotLayout;
  /** A typed program's text, for scenario `program`: the worker opens it first. */
  readonly program?: string;
}

/** Per-CPU slots and other cells on lines of their own, or adjacent as in the model. */
export type SlotLayout = 'padded' | 'packed';
export const SLOT_LAYOUTS: readonly SlotLayout[] = ['padded', 'packed'];

function scenarioOf(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(`unknown scenario ${id}`);
  return sc;
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
  return scenarioOf(scenario).build(params, {
    padded: true,
    packedCells,
    live: true,
    ...(mode === 'lockstep' ? { memory: memoryOf(params) } : {}),
  }).machine;
}

/** A worker's whole life: maps the memory, rebuilds the machine, runs its CPU to the end. */
export function runJob(job: CpuJob, clock: CpuClock): void {
  if (job.program !== undefined) {
    const opened = openProgram(job.program);
    if (!opened.ok) throw new Error('the program does not compile in the worker');
  }
  const m = liveMachine(job.scenario, job.params, job.layout, job.mode);
  const mem = mapLive(job.memory, m);
  if (job.mode === 'probe') {
    runProbeCpu(mem, m, job.cpu, chooseEngine(mem, m, job.cpu, job.engine));
  } else if (job.mode === 'free') {
    const sc = scenarioOf(job.scenario);
    const checks = callChecks(m, liveCounter(sc, job.params, m, job.layout));
    runCpu(mem, m, job.cpu, clock, { checks, engine: job.engine });
  } else runLockstep(mem, m, job.cpu);
}

export interface CpuWorker {
  terminate(): void;
}

/** How a platform runs CPUs: start one worker on a job, and wait on shared memory. */
export interface Platform {
  /** Starts a worker running `runJob(job)`; `failed` hears if it throws or cannot load. */
  spawn(job: CpuJob, failed: (message: string) => void): CpuWorker;
  readonly wait: Waiter;
}

export interface RunSetup {
  readonly scenario: string;
  readonly params: Params;
  readonly settings: LiveSettings;
  readonly seed: number;
  readonly engine: EngineKind;
  /** Default: padded. */
  readonly layout?: SlotLayout;
  /** Percent of the time each CPU may run (default 100; see control.ts dutyFor). */
  readonly dutyPercent?: number;
}

/** A run's machine and the shared memory its CPUs work on. */
export interface LiveRun {
  readonly scenario: string;
  readonly params: Params;
  readonly machine: Machine;
  readonly mem: LiveMemory;
}

/** How long a stop may take before the CPUs count as stuck (a deadlock, a task that never ends). */
export const STOP_TIMEOUT_MS = 3000;

export type StopOutcome =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'stuck'; readonly running: number }
  | { readonly kind: 'failed'; readonly message: string }
  /** Stopped because these CPUs stopped responding mid-run (watchdog.ts). */
  | { readonly kind: 'unresponsive'; readonly cpus: readonly number[] };

/** The CPUs of one free run: started together, stopped through shared memory, then terminated. */
export class RunningCpus {
  private failure: string | null = null;
  private workers: CpuWorker[] = [];

  private constructor(readonly run: LiveRun) {}

  /** Creates the CPUs and starts them together; `failed` hears of a worker that throws. */
  static async start(
    platform: Platform,
    setup: RunSetup,
    failed: (message: string) => void = () => undefined,
  ): Promise<RunningCpus> {
    const machine = liveMachine(setup.scenario, setup.params, setup.layout);
    const mem = allocateLive(machine, initialState(machine));
    applySettings(mem, setup.settings, setup.seed);
    applyDuty(mem, setup.dutyPercent ?? 100);
    const cpus = new RunningCpus({ scenario: setup.scenario, params: setup.params, machine, mem });
    cpus.workers = spawnAll(platform, mem, setup, 'free', (message) => {
      if (cpus.failure !== null) return;
      cpus.failure = message;
      // The other CPUs see the stop flag and finish their operations.
      requestStop(mem);
      failed(message);
    });
    try {
      await startTogether(mem, platform.wait);
    } catch (e) {
      cpus.terminate();
      // Say what went wrong first (a worker that crashed while loading), not the symptom.
      throw new Error(cpus.failure ?? messageOf(e));
    }
    return cpus;
  }

  /** The first failure a worker reported, or null. */
  get failed(): string | null {
    return this.failure;
  }

  /**
   * Asks the CPUs to finish their operations; terminates them once stopped (or stuck). CPUs
   * known to be `unresponsive` are not waited for: they will never say they stopped.
   */
  async stop(platform: Platform, unresponsive: readonly number[] = []): Promise<StopOutcome> {
    const { mem } = this.run;
    // A CPU exits only once every CPU has quiesced (started no more migrations); one that will
    // never say so is counted here, or the others would wait for it until the timeout.
    if (unresponsive.length > 0) Atomics.add(mem.words, C_QUIESCED, unresponsive.length);
    requestStop(mem);
    const ok = await allExited(mem, platform.wait, STOP_TIMEOUT_MS, mem.cpus - unresponsive.length);
    const running = mem.cpus - exited(mem);
    this.terminate();
    if (this.failure !== null) return { kind: 'failed', message: this.failure };
    if (faultedCpu(mem) >= 0) return { kind: 'failed', message: `CPU${faultedCpu(mem)} failed` };
    if (unresponsive.length > 0) return { kind: 'unresponsive', cpus: unresponsive };
    return ok ? { kind: 'stopped' } : { kind: 'stuck', running };
  }

  terminate(): void {
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }
}

/** The text a worker needs for scenario `id`: a typed program's, none for the catalogue's. */
function programOf(id: string): { program?: string } {
  const text = id === PROGRAM_ID ? openProgramText() : null;
  return text === null ? {} : { program: text };
}

function spawnAll(
  platform: Platform,
  mem: LiveMemory,
  setup: Pick<RunSetup, 'scenario' | 'params' | 'engine' | 'layout'>,
  mode: CpuJob['mode'],
  failed: (message: string) => void,
): CpuWorker[] {
  return Array.from({ length: mem.cpus }, (_, cpu) =>
    platform.spawn(
      {
        memory: mem.shared,
        scenario: setup.scenario,
        params: setup.params,
        cpu,
        mode,
        engine: setup.engine,
        layout: setup.layout ?? 'padded',
        ...programOf(setup.scenario),
      },
      failed,
    ),
  );
}

/** What a run's shared memory shows now, and the verdict on it (judged only at rest). */
export interface RunReading {
  readonly sample: Sample;
  readonly reading: LiveReading;
  readonly verdict: LiveVerdict;
}

/** The read-and-judge step: a copy of the memory, what it shows, and the verdict. */
export function readRun(run: LiveRun): RunReading {
  const sc = scenarioOf(run.scenario);
  const counter = liveCounter(sc, run.params, run.machine);
  if (!counter) throw new Error(`${run.scenario} declares no counter to read`);
  const sample = takeSample(run.mem, run.machine);
  const reading = readSample(sc, counter, run.machine, run.params, sample);
  const verdict = liveVerdict(sc, run.machine, sample.state, run.params, reading);
  return { sample, reading, verdict };
}

/**
 * Replays `events` on fresh workers (one per CPU, each applying its CPU's events), one event at
 * a time, and compares the final shared memory with the model's replay, word by word.
 */
export async function replayInLockstep(
  platform: Platform,
  scenario: string,
  params: Params,
  events: readonly number[],
): Promise<LockstepReport> {
  const machine = liveMachine(scenario, params, 'padded', 'lockstep');
  const mem = allocateLive(machine, initialState(machine));
  // An object: the callback sets it later, which narrowing cannot see.
  const crash = { message: null as string | null };
  const workers = spawnAll(
    platform,
    mem,
    { scenario, params, engine: 'interpreted' },
    'lockstep',
    (message) => {
      crash.message ??= message;
    },
  );
  try {
    const result = await driveLockstep(
      mem,
      machine,
      events,
      platform.wait,
      () => crash.message !== null,
    );
    await allExited(mem, platform.wait, STOP_TIMEOUT_MS);
    if (crash.message !== null) throw new Error(crash.message);
    return compareWithModel(machine, events, result, mem.state.slice());
  } finally {
    for (const w of workers) w.terminate();
  }
}

/**
 * Runs the visibility probe (probe.ts) on two fresh workers: does a plain load on one CPU see
 * the stores of another? `seen` is null when the reader had not seen the last store in time.
 */
export async function visibilityProbe(
  platform: Platform,
  engine: EngineKind,
  writes = 100_000,
  timeoutMs = 10_000,
): Promise<ProbeResult> {
  const machine = probeMachine(writes);
  const mem = allocateLive(machine, initialState(machine));
  const crash = { message: null as string | null };
  const workers = spawnAll(
    platform,
    mem,
    { scenario: PROBE_ID, params: { writes }, engine },
    'probe',
    (message) => {
      crash.message ??= message;
    },
  );
  try {
    await startTogether(mem, platform.wait);
    const ended = await allExited(mem, platform.wait, timeoutMs);
    if (crash.message !== null) throw new Error(crash.message);
    return { writes, seen: ended ? probeSeen(machine, mem.state) : null, engine };
  } finally {
    for (const w of workers) w.terminate();
  }
}
