// The one main-thread owner of live CPU workers, for Live runs, lockstep replays and Scaling
// sweeps: one module worker per CPU, started, stopped and terminated through the live run's life
// cycle (src/live/run.ts), which the CLI shares. It never
// messages a worker per step: a busy worker could not answer.

import { type Remote, wrap } from 'comlink';
import type { Waiter } from '../live/control.ts';
import type { LockstepReport } from '../live/lockstep.ts';
import type { EngineKind, Tier } from '../live/engine/engine.ts';
import type { CpuJob } from '../live/job.ts';
import {
  type LiveRun,
  type Platform,
  replayInLockstep,
  RunningCpus,
  type RunSetup,
  type StopOutcome,
  visibilityProbe,
} from '../live/run.ts';
import { runSweep, type ScalingPort } from '../live/scaling/measure.ts';
import type { Params } from '../scenarios/types.ts';
import type { CpuApi } from './cpuApi.ts';
import { injectedFault } from './faults.ts';
import { messageOf } from '../machine/errors.ts';
import { sleep } from './abort.ts';

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

/** CPUs as module Web Workers. */
export const webPlatform: Platform = {
  wait: pageWaiter,
  spawn(job: CpuJob, failed: (message: string) => void) {
    const worker = new Worker(new URL('./cpu.worker.ts', import.meta.url), {
      type: 'module',
      name: `CPU${job.cpu}`,
    });
    worker.addEventListener('error', (e) => {
      failed(`CPU${job.cpu}'s worker crashed: ${e.message || 'unknown error'}`);
    });
    const api: Remote<CpuApi> = wrap<CpuApi>(worker);
    // Only free runs misbehave on request: a lockstep replay or the probe is not the test's target.
    const fault = job.mode === 'free' ? injectedFault(job.cpu) : undefined;
    api.run(job, fault).catch((e: unknown) => {
      failed(`CPU${job.cpu} stopped the run: ${messageOf(e)}`);
    });
    if (fault?.kind === 'terminate') {
      setTimeout(() => {
        worker.terminate();
      }, fault.afterMs);
    }
    return worker;
  },
};

export class CpuBridge {
  private current: RunningCpus | null = null;

  /** Creates the CPUs of a run and starts them together. `failed` hears of a worker that throws. */
  async start(setup: RunSetup, failed: (message: string) => void): Promise<LiveRun> {
    this.terminate();
    this.current = await RunningCpus.start(webPlatform, setup, failed);
    return this.current.run;
  }

  /** Asks the CPUs to finish their operations; terminates them once stopped (or stuck). */
  async stop(run: LiveRun, unresponsive: readonly number[] = []): Promise<StopOutcome> {
    const cpus = this.current;
    if (!cpus || cpus.run !== run) return { kind: 'stopped' };
    this.current = null;
    return cpus.stop(webPlatform, unresponsive);
  }

  /** Replays `events` on fresh workers of their own (a run's workers are not touched). */
  lockstep(scenario: string, params: Params, events: readonly number[]): Promise<LockstepReport> {
    return replayInLockstep(webPlatform, scenario, params, events);
  }

  /**
   * Scaling sweeps on this bridge's CPU workers: every CPU worker of the page has this one owner.
   * A sweep's waits end at once when its signal aborts.
   */
  scaling(cores: number): ScalingPort {
    return {
      machine: { cores, runtime: runtime() },
      sweep: (plan, hooks) => {
        // A Live run's workers and a sweep's never share the cores.
        this.terminate();
        // The page's store hands a real AbortSignal (the core's type names only .aborted).
        const signal = hooks.signal as AbortSignal | undefined;
        return runSweep(
          webPlatform,
          plan,
          { cores, runtime: runtime() },
          { ...hooks, sleep: (ms) => sleep(ms, signal) },
        );
      },
      probe: (engine: EngineKind, tier: Tier) =>
        visibilityProbe(webPlatform, engine, undefined, undefined, tier),
    };
  }

  terminate(): void {
    this.current?.terminate();
    this.current = null;
  }
}

/** "Chromium 156", "Firefox 140", or the user agent's first word. */
function runtime(): string {
  const ua = navigator.userAgent;
  const m = /(Firefox|Chrome|Chromium|Edg|Safari)\/(\d+)/.exec(ua);
  if (!m) return ua.split(' ')[0] ?? 'browser';
  const name = m[1] === 'Edg' ? 'Edge' : m[1] === 'Chrome' ? 'Chromium' : (m[1] ?? 'browser');
  return `${name} ${m[2] ?? ''}`.trim();
}
