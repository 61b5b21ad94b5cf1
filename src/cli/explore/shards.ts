// Explorer shards as Node worker threads: the pool `exploreWithPool` and `exploreOnShards` run
// on in the CLI and the tests.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { defaultWorkers as forCores } from '../../explore/limits.ts';
import type { ShardPlatform, ShardPool } from '../../explore/shards/coordinator.ts';
import { shardFailure, type ShardJob, type ShardResult } from '../../explore/shards/layout.ts';
import { type Reply, resultOf } from '../../machine/errors.ts';

// A .mjs bootstrap registers tsx inside the thread (see ../live/threads.ts).
const entry = new URL('./shardThread.mjs', import.meta.url);

/** Worker threads for `count` shards, started at once; each runs one job at a time. */
export function startShards(count: number): ShardPool {
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from({ length: count }, () => new Worker(entry, { workerData: { ready } }));
  const close = () => {
    // Unreferenced too, so that the process need not wait for a thread still loading to end.
    for (const w of workers) {
      w.unref();
      void w.terminate();
    }
  };
  const platform: ShardPlatform = {
    run(job: ShardJob): Promise<ShardResult> {
      const worker = workers[job.index] as Worker;
      return new Promise<Reply<ShardResult>>((resolve, reject) => {
        const done = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const onMessage = (reply: Reply<ShardResult>) => {
          done();
          resolve(reply);
        };
        const onError = (e: Error) => {
          done();
          reject(new Error(`shard ${String(job.index)}'s thread crashed: ${e.message}`));
        };
        const onExit = (code: number) => {
          done();
          reject(new Error(`shard ${String(job.index)}'s thread exited (${String(code)})`));
        };
        worker.on('message', onMessage);
        worker.once('error', onError);
        worker.once('exit', onExit);
        worker.postMessage(job);
      }).then((reply) => resultOf(reply, shardFailure));
    },
    stopAll: close,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
  return { platform, ready: () => Atomics.load(ready, 0) === count, close };
}

/** The default number of workers on this machine (src/explore/limits.ts says why). */
export function defaultWorkers(): number {
  return forCores(availableParallelism());
}
