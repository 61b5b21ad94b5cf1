// Explorer shards on a Node worker thread (`lab explore --workers N` and the tests): once its
// modules are loaded it says so in shared memory, then runs each job it is sent (its part of a
// search over the shared memory) and replies with its findings and its nodes' paths, or its
// failure (src/machine/errors.ts).

import { parentPort, workerData } from 'node:worker_threads';
import { pathBuffers, type ShardJob } from '../../explore/shards/layout.ts';
import { runShard } from '../../explore/shards/worker.ts';
import { replyOf } from '../../machine/errors.ts';

const ready = (workerData as { ready: Int32Array }).ready;
Atomics.add(ready, 0, 1);
Atomics.notify(ready, 0);

parentPort?.on('message', (job: ShardJob) => {
  const reply = replyOf(() => runShard(job));
  parentPort?.postMessage(reply, reply.ok ? pathBuffers(reply.result) : []);
});
