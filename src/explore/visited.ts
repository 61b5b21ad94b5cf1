// The visited set: every node (state + metadata) the explorer has met, stored compactly.
//
// A state is cut into components (memory, the CPU fields, one per context record, the
// results) and each component is interned (interner.ts), so a node is a tuple of a few ids plus
// one metadata word: about 20–40 bytes where the whole state is 150–400. Successors share most
// components with their parent, whose ids are reused without hashing (see `components`).
// Records live in chunked arrays (chunks.ts) and the lookup allocates nothing.

import { ctxBase, type Machine } from '../machine/machine.ts';
import { Int32Chunks, Uint8Chunks } from './chunks.ts';
import { fmix, Interner, mix } from './interner.ts';

/** Table entries hold id + 1 in the low 26 bits and 6 bits of the hash above (a fingerprint). */
const ID_BITS = 26;
const ID_MASK = (1 << ID_BITS) - 1;
/** The most nodes a visited set holds (the fingerprint takes the rest of the word). */
export const MAX_NODES = ID_MASK - 1;

interface Segment {
  readonly off: number;
  readonly width: number;
  readonly interner: Interner;
}

export class Visited {
  count = 0;
  /** Set by `find`: whether the node it returned was just added. */
  fresh = false;
  readonly segments: readonly Segment[];
  private readonly bounds: Int32Array;
  private readonly interners: readonly Interner[];
  /** Words per node tuple: one id per segment, then the metadata word. */
  readonly width: number;
  private readonly tuples: Int32Chunks;
  private table = new Int32Array(1 << 12);
  /** Per node: the cheapest path's parent and event, its steps (−1: not reached) and switches. */
  readonly parent = new Int32Chunks();
  readonly event = new Int32Chunks();
  readonly steps = new Int32Chunks();
  readonly switches = new Int32Chunks();
  readonly expanded = new Uint8Chunks();

  constructor(m: Machine) {
    const segs: Segment[] = [];
    const add = (off: number, width: number) => {
      if (width > 0) segs.push({ off, width, interner: new Interner(width) });
    };
    // Memory changes at most steps, the CPU fields only at interventions: apart, a step's
    // successor rehashes the few memory words and reuses the CPU fields' id.
    add(0, m.memWords);
    add(m.memWords, m.sbOff - m.memWords);
    // Under TSO, the store buffers: a store or a flush changes one of them.
    add(m.sbOff, m.ctxOff - m.sbOff);
    for (let c = 0; c < m.contexts; c++) add(ctxBase(m, c), m.ctxStride);
    add(m.resOff, m.size - m.resOff);
    this.segments = segs;
    // Flat arrays for the hot loop in `components`: segment i is words bounds[2i] .. bounds[2i + 1].
    this.bounds = Int32Array.from(segs.flatMap((g) => [g.off, g.off + g.width]));
    this.interners = segs.map((g) => g.interner);
    this.width = segs.length + 1;
    this.tuples = new Int32Chunks(this.width);
  }

  /**
   * Writes the component ids of state s into `ids`. Where `prev` (a state whose ids are
   * `prevIds`) has the same words, its id is reused: an event changes one or two components.
   * With `only` (footprint.ts), s can differ from prev only in words only[at + 2i] ..
   * only[at + 2i + 1] of segment i, and only those are compared.
   */
  components(
    s: Int32Array,
    ids: Int32Array,
    prev: Int32Array | null = null,
    prevIds: Int32Array | null = null,
    only: Int32Array | null = null,
    at = 0,
  ): void {
    const n = this.segments.length;
    const bounds = this.bounds;
    const range = only ?? bounds;
    const base = only === null ? 0 : at;
    const interners = this.interners;
    for (let i = 0; i < n; i++) {
      const off = bounds[2 * i] as number;
      if (prev !== null && prevIds !== null) {
        const end = range[base + 2 * i + 1] as number;
        let j = range[base + 2 * i] as number;
        while (j < end && s[j] === prev[j]) j++;
        if (j === end) {
          ids[i] = prevIds[i] as number;
          continue;
        }
      }
      ids[i] = (interners[i] as Interner).intern(s, off);
    }
  }

  private hash(t: Int32Array, off: number): number {
    let h = 0x9747b28c;
    const w = this.width | 0; // an int32 bound (see Interner.hash)
    for (let i = 0; i < w; i++) h = mix(h, t[off + i] as number);
    return fmix(h);
  }

  /**
   * The node of (component ids, metadata word); `fresh` tells whether it was just added, with
   * steps −1 (not reached yet). Returns −1 when the set is full (MAX_NODES).
   */
  find(ids: Int32Array, meta: number): number {
    const n = (this.width | 0) - 1;
    ids[n] = meta;
    const h = this.hash(ids, 0);
    const fp = h >>> ID_BITS;
    const mask = this.table.length - 1;
    let i = h & mask;
    for (;;) {
      const e = this.table[i] as number;
      if (e === 0) break;
      if (e >>> ID_BITS === fp) {
        const id = (e & ID_MASK) - 1;
        const t = this.tuples.chunkOf(id);
        const o = this.tuples.offsetOf(id);
        let same = true;
        for (let j = 0; j <= n; j++) {
          if (t[o + j] !== ids[j]) {
            same = false;
            break;
          }
        }
        if (same) {
          this.fresh = false;
          return id;
        }
      }
      i = (i + 1) & mask;
    }
    if (this.count >= MAX_NODES) return -1;
    const id = this.count++;
    this.tuples.ensure(this.count);
    this.parent.ensure(this.count);
    this.event.ensure(this.count);
    this.steps.ensure(this.count);
    this.switches.ensure(this.count);
    this.expanded.ensure(this.count);
    const t = this.tuples.chunkOf(id);
    const o = this.tuples.offsetOf(id);
    for (let j = 0; j <= n; j++) t[o + j] = ids[j] as number;
    this.steps.set(id, -1);
    this.table[i] = (fp << ID_BITS) | (id + 1) | 0;
    // Up to three quarters full: linear probing keeps a probe run within a cache line or two,
    // and the smaller table misses the cache less often than a half-full one twice its size.
    if (this.count * 4 > this.table.length * 3) this.rehash();
    this.fresh = true;
    return id;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      const h = this.hash(this.tuples.chunkOf(id), this.tuples.offsetOf(id));
      let i = h & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = ((h >>> ID_BITS) << ID_BITS) | (id + 1) | 0;
    }
    this.table = table;
  }

  /** The metadata word of node id. */
  meta(id: number): number {
    return this.tuples.chunkOf(id)[this.tuples.offsetOf(id) + this.width - 1] as number;
  }

  /** Writes node id's state into `into` and its component ids into `ids`. */
  decode(id: number, into: Int32Array, ids: Int32Array): void {
    const t = this.tuples.chunkOf(id);
    const o = this.tuples.offsetOf(id);
    const segs = this.segments;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i] as Segment;
      const c = t[o + i] as number;
      ids[i] = c;
      seg.interner.read(c, into, seg.off);
    }
  }

  /** Bytes held: node records, the table and the interned components. */
  get bytes(): number {
    let b =
      this.tuples.bytes +
      this.table.byteLength +
      this.parent.bytes +
      this.event.bytes +
      this.steps.bytes +
      this.switches.bytes +
      this.expanded.bytes;
    for (const s of this.segments) b += s.interner.bytes;
    return b;
  }
}
