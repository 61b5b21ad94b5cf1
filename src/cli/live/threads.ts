// Live CPUs on Node worker threads (`lab live`, `lab bench` and the tests): the same run life
// cycle as the page's (src/live/run.ts), with threads instead of Web Workers.

import { Worker } from 'node:worker_threads';
import type { LiveSettings, Waiter } from '../../live/control.ts';
import type { EngineKind, Tier } from '../../live/engine/engine.ts';
import type { LockstepReport } from '../../live/lockstep.ts';
import type { CpuJob } from '../../live/job.ts';
import {
  type LiveRun,
  type Platform,
  readRun,
  replayInLockstep,
  type RunReading,
  RunningCpus,
  type StopOutcome,
} from '../../live/run.ts';
import type { Reply } from '../../machine/errors.ts';
import type { Params } from '../../scenarios/types.ts';

// A .mjs bootstrap registers tsx inside the thread: neither Vitest's loader nor tsx's own reach
// a worker thread's module loader.
const entry = new URL('./cpuThread.mjs', import.meta.url);

export const nodeWaiter: Waiter = async (words, index, value, ms) => {
  const r = Atomics.waitAsync(words, index, value, ms);
  if (r.async) await r.value;
};

/** CPUs as worker threads. */
export const nodePlatform: Platform = {
  wait: nodeWaiter,
  spawn(job: CpuJob, failed: (message: string) => void) {
    const worker = new Worker(entry, { workerData: job });
    worker.once('message', (reply: Reply<void>) => {
      if (!reply.ok) failed(`CPU${job.cpu} stopped the run: ${reply.message}`);
    });
    worker.once('error', (e) => {
      failed(`CPU${job.cpu}'s thread crashed: ${e.message}`);
    });
    return { terminate: () => void worker.terminate() };
  },
};

export interface LiveRunReport extends RunReading {
  readonly run: LiveRun;
  readonly outcome: StopOutcome;
}

/**
 * Runs scenario `id` live for `ms` milliseconds on worker threads, stops it, and reads and judges
 * the state the CPUs stopped in, as Live mode does after Stop.
 */
export async function runLive(
  id: string,
  params: Params,
  settings: LiveSettings,
  ms: number,
  seed = 1,
  engine: EngineKind = 'compiled',
  tier: Tier = 'bare',
): Promise<LiveRunReport> {
  const cpus = await RunningCpus.start(nodePlatform, {
    scenario: id,
    params,
    settings,
    seed,
    engine,
    tier,
  });
  try {
    await new Promise((r) => setTimeout(r, ms));
    const outcome = await cpus.stop(nodePlatform);
    return { run: cpus.run, outcome, ...readRun(cpus.run) };
  } finally {
    cpus.terminate();
  }
}

/** Replays `events` on worker threads one at a time and compares with the model's replay. */
export function lockstepOnThreads(
  id: string,
  params: Params,
  events: readonly number[],
): Promise<LockstepReport> {
  return replayInLockstep(nodePlatform, id, params, events);
}
