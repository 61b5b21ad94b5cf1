// The one main-thread owner of live CPU workers: it creates one module worker per CPU, starts
// them together, stops them (a flag in shared memory: a busy worker cannot answer a message),
// terminates them, and replays schedules in lockstep. It never messages a worker per step.

import { type Remote, wrap } from 'comlink';
import {
  allExited,
  applySettings,
  exited,
  faultedCpu,
  type LiveSettings,
  requestStop,
  startTogether,
  type Waiter,
} from '../live/control.ts';
import { compareWithModel, driveLockstep, type LockstepReport } from '../live/lockstep.ts';
import { allocateLive, type LiveMemory } from '../live/memory.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import { findScenario } from '../scenarios/index.ts';
import type { Params } from '../scenarios/types.ts';
import type { CpuApi } from './cpuApi.ts';

/** Waits on shared memory from the page: Atomics.wait would throw on the main thread. */
export const pageWaiter: Waiter = async (words, index, value, ms) => {
  if (typeof Atomics.waitAsync === 'function') {
    const r = Atomics.waitAsync(words, index, value, ms);
    if (r.async) await r.value;
    return;
  }
  // Browsers without waitAsync: poll a few times per frame.
  await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 4)));
};

/** How long a stop may take before the CPUs count as stuck (a deadlock, a task that never ends). */
const STOP_TIMEOUT_MS = 3000;

export interface LiveRun {
  readonly scenario: string;
  readonly params: Params;
  readonly machine: Machine;
  readonly mem: LiveMemory;
}

export type StopOutcome =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'stuck'; readonly running: number }
  | { readonly kind: 'failed'; readonly message: string };

function machineOf(scenario: string, params: Params): Machine {
  const sc = findScenario(scenario);
  if (!sc) throw new Error(`unknown scenario ${scenario}`);
  return sc.build(params, { padded: true }).machine;
}

export class CpuBridge {
  private workers: Worker[] = [];
  private failure: string | null = null;
  private onFailure: (message: string) => void = () => undefined;

  /** Creates the CPUs of a run and starts them together. `failed` hears of a worker that throws. */
  async start(
    scenario: string,
    params: Params,
    settings: LiveSettings,
    seed: number,
    failed: (message: string) => void,
  ): Promise<LiveRun> {
    this.terminate();
    const machine = machineOf(scenario, params);
    const mem = allocateLive(machine, initialState(machine));
    applySettings(mem, settings, seed);
    this.workers = this.spawn(mem, scenario, params, 'free', failed);
    try {
      await startTogether(mem, pageWaiter);
    } catch (e) {
      this.terminate();
      // Say what went wrong first (a worker that crashed while loading), not the symptom.
      throw new Error(this.failure ?? (e instanceof Error ? e.message : String(e)));
    }
    return { scenario, params, machine, mem };
  }

  /** Creates one worker per CPU; a free run's workers become the bridge's current ones. */
  private spawn(
    mem: LiveMemory,
    scenario: string,
    params: Params,
    mode: 'free' | 'lockstep',
    failed: (message: string) => void,
  ): Worker[] {
    this.failure = null;
    this.onFailure = failed;
    return Array.from({ length: mem.cpus }, (_, cpu) => {
      const worker = new Worker(new URL('./cpu.worker.ts', import.meta.url), {
        type: 'module',
        name: `CPU${cpu}`,
      });
      worker.addEventListener('error', (e) => {
        this.fail(mem, `CPU${cpu}'s worker crashed: ${e.message || 'unknown error'}`);
      });
      const api: Remote<CpuApi> = wrap<CpuApi>(worker);
      api.run({ buffer: mem.buffer, scenario, params, cpu, mode }).catch((e: unknown) => {
        this.fail(mem, `CPU${cpu} stopped the run: ${e instanceof Error ? e.message : String(e)}`);
      });
      return worker;
    });
  }

  private fail(mem: LiveMemory, message: string): void {
    if (this.failure !== null) return;
    this.failure = message;
    // The other CPUs see the stop flag and finish their operations.
    requestStop(mem);
    this.onFailure(message);
  }

  /** Asks the CPUs to finish their operations; terminates them once stopped (or stuck). */
  async stop(run: LiveRun): Promise<StopOutcome> {
    requestStop(run.mem);
    const ok = await allExited(run.mem, pageWaiter, STOP_TIMEOUT_MS);
    const running = run.mem.cpus - exited(run.mem);
    this.terminate();
    if (this.failure !== null) return { kind: 'failed', message: this.failure };
    if (faultedCpu(run.mem) >= 0)
      return { kind: 'failed', message: `CPU${faultedCpu(run.mem)} failed` };
    return ok ? { kind: 'stopped' } : { kind: 'stuck', running };
  }

  /**
   * Replays `events` on fresh workers of its own (a run's workers are not touched), one event at
   * a time, and compares with the model.
   */
  async lockstep(
    scenario: string,
    params: Params,
    events: readonly number[],
  ): Promise<LockstepReport> {
    const machine = machineOf(scenario, params);
    const mem = allocateLive(machine, initialState(machine));
    // An object: the callback sets it later, which narrowing cannot see.
    const crash = { message: null as string | null };
    const workers = this.spawn(mem, scenario, params, 'lockstep', (message) => {
      crash.message = message;
    });
    try {
      const result = await driveLockstep(
        mem,
        machine,
        events,
        pageWaiter,
        () => crash.message !== null,
      );
      await allExited(mem, pageWaiter, STOP_TIMEOUT_MS);
      if (crash.message !== null) throw new Error(crash.message);
      return compareWithModel(machine, events, result, mem.state.slice());
    } finally {
      for (const w of workers) w.terminate();
    }
  }

  terminate(): void {
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }
}
