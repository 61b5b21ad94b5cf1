// When a shard fails, the others give up at their next barrier; the run must report the failure
// that caused it, however the replies cross the threads and in whatever order they settle.

import { describe, expect, it } from 'vitest';
import { type Reply, replyOf, resultOf } from '../../machine/errors.ts';
import { scenarioNamed } from '../../scenarios/index.ts';
import { resolveParams } from '../../scenarios/params.ts';
import { exploreOnShards, type ShardPlatform } from './coordinator.ts';
import { shardFailure, ShardGaveUp, type ShardJob, type ShardResult } from './layout.ts';

/** A shard's failure as the coordinator's side receives it: plain data, not the Error itself. */
function across(f: () => ShardResult): ShardResult {
  return resultOf(JSON.parse(JSON.stringify(replyOf(f))) as Reply<ShardResult>, shardFailure);
}

describe('a shard that fails', () => {
  it('stays a ShardGaveUp across a thread when it only gave up', () => {
    const gaveUp = () =>
      across(() => {
        throw new ShardGaveUp();
      });
    expect(gaveUp).toThrow(ShardGaveUp);
    const failed = () =>
      across(() => {
        throw new RangeError('out of memory in the visited set');
      });
    expect(failed).toThrow('out of memory in the visited set');
    expect(failed).not.toThrow(ShardGaveUp);
  });

  it('is what the run reports, not the shards that gave up after it', async () => {
    const sc = scenarioNamed('global-plain');
    const platform: ShardPlatform = {
      run: (job: ShardJob) =>
        Promise.resolve().then(() =>
          across(() => {
            // Shard 0's reply settles first, and it only gave up.
            if (job.index === 0) throw new ShardGaveUp();
            throw new Error('shard 1 could not open its scenario');
          }),
        ),
      stopAll: () => undefined,
      sleep: () => Promise.resolve(),
    };
    const params = resolveParams(sc, {});
    const bounds = { ...sc.bounds, switches: Infinity };
    const run = exploreOnShards(sc, params, bounds, {}, 2, platform);
    await expect(run).rejects.toThrow('shard 1 could not open its scenario');
  });
});
