// Exploration on several threads, the worker's side: one shard (../shard.ts) of N, each in its
// own worker, over shared memory (layout.ts). The coordinator (coordinator.ts) starts them.
//
// Each shard owns the nodes a hash of their state gives it. A level (the nodes of the cheapest
// cost waiting) goes in three phases, each ended by a barrier:
//   A. every shard publishes the cheapest cost it has waiting and its figures; all of them then
//      take the same decision (stop, or the level's cost), from the same published words;
//   B. each takes its nodes of that cost and publishes their discovery keys, sorted; each node's
//      rank across all shards is then its position among everyone's keys;
//   C. each expands its nodes in rank order, writing the successors it finds for another shard
//      into that shard's inbox; then each applies what it received, in key order (drain).
// The answer is the one thread's, exactly (shard.ts says why); `test/explore/workers.test.ts`
// checks that for the catalogue. A run with partial-order reduction or with tasks that loop for
// ever (livelocks need the whole graph in one place) stays on one shard.
//
// Pure: the platform starts the workers (Node worker threads in the CLI, Web Workers in the
// page) and hands each `runShard` its job; SharedArrayBuffer and Atomics are plain JavaScript.

import {
  type CountedSink,
  Control,
  F_BYTES,
  F_CANCELLED,
  F_DEPTH,
  F_LEVEL,
  F_MIN_COST,
  F_OUT,
  F_STATES,
  F_STOPPED,
  F_TRANSITIONS,
  F_VIOLATED,
  type Growable,
  growTo,
  LocalSink,
  ShardGaveUp,
  type ShardJob,
  type ShardResult,
  SharedSink,
  STOPS,
} from './layout.ts';
import { searchSetup } from '../setup.ts';
import { type ProposalSource, Shard, type StopReason } from '../shard.ts';
import { openRequest } from '../../scenarios/index.ts';
import type { Scenario } from '../../scenarios/types.ts';

/**
 * One worker's whole run: shard `job.index` searched level by level with the others, until they
 * all agree to stop. Blocks its thread (Atomics.wait), so it runs only in a worker. Throws what
 * the search threw (ShardGaveUp when another shard failed first), after telling the others to
 * give up. Opens the job's scenario first (a typed program is compiled in this worker).
 */
export function runShard(job: ShardJob): ShardResult {
  const ctl = new Control(job.shared, job.index);
  try {
    return searchShard(job, openRequest(job), ctl);
  } catch (e) {
    ctl.abort();
    throw e;
  }
}

function searchShard(job: ShardJob, sc: Scenario, ctl: Control): ShardResult {
  const { index: me, shared } = job;
  const count = shared.count;
  const setup = searchSetup(sc, job.params, job.bounds, { symmetry: job.symmetry });
  const shard = new Shard(setup, { index: me, count });
  shard.seed();
  const local = new LocalSink(shard.localWidth);
  const sinks: CountedSink[] = Array.from({ length: count }, (_, j) =>
    j === me
      ? local
      : new SharedSink(
          shared.outKeys[me]?.[j] as Growable,
          shared.outWords[me]?.[j] as Growable,
          shard.remoteWidth,
        ),
  );
  const myKeys = shared.levelKeys[me] as Growable;
  const sinkBytes = () => sinks.reduce((n, s) => n + s.bytes, 0);
  const bytes = () => shard.bytes + sinkBytes() + myKeys.byteLength;

  // Checked every 4096 expansions: a cancel, or memory past the limit with the others' figures.
  const check = (): StopReason | null => {
    if (ctl.cancelled()) return 'cancelled';
    let total = bytes();
    for (let j = 0; j < count; j++) if (j !== me) total += ctl.fig(j, F_BYTES);
    return total > job.maxBytes ? 'max-memory' : null;
  };

  let stopped: StopReason | null = null;
  let base = 0;
  for (;;) {
    // A: publish, agree.
    ctl.setFig(F_MIN_COST, shard.minCost());
    ctl.setFig(F_STATES, shard.nodes.count);
    ctl.setFig(F_TRANSITIONS, shard.transitions);
    ctl.setFig(F_DEPTH, shard.depth);
    ctl.setFig(F_BYTES, bytes());
    ctl.setFig(F_VIOLATED, shard.violated ? 1 : 0);
    ctl.setFig(F_STOPPED, STOPS.indexOf(shard.stopped));
    ctl.setFig(F_CANCELLED, ctl.cancelled() ? 1 : 0);
    if (!ctl.barrier()) throw new ShardGaveUp();
    let cost = Infinity;
    let states = 0;
    let memory = 0;
    let violated = false;
    let cancelled = false;
    stopped = null;
    for (let j = 0; j < count; j++) {
      cost = Math.min(cost, ctl.fig(j, F_MIN_COST));
      states += ctl.fig(j, F_STATES);
      memory += ctl.fig(j, F_BYTES);
      violated ||= ctl.fig(j, F_VIOLATED) !== 0;
      cancelled ||= ctl.fig(j, F_CANCELLED) !== 0;
      stopped ??= STOPS[ctl.fig(j, F_STOPPED)] ?? null;
    }
    if (stopped === null && memory > job.maxBytes) stopped = 'max-memory';
    if (stopped === null && cancelled) stopped = 'cancelled';
    if (stopped !== null || cost === Infinity) {
      if (stopped === null && job.simplest && violated) stopped = 'simplest';
      break;
    }
    // As one shard decides (explore.ts), in the same order.
    if (states > job.maxStates) {
      stopped = 'max-states';
      break;
    }
    if (job.simplest && violated) {
      stopped = 'simplest';
      break;
    }

    // B: the level, ranked across the shards.
    const keys = shard.beginLevel(cost);
    growTo(myKeys, keys.byteLength);
    new Float64Array(myKeys, 0, keys.length).set(keys);
    ctl.setFig(F_LEVEL, keys.length);
    if (!ctl.barrier()) throw new ShardGaveUp();
    let total = 0;
    const others: Float64Array[] = [];
    for (let j = 0; j < count; j++) {
      const n = ctl.fig(j, F_LEVEL);
      total += n;
      if (j !== me) others.push(new Float64Array(shared.levelKeys[j] as SharedArrayBuffer, 0, n));
    }
    const heads = others.map(() => 0);
    const rankOf = (i: number): number => {
      // i grows from call to call: each other shard's pointer only moves on.
      const k = keys[i] as number;
      let r = base + i;
      for (let j = 0; j < others.length; j++) {
        const o = others[j] as Float64Array;
        let h = heads[j] as number;
        while (h < o.length && (o[h] as number) < k) h++;
        heads[j] = h;
        r += h;
      }
      return r;
    };

    // C: expand, hand over, apply.
    for (const s of sinks) s.n = 0;
    shard.expandLevel(rankOf, sinks, check);
    for (let j = 0; j < count; j++) ctl.setFig(F_OUT + j, (sinks[j] as CountedSink).n);
    if (!ctl.barrier()) throw new ShardGaveUp();
    const sources: ProposalSource[] = [
      { keys: local.keys, words: local.words, n: local.n, width: local.width, whole: false },
    ];
    for (let j = 0; j < count; j++) {
      if (j === me) continue;
      const n = ctl.fig(j, F_OUT + me);
      sources.push({
        keys: new Float64Array(shared.outKeys[j]?.[me] as SharedArrayBuffer),
        words: new Int32Array(shared.outWords[j]?.[me] as SharedArrayBuffer),
        n,
        width: shard.remoteWidth,
        whole: true,
      });
    }
    shard.drain(sources);
    base += total;
  }
  return {
    report: {
      outcomes: [...shard.outcomes.values()],
      broken: [...shard.broken.values()],
      states: shard.nodes.count,
      transitions: shard.transitions,
      depth: shard.depth,
      bytes: bytes(),
    },
    stopped,
    parents: shard.nodes.parent.parts(),
    events: shard.nodes.event.parts(),
  };
}
