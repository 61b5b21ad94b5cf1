// Exploration on several threads: N shards (shard.ts), one per worker, over shared memory.
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

import { chunkedGet } from '../chunks.ts';
import { explore, type ExploreOptions, type ExploreResult } from '../explore.ts';
import { assemble, type PathIndex, type ShardReport } from '../assemble.ts';
import { DEFAULT_MAX_MEMORY_MB, MAX_SHARDS } from '../limits.ts';
import { type Bounds, searchSetup, type SearchSetup } from '../setup.ts';
import {
  idOfRef,
  type ProposalSink,
  type ProposalSource,
  Shard,
  shardOfRef,
  type StopReason,
} from '../shard.ts';
import { MAX_NODES } from '../visited.ts';
import { findScenario, openProgram, openProgramText } from '../../scenarios/index.ts';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import type { Params, Scenario } from '../../scenarios/types.ts';

export { MAX_SHARDS };

/** What a shard throws when another one failed first. */
const GAVE_UP = 'another shard gave up';

/** Why a run with several workers asked for stays on one, or null. */
export function oneShardOnly(setup: SearchSetup): string | null {
  if (setup.endless) return 'tasks run forever here: livelocks need the whole graph in one place';
  if (setup.por) return 'partial-order reduction decides at each node whether a state is new';
  return null;
}

// Control words (Int32) and the shards' published figures (Float64, after them).
const C_COUNT = 0;
const C_GEN = 1;
const C_ABORT = 2;
const C_CANCEL = 3;
const CONTROL_WORDS = 4;
const F_MIN_COST = 0;
const F_LEVEL = 1;
const F_STATES = 2;
const F_TRANSITIONS = 3;
const F_DEPTH = 4;
const F_BYTES = 5;
const F_VIOLATED = 6;
const F_STOPPED = 7;
const F_CANCELLED = 8;
const F_OUT = 9; // then one count per shard: proposals written for it this level
const STOPS: readonly (StopReason | null)[] = [null, 'max-states', 'max-memory', 'cancelled'];

const figureStride = (count: number) => F_OUT + count;

/** Growable shared buffers (ES2024): typed here, as the core's library is ES2022. */
interface Growable extends SharedArrayBuffer {
  grow(bytes: number): void;
  readonly maxByteLength: number;
}
const growable = (bytes: number, max: number): Growable =>
  new (SharedArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => Growable)(
    bytes,
    { maxByteLength: max },
  );

/** Most bytes of one inbox's records (a level whose successors overflow it stops the run). */
const MAX_INBOX = 1 << 30;

/** The memory the shards share: control words, level keys, and an inbox per pair of shards. */
export interface SharedLayout {
  readonly count: number;
  readonly control: SharedArrayBuffer;
  readonly levelKeys: readonly SharedArrayBuffer[];
  /** [from][to]: the keys and the records shard `from` wrote for `to` (null on the diagonal). */
  readonly outKeys: readonly (readonly (SharedArrayBuffer | null)[])[];
  readonly outWords: readonly (readonly (SharedArrayBuffer | null)[])[];
}

export function sharedLayout(count: number): SharedLayout {
  const control = new SharedArrayBuffer(8 * (CONTROL_WORDS + count * figureStride(count)));
  const pairs = (make: () => SharedArrayBuffer) =>
    Array.from({ length: count }, (_, i) =>
      Array.from({ length: count }, (_, j) => (i === j ? null : make())),
    );
  return {
    count,
    control,
    levelKeys: Array.from({ length: count }, () => growable(1 << 12, MAX_INBOX)),
    outKeys: pairs(() => growable(1 << 12, MAX_INBOX / 4)),
    outWords: pairs(() => growable(1 << 14, MAX_INBOX)),
  };
}

/** What a worker needs to run shard `index`: the search, and the shared memory. */
export interface ShardJob {
  readonly scenario: string;
  /** A typed program's text, for scenario `program`: the worker opens it first. */
  readonly program?: string;
  readonly params: Params;
  readonly bounds: Bounds;
  readonly symmetry: boolean;
  readonly simplest: boolean;
  readonly maxStates: number;
  readonly maxBytes: number;
  readonly index: number;
  readonly shared: SharedLayout;
}

/** How a worker finds scenario `sc`: by id, with the open typed program's text for `program`. */
export function shardRequest(sc: Scenario): { scenario: string; program?: string } {
  const text = sc.id === PROGRAM_ID ? openProgramText() : null;
  return text === null ? { scenario: sc.id } : { scenario: sc.id, program: text };
}

/** The scenario of a job, as a worker opens it (a typed program is compiled there first). */
export function openShardJob(job: ShardJob): Scenario {
  if (job.program !== undefined && !openProgram(job.program).ok)
    throw new Error('the program does not compile');
  const sc = findScenario(job.scenario);
  if (!sc) throw new Error(`unknown scenario '${job.scenario}'`);
  return sc;
}

/** What a worker hands back: its findings, and its nodes' paths (arrays it gives away). */
export interface ShardResult {
  readonly report: ShardReport;
  readonly stopped: StopReason | null;
  readonly parents: readonly Int32Array[];
  readonly events: readonly Int32Array[];
}

class Control {
  readonly words: Int32Array;
  readonly figures: Float64Array;
  constructor(
    readonly shared: SharedLayout,
    readonly index: number,
  ) {
    this.words = new Int32Array(shared.control, 0, CONTROL_WORDS * 2);
    this.figures = new Float64Array(
      shared.control,
      8 * CONTROL_WORDS,
      shared.count * figureStride(shared.count),
    );
  }
  fig(shard: number, slot: number): number {
    return this.figures[shard * figureStride(this.shared.count) + slot] as number;
  }
  setFig(slot: number, v: number): void {
    this.figures[this.index * figureStride(this.shared.count) + slot] = v;
  }
  aborted(): boolean {
    return Atomics.load(this.words, C_ABORT) !== 0;
  }
  /** Waits until every shard has arrived; false when a shard gave up meanwhile. */
  barrier(): boolean {
    const w = this.words;
    const gen = Atomics.load(w, C_GEN);
    if (Atomics.add(w, C_COUNT, 1) === this.shared.count - 1) {
      Atomics.store(w, C_COUNT, 0);
      Atomics.add(w, C_GEN, 1);
      Atomics.notify(w, C_GEN);
    } else {
      // Most levels are short: spin a little before sleeping.
      let spins = 0;
      while (Atomics.load(w, C_GEN) === gen) {
        if (this.aborted()) return false;
        if (++spins > 4000) Atomics.wait(w, C_GEN, gen, 50);
      }
    }
    return !this.aborted();
  }
}

/** The words a shard wrote for another this level, grown as it writes. */
class SharedSink implements ProposalSink {
  at = 0;
  n = 0;
  private keyView: Float64Array;
  private wordView: Int32Array;
  constructor(
    private readonly keys: Growable,
    private readonly words: Growable,
    private readonly width: number,
  ) {
    this.keyView = new Float64Array(keys);
    this.wordView = new Int32Array(words);
  }
  reserve(key: number, words: number): Int32Array {
    if (words !== this.width) throw new Error('a record of another width');
    const need = (this.n + 1) * this.width * 4;
    if (need > this.words.byteLength) {
      this.words.grow(
        Math.min(this.words.maxByteLength, Math.max(need, this.words.byteLength * 2)),
      );
      this.wordView = new Int32Array(this.words);
    }
    if ((this.n + 1) * 8 > this.keys.byteLength) {
      this.keys.grow(Math.min(this.keys.maxByteLength, this.keys.byteLength * 2));
      this.keyView = new Float64Array(this.keys);
    }
    this.keyView[this.n] = key;
    this.at = this.n * this.width;
    this.n++;
    return this.wordView;
  }
  get bytes(): number {
    return this.words.byteLength + this.keys.byteLength;
  }
}

/** A shard's own successors, kept until they are applied with the others' (drain). */
class LocalSink implements ProposalSink {
  at = 0;
  n = 0;
  keys = new Float64Array(1024);
  words: Int32Array;
  constructor(readonly width: number) {
    this.words = new Int32Array(1024 * width);
  }
  reserve(key: number): Int32Array {
    if (this.n === this.keys.length) {
      const keys = new Float64Array(this.n * 2);
      keys.set(this.keys);
      this.keys = keys;
      const words = new Int32Array(this.n * 2 * this.width);
      words.set(this.words);
      this.words = words;
    }
    this.keys[this.n] = key;
    this.at = this.n * this.width;
    this.n++;
    return this.words;
  }
  get bytes(): number {
    return this.keys.byteLength + this.words.byteLength;
  }
}

/**
 * One worker's whole run: shard `job.index` searched level by level with the others, until they
 * all agree to stop. Blocks its thread (Atomics.wait), so it runs only in a worker. Throws what
 * the search threw, after telling the other shards to give up.
 */
export function runShard(job: ShardJob, open: (job: ShardJob) => Scenario): ShardResult {
  const ctl = new Control(job.shared, job.index);
  try {
    return searchShard(job, open(job), ctl);
  } catch (e) {
    Atomics.store(ctl.words, C_ABORT, 1);
    Atomics.notify(ctl.words, C_GEN);
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
  const sinks: ProposalSink[] = Array.from({ length: count }, (_, j) =>
    j === me
      ? local
      : new SharedSink(
          shared.outKeys[me]?.[j] as Growable,
          shared.outWords[me]?.[j] as Growable,
          shard.remoteWidth,
        ),
  );
  const myKeys = shared.levelKeys[me] as Growable;
  const sinkBytes = () => sinks.reduce((n, s) => n + (s as SharedSink | LocalSink).bytes, 0);
  const bytes = () => shard.bytes + sinkBytes() + myKeys.byteLength;

  // Checked every 4096 expansions: a cancel, or memory past the limit with the others' figures.
  const check = (): StopReason | null => {
    if (Atomics.load(ctl.words, C_CANCEL) !== 0) return 'cancelled';
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
    ctl.setFig(F_CANCELLED, Atomics.load(ctl.words, C_CANCEL));
    if (!ctl.barrier()) throw new Error(GAVE_UP);
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
    if (keys.byteLength > myKeys.byteLength)
      myKeys.grow(Math.min(myKeys.maxByteLength, Math.max(keys.byteLength, myKeys.byteLength * 2)));
    new Float64Array(myKeys, 0, keys.length).set(keys);
    ctl.setFig(F_LEVEL, keys.length);
    if (!ctl.barrier()) throw new Error(GAVE_UP);
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
    for (const s of sinks) (s as SharedSink | LocalSink).n = 0;
    shard.expandLevel(rankOf, sinks, check);
    for (let j = 0; j < count; j++) ctl.setFig(F_OUT + j, (sinks[j] as SharedSink | LocalSink).n);
    if (!ctl.barrier()) throw new Error(GAVE_UP);
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
  request: { readonly scenario: string; readonly program?: string },
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
  const words = new Int32Array(shared.control, 0, CONTROL_WORDS * 2);
  const figures = new Control(shared, 0);
  const run = { finished: false };
  // The first failure that is not another shard giving up because of it.
  const results = Promise.allSettled(jobs.map((j) => platform.run(j))).then((settled) => {
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    const cause = failures.find((e) => !(e instanceof Error && e.message === GAVE_UP));
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
      let states = 0;
      let transitions = 0;
      let depth = 0;
      let bytes = 0;
      for (let j = 0; j < count; j++) {
        states += figures.fig(j, F_STATES);
        transitions += figures.fig(j, F_TRANSITIONS);
        depth = Math.max(depth, figures.fig(j, F_DEPTH));
        bytes += figures.fig(j, F_BYTES);
      }
      const p = { states, transitions, depth, bytes, ms: Date.now() - started };
      if (options.progress(p)) Atomics.store(words, C_CANCEL, 1);
    }
  })();
  let done: ShardResult[];
  try {
    done = await results;
  } catch (e) {
    Atomics.store(words, C_ABORT, 1);
    Atomics.notify(words, C_GEN);
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
    const r = await exploreOnShards(
      sc,
      shardRequest(sc),
      params,
      bounds,
      options,
      count,
      pool.platform,
    );
    return { result: { ...r, stats: { ...r.stats, ms: Date.now() - started } }, workers: count };
  } finally {
    pool.close();
  }
}
