// An explorer shard's worker, started by the explore bridge beside the explore worker when the
// page may share memory. Its first message brings the port the explore worker talks to it on
// and a shared word where it counts itself ready; then it runs each job that port sends.
import { openShardJob, runShard, type ShardJob } from '../explore/shards/worker.ts';

self.onmessage = (e: MessageEvent<{ ready: Int32Array; port: MessagePort }>) => {
  const { ready, port } = e.data;
  port.onmessage = (m: MessageEvent<ShardJob>) => {
    try {
      const result = runShard(m.data, openShardJob);
      const transfer = [...result.parents, ...result.events].map((a) => a.buffer as ArrayBuffer);
      port.postMessage({ ok: true, result }, { transfer });
    } catch (err) {
      port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  };
  Atomics.add(ready, 0, 1);
};
