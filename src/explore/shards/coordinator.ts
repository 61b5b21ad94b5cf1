// Exploration on several threads, the coordinator's side: it lays out the shared memory
// (layout.ts), hands each shard's worker its job (worker.ts runs it), reports progress from the
// figures the shards publish, cancels through the control words, and puts their answer together
// (../assemble.ts): the same answer as `explore` in one thread.
//
// Pure: the platform (ShardPlatform, ShardPool) starts the workers: Node worker threads in the
// CLI (src/cli/explore/shards.ts), Web Workers in the page (src/workers/shardsApi.ts).

import { assemble, type PathIndex } from '../assemble.ts';
import { chunkedGet } from '../chunks.ts';
import { explore } from '../explore.ts';
import { DEFAULT_MAX_MEMORY_MB, MAX_SHARDS } from '../limits.ts';
import type { ExploreOptions, ExploreResult } from '../result.ts';
import { type Bounds, searchSetup, type SearchSetup } from '../setup.ts';
import { idOfRef, shardOfRef } from '../shard.ts';
import { MAX_NODES } from '../visited.ts';
import { Control, ShardGaveUp, type ShardJob, type ShardResult, sharedLayout } from './layout.ts';
import { scenarioRequest } from '../../scenarios/index.ts';
import type { Params, Scenario } from '../../scenarios/types.ts';

/** Why a run with several workers asked for stays on one, or null. */
export function oneShardOnly(setup: SearchSetup): string | null {
  if (setup.endless) return 'tasks run forever here: livelocks need the whole graph in one place';
  if (setup.por) return 'partial-order reduction decides at each node whether a state is new';
  return null;
}

/** How the coordinator starts a shard's worker and hears from it. */
export interface ShardPlatform {
  /** Starts a worker on `job`; resolves with its result, rejects if it throws or crashes. */
  run(job: ShardJob): Promise<ShardResult>;
  /** Stops every worker still running (after a failure). */
  stopAll(): void;
  /** Waits `ms` milliseconds (the coordinator reads the shards' figures in between). */
  sleep(ms: number): Promise<void>;
}

/**
 * Explores on `workers` shards, each in a worker the platform starts, and puts their answer
 * together: the same answer as `explore` in one thread. `progress` is called every 200 ms with
 * the figures so far; returning true cancels (the result is then incomplete).
 */
export async function exploreOnShards(
  sc: Scenario,
  params: Params,
  bounds: Bounds,
  options: ExploreOptions & { readonly symmetry?: boolean },
  workers: number,
  platform: ShardPlatform,
): Promise<ExploreResult> {
  const started = Date.now();
  const count = Math.max(1, Math.min(MAX_SHARDS, Math.floor(workers)));
  const setup = searchSetup(sc, params, bounds, { symmetry: options.symmetry === true });
  const alone = oneShardOnly(setup);
  if (alone !== null) throw new Error(`this search stays on one worker: ${alone}`);
  const shared = sharedLayout(count);
  const maxStates = Math.min(options.maxStates ?? Infinity, MAX_NODES * count);
  const maxBytes = (options.maxMemoryMB ?? DEFAULT_MAX_MEMORY_MB) * 1024 * 1024;
  const request = scenarioRequest(sc.id);
  const jobs: ShardJob[] = Array.from({ length: count }, (_, index) => ({
    ...request,
    params,
    bounds,
    symmetry: options.symmetry === true,
    simplest: options.simplest === true,
    maxStates,
    maxBytes,
    index,
    shared,
  }));
  const control = new Control(shared, 0);
  const run = { finished: false };
  // The first failure that is not another shard giving up because of it.
  const results = Promise.allSettled(jobs.map((j) => platform.run(j))).then((settled) => {
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    const cause = failures.find((e) => !(e instanceof ShardGaveUp));
    if (failures.length > 0) throw cause ?? failures[0];
    return settled.map((r) => (r as PromiseFulfilledResult<ShardResult>).value);
  });
  const end = () => {
    run.finished = true;
  };
  results.then(end, end);
  // Progress from the published figures (as of the last level), until the shards are done.
  const watch = (async () => {
    while (!run.finished) {
      await platform.sleep(200);
      if (!options.progress) continue;
      if (options.progress(control.progress(Date.now() - started))) control.cancel();
    }
  })();
  let done: ShardResult[];
  try {
    done = await results;
  } catch (e) {
    control.abort();
    platform.stopAll();
    throw e;
  } finally {
    await watch.catch(() => undefined);
  }
  const paths: PathIndex = {
    parentOf: (ref) => chunkedGet((done[shardOfRef(ref)] as ShardResult).parents, idOfRef(ref)),
    eventOf: (ref) => chunkedGet((done[shardOfRef(ref)] as ShardResult).events, idOfRef(ref)),
  };
  const stopped = done.find((r) => r.stopped !== null)?.stopped ?? null;
  return assemble(
    setup,
    done.map((r) => r.report),
    paths,
    { stopped, ms: Date.now() - started, livelocks: [] },
  );
}

/** Workers for `count` shards, started at once; each runs one job at a time. */
export interface ShardPool {
  readonly platform: ShardPlatform;
  /** Every worker has loaded its code and waits for a job. */
  ready(): boolean;
  /** Ends the workers. */
  close(): void;
}

/**
 * Explores on `workers` shards without making a small run wait for them: the pool's workers
 * start loading while the search begins in this thread; a search that ends first is the answer,
 * and one still going when they are all ready starts over on them (the same answer). The
 * figures report the whole time taken. Searches that must stay on one shard stay here.
 */
export async function exploreWithPool(
  sc: Scenario,
  params: Params,
  bounds: Bounds,
  options: ExploreOptions,
  workers: number,
  startPool: (count: number) => ShardPool,
): Promise<{ readonly result: ExploreResult; readonly workers: number }> {
  const count = Math.min(MAX_SHARDS, Math.floor(workers));
  if (count < 2 || oneShardOnly(searchSetup(sc, params, bounds, options)) !== null)
    return { result: explore(sc, params, bounds, options), workers: 1 };
  const started = Date.now();
  const pool = startPool(count);
  try {
    const switched = { now: false };
    const here = explore(sc, params, bounds, {
      ...options,
      progress: (p) => {
        if (pool.ready()) {
          switched.now = true;
          return true;
        }
        return options.progress?.(p) ?? false;
      },
    });
    if (!switched.now) return { result: here, workers: 1 };
    const r = await exploreOnShards(sc, params, bounds, options, count, pool.platform);
    return { result: { ...r, stats: { ...r.stats, ms: Date.now() - started } }, workers: count };
  } finally {
    pool.close();
  }
}
