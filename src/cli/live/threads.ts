// The Node bridge to live CPUs: one worker thread per CPU over one SharedArrayBuffer (`lab live`
// and the tests; the browser has its own bridge in src/workers/cpuBridge.ts).

import { Worker } from 'node:worker_threads';
import {
  allExited,
  applySettings,
  type LiveSettings,
  requestStop,
  startTogether,
  type Waiter,
} from '../../live/control.ts';
import { compareWithModel, driveLockstep, type LockstepReport } from '../../live/lockstep.ts';
import { type LiveReading, readSample, takeSample } from '../../live/readout.ts';
import { liveSpecOf } from '../../live/specs.ts';
import { type LiveVerdict, liveVerdict } from '../../live/verdict.ts';
import { allocateLive, type LiveMemory } from '../../live/memory.ts';
import { initialState } from '../../machine/interpreter.ts';
import type { Machine } from '../../machine/machine.ts';
import { findScenario } from '../../scenarios/index.ts';
import type { Params } from '../../scenarios/types.ts';

// A .mjs bootstrap registers tsx inside the thread: neither Vitest's loader nor tsx's own reach
// a worker thread's module loader.
const entry = new URL('./cpu-thread.mjs', import.meta.url);

export const nodeWaiter: Waiter = async (words, index, value, ms) => {
  const r = Atomics.waitAsync(words, index, value, ms);
  if (r.async) await r.value;
};

export interface Threads {
  readonly mem: LiveMemory;
  readonly machine: Machine;
  /** Settles when every thread has ended; rejects with the first failure's message. */
  readonly done: Promise<void>;
  terminate(): Promise<void>;
}

export function startThreads(id: string, params: Params, mode: 'free' | 'lockstep'): Threads {
  const sc = findScenario(id);
  if (!sc) throw new Error(`unknown scenario ${id}`);
  const machine = sc.build(params, { padded: true }).machine;
  const mem = allocateLive(machine, initialState(machine));
  const workers = Array.from(
    { length: machine.cpus },
    (_, cpu) =>
      new Worker(entry, {
        workerData: { buffer: mem.buffer, id, params, cpu, mode },
      }),
  );
  const done = Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', (msg: { ok: boolean; message?: string }) => {
            if (msg.ok) resolve();
            else reject(new Error(msg.message));
          });
          w.once('error', reject);
        }),
    ),
  ).then(() => undefined);
  return {
    mem,
    machine,
    done,
    terminate: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

export interface LiveRunReport {
  readonly machine: Machine;
  readonly reading: LiveReading;
  readonly verdict: LiveVerdict;
  /** Every CPU stopped within the timeout (false: stuck, e.g. spinning on a lock). */
  readonly stopped: boolean;
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
): Promise<LiveRunReport> {
  const sc = findScenario(id);
  const spec = liveSpecOf(id);
  if (!sc || !spec) throw new Error(`${id} does not run live`);
  const t = startThreads(id, params, 'free');
  try {
    applySettings(t.mem, settings, seed);
    await startTogether(t.mem, nodeWaiter);
    await new Promise((r) => setTimeout(r, ms));
    requestStop(t.mem);
    const stopped = await allExited(t.mem, nodeWaiter, 5000);
    if (stopped) await t.done;
    const sample = takeSample(t.mem, t.machine);
    const reading = readSample(sc, spec, t.machine, params, sample);
    const verdict = liveVerdict(sc, t.machine, sample.state, params, reading);
    return { machine: t.machine, reading, verdict, stopped };
  } finally {
    await t.terminate();
  }
}

/** Replays `events` on worker threads one at a time and compares with the model's replay. */
export async function lockstepOnThreads(
  id: string,
  params: Params,
  events: readonly number[],
): Promise<LockstepReport> {
  const t = startThreads(id, params, 'lockstep');
  try {
    const result = await driveLockstep(t.mem, t.machine, events, nodeWaiter);
    await t.done;
    return compareWithModel(t.machine, events, result, t.mem.state.slice());
  } finally {
    await t.terminate();
  }
}
