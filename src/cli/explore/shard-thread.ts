// Explorer shards on a Node worker thread (`lab explore --workers N` and the tests): once its
// modules are loaded it says so in shared memory, then runs each job it is sent (its part of a
// search over the shared memory) and hands back its findings and its nodes' paths.

import { parentPort, workerData } from 'node:worker_threads';
import { openShardJob, runShard, type ShardJob } from '../../explore/shards/worker.ts';

const ready = (workerData as { ready: Int32Array }).ready;
Atomics.add(ready, 0, 1);
Atomics.notify(ready, 0);

parentPort?.on('message', (job: ShardJob) => {
  try {
    const result = runShard(job, openShardJob);
    // The path arrays are given away, not copied: the next job makes its own.
    const transfer = [...result.parents, ...result.events].map((a) => a.buffer as ArrayBuffer);
    parentPort?.postMessage({ ok: true, result }, transfer);
  } catch (e) {
    parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
