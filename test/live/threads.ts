// Starting live CPUs on Node worker threads, for the tests.

import { Worker } from 'node:worker_threads';
import type { Waiter } from '../../src/live/control.ts';
import { allocateLive, type LiveMemory } from '../../src/live/memory.ts';
import { initialState } from '../../src/machine/interpreter.ts';
import type { Machine } from '../../src/machine/machine.ts';
import { findScenario } from '../../src/scenarios/index.ts';
import type { Params } from '../../src/scenarios/types.ts';

// A .mjs bootstrap registers tsx inside the thread: Vitest's own loader does not reach it.
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
