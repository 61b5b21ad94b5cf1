// What the explorer's shards share, and what crosses between the coordinator and a shard's
// worker: the shared memory's layout (control words, each shard's published figures, level keys,
// an inbox per pair of shards), the barrier that ends each phase of a level, the buffers a shard
// writes successors into, and the job and result messages. The worker side is worker.ts, the
// coordinator's coordinator.ts; both read the memory only through this file.
//
// Pure: SharedArrayBuffer and Atomics are plain JavaScript.

import { type ShardReport, totalFigures } from '../assemble.ts';
import type { ExploreProgress } from '../result.ts';
import type { Bounds } from '../setup.ts';
import type { ProposalSink, StopReason } from '../shard.ts';
import type { ScenarioRequest } from '../../scenarios/index.ts';
import type { Params } from '../../scenarios/types.ts';

// Control words (Int32) and the shards' published figures (Float64, after them).
const C_COUNT = 0;
const C_GEN = 1;
const C_ABORT = 2;
const C_CANCEL = 3;
const CONTROL_WORDS = 4;
export const F_MIN_COST = 0;
export const F_LEVEL = 1;
export const F_STATES = 2;
export const F_TRANSITIONS = 3;
export const F_DEPTH = 4;
export const F_BYTES = 5;
export const F_VIOLATED = 6;
export const F_STOPPED = 7;
export const F_CANCELLED = 8;
export const F_OUT = 9; // then one count per shard: proposals written for it this level
/** A stop reason as a published figure: its index here. */
export const STOPS: readonly (StopReason | null)[] = [
  null,
  'max-states',
  'max-memory',
  'cancelled',
];

const figureStride = (count: number) => F_OUT + count;

/** Growable shared buffers (ES2024): typed here, as the core's library is ES2022. */
export interface Growable extends SharedArrayBuffer {
  grow(bytes: number): void;
  readonly maxByteLength: number;
}
const growable = (bytes: number, max: number): Growable =>
  new (SharedArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => Growable)(
    bytes,
    { maxByteLength: max },
  );

/** Grows `buffer` to hold `bytes`, at least doubling it, up to its maximum. */
export function growTo(buffer: Growable, bytes: number): void {
  if (bytes > buffer.byteLength)
    buffer.grow(Math.min(buffer.maxByteLength, Math.max(bytes, buffer.byteLength * 2)));
}

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
export interface ShardJob extends ScenarioRequest {
  readonly params: Params;
  readonly bounds: Bounds;
  readonly symmetry: boolean;
  readonly simplest: boolean;
  readonly maxStates: number;
  readonly maxBytes: number;
  readonly index: number;
  readonly shared: SharedLayout;
}

/** What a worker hands back: its findings, and its nodes' paths (arrays it gives away). */
export interface ShardResult {
  readonly report: ShardReport;
  readonly stopped: StopReason | null;
  readonly parents: readonly Int32Array[];
  readonly events: readonly Int32Array[];
}

/** The buffers of a result's path arrays, given away to the coordinator (the next job makes its own). */
export function pathBuffers(r: ShardResult): ArrayBuffer[] {
  return [...r.parents, ...r.events].map((a) => a.buffer as ArrayBuffer);
}

/** What a shard throws when another one failed first: the coordinator reports the first cause. */
export class ShardGaveUp extends Error {
  override readonly name = 'ShardGaveUp';
  constructor() {
    super('another shard gave up');
  }
}

/** A shard's failure as its worker reported it, rebuilt: a ShardGaveUp stays one. */
export function shardFailure(failure: { readonly name: string }): Error | null {
  return failure.name === 'ShardGaveUp' ? new ShardGaveUp() : null;
}

/** The control words and published figures, seen by shard `index` (the coordinator: any). */
export class Control {
  private readonly words: Int32Array;
  private readonly figures: Float64Array;
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
  /** Figure `slot` (F_…) that shard `shard` published. */
  fig(shard: number, slot: number): number {
    return this.figures[shard * figureStride(this.shared.count) + slot] as number;
  }
  /** Publishes this shard's figure `slot`. */
  setFig(slot: number, v: number): void {
    this.figures[this.index * figureStride(this.shared.count) + slot] = v;
  }
  /** Whether a shard failed (every other one gives up at its next barrier). */
  aborted(): boolean {
    return Atomics.load(this.words, C_ABORT) !== 0;
  }
  /** Tells every shard to give up, waking those asleep at a barrier. */
  abort(): void {
    Atomics.store(this.words, C_ABORT, 1);
    Atomics.notify(this.words, C_GEN);
  }
  /** Whether the coordinator asked the shards to stop (they agree on it at the next level). */
  cancelled(): boolean {
    return Atomics.load(this.words, C_CANCEL) !== 0;
  }
  cancel(): void {
    Atomics.store(this.words, C_CANCEL, 1);
  }
  /** The figures the shards published last, added up, as the explorer's progress. */
  progress(ms: number): ExploreProgress {
    const shards = Array.from({ length: this.shared.count }, (_, j) => ({
      states: this.fig(j, F_STATES),
      transitions: this.fig(j, F_TRANSITIONS),
      depth: this.fig(j, F_DEPTH),
      bytes: this.fig(j, F_BYTES),
    }));
    return { ...totalFigures(shards), ms };
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

/** A buffer a shard writes successors into: shared (for another shard) or its own (LocalSink). */
export interface CountedSink extends ProposalSink {
  /** Records written this level. */
  n: number;
  readonly bytes: number;
}

/** The words a shard wrote for another this level, grown as it writes. */
export class SharedSink implements CountedSink {
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
      growTo(this.words, need);
      this.wordView = new Int32Array(this.words);
    }
    if ((this.n + 1) * 8 > this.keys.byteLength) {
      growTo(this.keys, (this.n + 1) * 8);
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
export class LocalSink implements CountedSink {
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
