// Explorer shards seen from the explore worker: the shard workers the bridge started beside it
// (a worker busy searching cannot start workers of its own), reached through message ports, as
// the pool `exploreWithPool` runs a search on.

import type { ShardPool } from '../explore/shards/coordinator.ts';
import { shardFailure, type ShardJob, type ShardResult } from '../explore/shards/layout.ts';
import { type Reply, resultOf } from '../machine/errors.ts';

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
        return new Promise<Reply<ShardResult>>((resolve) => {
          port.onmessage = (e: MessageEvent<Reply<ShardResult>>) => {
            resolve(e.data);
          };
          port.postMessage(job);
        }).then((reply) => resultOf(reply, shardFailure));
      },
      stopAll: () => undefined,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  };
}
