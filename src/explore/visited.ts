// The visited set: every node (state + metadata) the explorer has met, stored compactly.
//
// A state is cut into components (memory, the CPU fields, one per context record, the
// results) and each component is interned (interner.ts), so a node is a tuple of a few ids plus
// one metadata word: about 20–40 bytes where the whole state is 150–400. Successors share most
// components with their parent, whose ids are reused without hashing (see `components`).
// Records live in chunked arrays (chunks.ts) and the lookup allocates nothing.
//
// A node's record holds, after its tuple, what the search reads each time it meets the node
// again: its steps (with the expanded flag) and switches. Meeting a node again is the commonest
// thing the search does and its place in the table is random, so what it reads then is one
// record, one or two cache lines, not five arrays. Its parent and event are written when a
// cheaper path is found and read only to print witnesses: they stay apart.
//
// The table holds, for each node, its whole 32-bit hash beside its id: a probe that meets
// another node's entry tells them apart by the hash alone, without reading that node's record
// (a second random read), so a record is read only for the node that is there.

import { ctxBase, type Machine } from '../machine/machine.ts';
import { Int32Chunks } from './chunks.ts';
import { fmix, Interner, mix } from './interner.ts';

/** The most nodes a visited set holds (a node's id fits in the 26 bits a shard's ref gives it). */
export const MAX_NODES = (1 << 26) - 2;
/** The steps word: −1 before the node is reached, else its steps with this bit once expanded. */
const EXPANDED = 1 << 30;
const STEPS_MASK = EXPANDED - 1;

interface Segment {
  readonly off: number;
  readonly width: number;
  readonly interner: Interner;
}

export class Visited {
  count = 0;
  /** Set by `find`: whether the node it returned was just added. */
  fresh = false;
  /** Set by `open`: the steps and switches of the node it opened. */
  openSteps = 0;
  openSwitches = 0;
  readonly segments: readonly Segment[];
  private readonly bounds: Int32Array;
  private readonly interners: readonly Interner[];
  /** Words per node tuple: one id per segment, then the metadata word. */
  readonly width: number;
  /** Per node: its tuple, then its steps word (see EXPANDED) and its switches. */
  private readonly records: Int32Chunks;
  /** Slot i is words 2i (the node's hash) and 2i + 1 (its id + 1, 0 when the slot is empty). */
  private table = new Int32Array(2 << 12);
  /** Slots in the table (half its length). */
  private slots = 1 << 12;
  /** Per node: the cheapest path's parent and event. */
  readonly parent = new Int32Chunks();
  readonly event = new Int32Chunks();

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
    this.records = new Int32Chunks(this.width + 2);
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

  /** The hash of the node whose tuple (component ids, then metadata) is t[off .. off + width). */
  hashAt(t: Int32Array, off: number): number {
    let h = 0x9747b28c;
    const w = this.width | 0; // an int32 bound (see Interner.hash)
    for (let i = 0; i < w; i++) h = mix(h, t[off + i] as number);
    return fmix(h);
  }

  /** The hash `find` looks node (ids, meta) up by; writes meta into ids' last word. */
  hashOf(ids: Int32Array, meta: number): number {
    ids[(this.width | 0) - 1] = meta;
    return this.hashAt(ids, 0);
  }

  /**
   * Reads the table's first slot for hash h and returns what it holds (to be thrown away). A
   * batch of lookups touched one after another has its cache misses in flight together, where
   * `find` after `find` waits for each in turn (shard.ts batches a few nodes' successors).
   */
  touch(h: number): number {
    return this.table[2 * (h & (this.slots - 1)) + 1] as number;
  }

  /** After `touch`: reads the first word of the record of the node at h's first slot, if any. */
  touchRecord(h: number): number {
    const i = 2 * (h & (this.slots - 1));
    const e = this.table[i + 1] as number;
    if (e === 0 || this.table[i] !== h) return 0;
    return this.records.chunkOf(e - 1)[this.records.offsetOf(e - 1)] as number;
  }

  /**
   * The node of (component ids, metadata word), whose hash is h (`hashOf`); `fresh` tells
   * whether it was just added, with steps −1 (not reached yet). Returns −1 when the set is full
   * (MAX_NODES).
   */
  find(ids: Int32Array, meta: number, h: number = this.hashOf(ids, meta)): number {
    ids[(this.width | 0) - 1] = meta;
    return this.findAt(ids, 0, h);
  }

  /** `find` of the tuple (component ids, then metadata) at src[off .. off + width), of hash h. */
  findAt(src: Int32Array, off: number, h: number): number {
    const n = (this.width | 0) - 1;
    const table = this.table;
    const mask = this.slots - 1;
    let i = h & mask;
    for (;;) {
      const e = table[2 * i + 1] as number;
      if (e === 0) break;
      if (table[2 * i] === h) {
        const id = e - 1;
        const t = this.records.chunkOf(id);
        const o = this.records.offsetOf(id);
        let same = true;
        for (let j = 0; j <= n; j++) {
          if (t[o + j] !== src[off + j]) {
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
    this.records.ensure(this.count);
    this.parent.ensure(this.count);
    this.event.ensure(this.count);
    const t = this.records.chunkOf(id);
    const o = this.records.offsetOf(id);
    for (let j = 0; j <= n; j++) t[o + j] = src[off + j] as number;
    t[o + n + 1] = -1;
    t[o + n + 2] = 0;
    table[2 * i] = h;
    table[2 * i + 1] = id + 1;
    // Up to three quarters full: linear probing keeps a probe run within a cache line or two,
    // and the smaller table misses the cache less often than a half-full one twice its size.
    if (this.count * 4 > this.slots * 3) this.rehash();
    this.fresh = true;
    return id;
  }

  /**
   * Doubles the table. Each entry moves by its stored hash (no record is read, no hash
   * recomputed), and the old table is walked in slot order: an entry at slot i goes near slot i or
   * i + the old size, so both tables are read and written front to back, not at random.
   */
  private rehash(): void {
    const old = this.table;
    const slots = this.slots * 2;
    const table = new Int32Array(2 * slots);
    const mask = slots - 1;
    for (let k = 0; k < old.length; k += 2) {
      const e = old[k + 1] as number;
      if (e === 0) continue;
      const h = old[k] as number;
      let i = h & mask;
      while (table[2 * i + 1] !== 0) i = (i + 1) & mask;
      table[2 * i] = h;
      table[2 * i + 1] = e;
    }
    this.table = table;
    this.slots = slots;
  }

  /** The metadata word of node id. */
  meta(id: number): number {
    return this.records.chunkOf(id)[this.records.offsetOf(id) + this.width - 1] as number;
  }

  /** The steps of node id's cheapest path so far, −1 before it is reached. */
  stepsOf(id: number): number {
    const w = this.records.chunkOf(id)[this.records.offsetOf(id) + this.width] as number;
    return w < 0 ? -1 : w & STEPS_MASK;
  }

  /** The switches of node id's cheapest path so far. */
  switchesOf(id: number): number {
    return this.records.chunkOf(id)[this.records.offsetOf(id) + this.width + 1] as number;
  }

  /** Whether node id has been expanded (its path is then final). */
  isExpanded(id: number): boolean {
    const w = this.records.chunkOf(id)[this.records.offsetOf(id) + this.width] as number;
    return w >= 0 && (w & EXPANDED) !== 0;
  }

  markExpanded(id: number): void {
    const t = this.records.chunkOf(id);
    const o = this.records.offsetOf(id) + this.width;
    t[o] = (t[o] as number) | EXPANDED;
  }

  /** Makes (parent, event) node id's path, of `steps` steps and `switches` switches. */
  setPath(id: number, steps: number, switches: number, parent: number, event: number): void {
    const t = this.records.chunkOf(id);
    const o = this.records.offsetOf(id) + this.width;
    t[o] = steps;
    t[o + 1] = switches;
    this.parent.set(id, parent);
    this.event.set(id, event);
  }

  /**
   * Opens node id for its expansion, from its one record: writes its component ids into `ids`,
   * leaves its steps and switches in `openSteps` and `openSwitches`, and returns its metadata
   * word (what `tuple`, `stepsOf`, `switchesOf` and `meta` give, in one read of the record).
   */
  open(id: number, ids: Int32Array): number {
    const t = this.records.chunkOf(id);
    const o = this.records.offsetOf(id);
    const n = (this.width | 0) - 1;
    for (let i = 0; i < n; i++) ids[i] = t[o + i] as number;
    const w = t[o + n + 1] as number;
    this.openSteps = w < 0 ? -1 : w & STEPS_MASK;
    this.openSwitches = t[o + n + 2] as number;
    return t[o + n] as number;
  }
  /**
   * Makes (parent, event) node id's path if node id is not expanded yet and the path is cheaper
   * than the one it has (none yet, fewer switches, or as many and fewer steps); returns whether
   * it did. The comparison `setPath` is made after, in one read of the node's record.
   */
  improve(id: number, steps: number, switches: number, parent: number, event: number): boolean {
    const t = this.records.chunkOf(id);
    const o = this.records.offsetOf(id) + this.width;
    const w = t[o] as number;
    if (w >= 0) {
      if ((w & EXPANDED) !== 0) return false;
      const had = t[o + 1] as number;
      if (switches > had || (switches === had && steps >= (w & STEPS_MASK))) return false;
    }
    t[o] = steps;
    t[o + 1] = switches;
    this.parent.set(id, parent);
    this.event.set(id, event);
    return true;
  }

  /**
   * Writes node id's state into `into` and its component ids into `ids`. With `known`, `ids`
   * already names what `into` holds (the node decoded last), and a component with the same id
   * is not copied again: a level's nodes, decoded one after another, share most components.
   */
  decode(id: number, into: Int32Array, ids: Int32Array, known = false): void {
    const t = this.records.chunkOf(id);
    const o = this.records.offsetOf(id);
    const segs = this.segments;
    for (let i = 0; i < segs.length; i++) {
      const c = t[o + i] as number;
      if (known && ids[i] === c) continue;
      const seg = segs[i] as Segment;
      ids[i] = c;
      seg.interner.read(c, into, seg.off);
    }
  }

  /** Bytes held: node records, the table and the interned components. */
  get bytes(): number {
    let b = this.records.bytes + this.table.byteLength + this.parent.bytes + this.event.bytes;
    for (const s of this.segments) b += s.interner.bytes;
    return b;
  }
}
