// Explorer shards seen from the explore worker: the shard workers the bridge started beside it
// (a worker busy searching cannot start workers of its own), reached through message ports, as
// the pool `exploreWithPool` runs a search on.

import type { ShardJob, ShardPool, ShardResult } from '../explore/shards/worker.ts';

/** What the bridge hands the explore worker: a port per shard worker, and their ready count. */
export interface ShardPorts {
  readonly ready: Int32Array;
  readonly ports: readonly MessagePort[];
}

/** The pool over the bridge's shard workers (the bridge ends them). */
export function shardPool({ ready, ports }: ShardPorts): ShardPool {
  const count = ports.length;
  return {
    ready: () => Atomics.load(ready, 0) === count,
    close: () => undefined,
    platform: {
      run(job: ShardJob): Promise<ShardResult> {
        const port = ports[job.index] as MessagePort;
        return new Promise((resolve, reject) => {
          port.onmessage = (
            e: MessageEvent<{ ok: boolean; result?: ShardResult; message?: string }>,
          ) => {
            if (e.data.ok) resolve(e.data.result as ShardResult);
            else reject(new Error(e.data.message ?? 'the shard failed'));
          };
          port.postMessage(job);
        });
      },
      stopAll: () => undefined,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  };
}
