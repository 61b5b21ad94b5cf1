// A live run's life seen from the page's side, the same wherever it runs: the page (Web
// Workers), the CLI and the tests (Node worker threads), and the Scaling view's sweeps. A
// platform only says how to start one CPU's worker and how to wait on shared memory; everything
// else is here: allocate the memory, start the CPUs together, stop them, notice a crashed or
// stuck one, terminate them, read and judge the state they stopped in, and replay schedules in
// lockstep. What each worker does with its job is job.ts.

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
import type { EngineKind, Tier } from './engine/engine.ts';
import { type CpuJob, liveMachine } from './job.ts';
import { compareWithModel, driveLockstep, type LockstepReport } from './lockstep.ts';
import { allocateLive, C_QUIESCED, type LiveMemory, type SlotLayout } from './memory.ts';
import { liveCounter } from './counter.ts';
import { PROBE_ID, probeMachine, probeProgress, type ProbeResult, probeSeen } from './probe.ts';
import { type LiveReading, readSample, type Sample, takeSample } from './readout.ts';
import { type LiveVerdict, liveVerdict } from './verdict.ts';
import { messageOf } from '../machine/errors.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import { scenarioNamed, scenarioRequest } from '../scenarios/index.ts';
import type { Params } from '../scenarios/types.ts';

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
  /** Default bare: compiled CPUs run bare while no event can fall due (wasm/codegen.ts). */
  readonly tier?: Tier;
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

function spawnAll(
  platform: Platform,
  mem: LiveMemory,
  setup: Pick<RunSetup, 'scenario' | 'params' | 'engine' | 'layout' | 'tier'>,
  mode: CpuJob['mode'],
  failed: (message: string) => void,
): CpuWorker[] {
  return Array.from({ length: mem.cpus }, (_, cpu) =>
    platform.spawn(
      {
        ...scenarioRequest(setup.scenario),
        memory: mem.shared,
        params: setup.params,
        cpu,
        mode,
        engine: setup.engine,
        tier: setup.tier ?? 'bare',
        layout: setup.layout ?? 'padded',
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
  const sc = scenarioNamed(run.scenario);
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
    { scenario, params, engine: 'interpreted', tier: 'exact' },
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
 * the stores of another? `seen` is null when the reader had not seen the last store. The probe
 * waits as long as the ping-pong moves: it gives up when the echo has stood still for
 * `stallMs` (a load kept in a register never sees the next value), or when `totalMs` has passed
 * with it still moving (a machine too busy to finish; `unfinished` says which).
 */
export async function visibilityProbe(
  platform: Platform,
  engine: EngineKind,
  writes = 100_000,
  stallMs = 10_000,
  tier: Tier = 'bare',
  totalMs = 300_000,
): Promise<ProbeResult> {
  const machine = probeMachine(writes);
  const mem = allocateLive(machine, initialState(machine));
  const crash = { message: null as string | null };
  const workers = spawnAll(
    platform,
    mem,
    { scenario: PROBE_ID, params: { writes }, engine, tier },
    'probe',
    (message) => {
      crash.message ??= message;
    },
  );
  try {
    await startTogether(mem, platform.wait);
    const started = Date.now();
    let at = probeProgress(machine, mem.state);
    let moved = started;
    let ended = false;
    let why: 'stalled' | 'slow' = 'stalled';
    for (;;) {
      ended = await allExited(mem, platform.wait, 250);
      if (ended || crash.message !== null) break;
      const now = Date.now();
      const next = probeProgress(machine, mem.state);
      if (next !== at) {
        at = next;
        moved = now;
      }
      if (now - moved >= stallMs) break;
      if (now - started >= totalMs) {
        why = 'slow';
        break;
      }
    }
    if (crash.message !== null) throw new Error(crash.message);
    const tiered = engine === 'compiled' ? tier : 'exact';
    if (ended) return { writes, seen: probeSeen(machine, mem.state), engine, tier: tiered };
    return {
      writes,
      seen: null,
      engine,
      tier: tiered,
      unfinished: { why, at, ms: why === 'stalled' ? Date.now() - moved : Date.now() - started },
    };
  } finally {
    for (const w of workers) w.terminate();
  }
}
