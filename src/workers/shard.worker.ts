// An explorer shard's worker, started by the explore bridge beside the explore worker when the
// page may share memory. Its first message brings the port the explore worker talks to it on
// and a shared word where it counts itself ready; then it runs each job that port sends and
// replies with its result or its failure (src/machine/errors.ts), not through comlink: the
// explore worker, busy searching, reaches it through a bare message port.
import { replyOf } from '../machine/errors.ts';
import { pathBuffers, type ShardJob } from '../explore/shards/layout.ts';
import { runShard } from '../explore/shards/worker.ts';

self.onmessage = (e: MessageEvent<{ ready: Int32Array; port: MessagePort }>) => {
  const { ready, port } = e.data;
  port.onmessage = (m: MessageEvent<ShardJob>) => {
    const reply = replyOf(() => runShard(m.data));
    port.postMessage(reply, { transfer: reply.ok ? pathBuffers(reply.result) : [] });
  };
  Atomics.add(ready, 0, 1);
};
