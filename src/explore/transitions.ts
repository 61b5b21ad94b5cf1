// What an event does to a node's components, and which events a CPU can take, remembered.
//
// An event on CPU k reads and writes only part of a state: memory, the CPUs' fields, the store
// buffers, the results, and the records of the contexts that live on CPU k (its tasks, its IRQ
// and NMI handlers). Its effect is then a function of those components' ids alone, and the
// same few combinations come back across millions of nodes: on global-plain with 3 CPUs × 5
// adds, 1.9 million transitions come from about 13,000. So the explorer applies an event to
// a combination once, through the interpreter, and afterwards reads the successor's ids here:
// no copy of the state, no interpretation, no interning. Which events CPU k can take, and
// whether it has finished, read fewer components still, so they are kept in the same entry
// (`CpuCache`): a node whose successors are all known is expanded with one lookup per CPU,
// without decoding its state at all.
//
// What makes "lives on CPU k" hold: a context moves only by a migration or a CPU going offline,
// so the cache is used only when the search allows neither. An event on CPU k then reads other
// contexts in one place, `nextReady` (a task finishes or is preempted), and there only their
// CPU word, which never changes, says they are not candidates. One instruction reads every
// context (RecordTotal adds up the tallies): a CPU whose contexts run it reads every component,
// and its events are interpreted (`readsAll`). Any new rule that reads further must widen
// `readsOf`; transitions.test.ts explores the whole catalogue with every hit checked against the
// interpreter.

import { Ev, eventsOfMask, legalOn } from '../machine/events.ts';
import { Op } from '../machine/isa.ts';
import {
  CPU_CUR,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CPU_PENDING,
  CTX_DONE,
  ctxBase,
  cpuBase,
  type Machine,
  sbBase,
} from '../machine/machine.ts';
import { fmix, mix } from './interner.ts';

/** Entries a table keeps at most: past this it stops growing (lookups go on). */
const MAX_ENTRIES = 1 << 21;

type Segments = readonly { readonly off: number; readonly width: number }[];

/**
 * A table from (CPU k, the ids of the segments of k's key) to a few words: open addressing over
 * entries of the CPU, the key's ids (padded to `span`) and `values` words.
 */
class IdTable {
  count = 0;
  private readonly stride: number;
  private readonly span: number;
  data: Int32Array;
  /** Entry + 1, 0 for empty; at most half full. */
  private table = new Int32Array(1 << 10);
  /** The slot where `find` stopped (where `add` puts a new entry). */
  private slot = 0;

  constructor(
    /** Per CPU, the segments of its keys. */
    private readonly keys: readonly Int32Array[],
    values: number,
    /** Segments in a node (the ids `find` reads are indexed by segment). */
    private readonly segments: number,
  ) {
    this.span = Math.max(...keys.map((r) => r.length));
    this.stride = 1 + this.span + values;
    this.data = new Int32Array(64 * this.stride);
  }

  private hash(k: number, ids: Int32Array, keys: Int32Array): number {
    let h = mix(0x3c6ef372, k);
    const n = keys.length | 0;
    for (let i = 0; i < n; i++) h = mix(h, ids[keys[i] as number] as number);
    return fmix(h);
  }

  /** The entry of CPU k and its key's ids in `ids`, or −1. */
  find(k: number, ids: Int32Array): number {
    const keys = this.keys[k] as Int32Array;
    const n = keys.length | 0;
    const stride = this.stride | 0;
    const table = this.table;
    const data = this.data;
    const mask = table.length - 1;
    let i = this.hash(k, ids, keys) & mask;
    for (;;) {
      const e = table[i] as number;
      if (e === 0) break;
      const at = Math.imul(e - 1, stride);
      if (data[at] === k) {
        let j = 0;
        while (j < n && data[at + 1 + j] === ids[keys[j] as number]) j++;
        if (j === n) return e - 1;
      }
      i = (i + 1) & mask;
    }
    this.slot = i;
    return -1;
  }

  /** Where entry e's values start in `data`. */
  valueAt(e: number): number {
    return Math.imul(e, this.stride | 0) + 1 + (this.span | 0);
  }

  /**
   * After a `find` of the same CPU and ids that missed: adds their entry and returns it (its
   * values are at `valueAt`), or −1 when the table is full.
   */
  add(k: number, ids: Int32Array): number {
    if (this.count >= MAX_ENTRIES) return -1;
    const keys = this.keys[k] as Int32Array;
    const stride = this.stride;
    if ((this.count + 1) * stride > this.data.length) {
      const more = new Int32Array(this.data.length * 2);
      more.set(this.data);
      this.data = more;
    }
    const e = this.count;
    const at = e * stride;
    this.data[at] = k;
    for (let j = 0; j < keys.length; j++) this.data[at + 1 + j] = ids[keys[j] as number] as number;
    this.table[this.slot] = ++this.count;
    if (this.count * 2 > this.table.length) this.rehash();
    return e;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    // The key's ids back where `hash` reads them: at their segments' indices.
    const ids = new Int32Array(this.segments);
    for (let e = 0; e < this.count; e++) {
      const at = e * this.stride;
      const k = this.data[at] as number;
      const keys = this.keys[k] as Int32Array;
      for (let j = 0; j < keys.length; j++)
        ids[keys[j] as number] = this.data[at + 1 + j] as number;
      let i = this.hash(k, ids, keys) & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = e + 1;
    }
    this.table = table;
  }

  get bytes(): number {
    return this.data.byteLength + this.table.byteLength;
  }
}

/**
 * What each CPU can do from a combination of components, and where each event leads: one entry
 * per CPU k and ids of the segments events on k read (`readsOf`), holding which events k can
 * take (legalOn's bits, with FINISHED) and, for each kind of event once followed, the ids of
 * those segments after it. A node is then expanded with one lookup per CPU.
 */
export class CpuCache {
  private readonly ids: IdTable;
  /** Per CPU: the segments an event on it reads and writes, in order. */
  private readonly reads: readonly Int32Array[];
  /** Per event type: its successor's place in an entry, or −1 (not an event the search takes). */
  private readonly slotOf: Int32Array;
  /** Words of one successor: whether known (0: no, 1: the same state, 2: another), then ids. */
  private readonly slotWords: number;

  /**
   * A cache for machine m, whose states are cut into `segments` (visited.ts), under the search's
   * `limits` (IRQs, NMIs, preemptions, migrations, hotplug events); null where contexts can move
   * between CPUs (migrations, CPUs going offline) or which CPUs are online is a word of memory.
   */
  static for(m: Machine, segments: Segments, limits: readonly number[]): CpuCache | null {
    if (m.hotplug !== null || (limits[3] ?? 0) > 0 || (limits[4] ?? 0) > 0) return null;
    return new CpuCache(m, segments, limits);
  }

  /** Per CPU: 1 where its events read every segment (see `readsAll`). */
  private readonly whole: Uint8Array;

  private constructor(m: Machine, segments: Segments, limits: readonly number[]) {
    this.reads = readsOf(m, segments);
    this.whole = Uint8Array.from(this.reads, (r) => (r.length === segments.length ? 1 : 0));
    const span = Math.max(...this.reads.map((r) => r.length));
    this.slotWords = 1 + span;
    // Only the kinds of event this search can take have a place.
    const slotOf = new Int32Array(8).fill(-1);
    let slots = 0;
    slotOf[Ev.Step] = slots++;
    if ((limits[0] ?? 0) > 0 && m.irqCtx.some((c) => c >= 0)) slotOf[Ev.Irq] = slots++;
    if ((limits[1] ?? 0) > 0 && m.nmiCtx.some((c) => c >= 0)) slotOf[Ev.Nmi] = slots++;
    if ((limits[2] ?? 0) > 0) slotOf[Ev.Preempt] = slots++;
    if (m.tso) slotOf[Ev.Flush] = slots++;
    this.slotOf = slotOf;
    this.ids = new IdTable(this.reads, 1 + slots * this.slotWords, segments.length);
  }

  /** CPU k's entry for a node of component ids `ids`, or −1. */
  find(k: number, ids: Int32Array): number {
    return this.ids.find(k, ids);
  }

  /**
   * Whether CPU k's events read every component (one of its contexts adds up every tally, or
   * every context lives on it): its key is then the whole node, met again too seldom to be worth
   * a lookup, and the explorer interprets them.
   */
  readsAll(k: number): boolean {
    return this.whole[k] === 1;
  }

  /**
   * After a `find` of k and `ids` that missed: adds their entry, with `legal` (legalOn's bits
   * and FINISHED) worked out from the node's state. Returns it, or −1 when the cache is full.
   */
  add(k: number, ids: Int32Array, legal: number): number {
    const e = this.ids.add(k, ids);
    if (e >= 0) this.ids.data[this.ids.valueAt(e)] = legal;
    return e;
  }

  /** Entry e's legal events (legalOn's bits), with FINISHED when its CPU has finished. */
  legal(e: number): number {
    return this.ids.data[this.ids.valueAt(e)] as number;
  }

  /** Where the successor by an event of type `type` lives in entry e, or −1 if it has none. */
  private slotAt(e: number, type: number): number {
    const slot = this.slotOf[type] as number;
    if (e < 0 || slot < 0) return -1;
    return this.ids.valueAt(e) + 1 + Math.imul(slot, this.slotWords | 0);
  }

  /**
   * Writes into `out` from `off` the successor of `ids` (n ids) by an event of type `type` on
   * entry e's CPU k, if known: the ids outside k's key are `ids`'. Returns −1 when not known,
   * else whether it is another state (1) or the same (0).
   */
  successor(
    e: number,
    k: number,
    type: number,
    ids: Int32Array,
    out: Int32Array,
    off: number,
    n: number,
  ): number {
    const at = this.slotAt(e, type);
    if (at < 0) return -1;
    const data = this.ids.data;
    const known = data[at] as number;
    if (known === 0) return -1;
    // A word loop: `subarray` would allocate a view at every transition.
    for (let j = 0; j < n; j++) out[off + j] = ids[j] as number;
    const keys = this.reads[k] as Int32Array;
    for (let j = 0; j < keys.length; j++)
      out[off + (keys[j] as number)] = data[at + 1 + j] as number;
    return known - 1;
  }

  /** After `successor` answered −1: the event of type `type` takes entry e's node to `next`. */
  learn(e: number, k: number, type: number, next: Int32Array, moved: boolean): void {
    const at = this.slotAt(e, type);
    if (at < 0) return;
    const keys = this.reads[k] as Int32Array;
    const data = this.ids.data;
    for (let j = 0; j < keys.length; j++) data[at + 1 + j] = next[keys[j] as number] as number;
    data[at] = moved ? 2 : 1;
  }

  get bytes(): number {
    return this.ids.bytes;
  }
}

/** Set beside legalOn's bits in a CpuCache entry: the CPU has finished (see `finishedOn`). */
export const FINISHED = 1 << 8;

/** CPU k's legal events in state s (legalOn's bits), with FINISHED when it has finished. */
export function legalOf(m: Machine, s: Int32Array, k: number): number {
  return legalOn(m, s, k) | (finishedOn(m, s, k) ? FINISHED : 0);
}

/** Whether a CpuCache legal value says the CPU has finished. */
export const finished = (v: number): boolean => (v & FINISHED) !== 0;

/**
 * CPU k has finished: it runs nothing, no handler and no IRQ is pending, its store buffer is
 * empty and every task that lives on it is done. Where tasks never move, a state is terminal
 * (isTerminal) exactly when every CPU has finished.
 */
export function finishedOn(m: Machine, s: Int32Array, k: number): boolean {
  const b = cpuBase(m, k);
  if (s[b + CPU_CUR] !== -1 || s[b + CPU_IN_IRQ] !== 0 || s[b + CPU_IN_NMI] !== 0) return false;
  if (s[b + CPU_PENDING] !== 0) return false;
  if (m.sbStride !== 0 && s[sbBase(m, k)] !== 0) return false;
  for (let t = 0; t < m.tasks; t++)
    if (m.ctxHome[t] === k && s[ctxBase(m, t) + CTX_DONE] === 0) return false;
  return true;
}

/**
 * Writes into `out` the events CPU k can take by its CpuCache legal value v, in enabledEvents'
 * order, from index n; returns the new count. Only on a machine without hotplug (`CpuCache.for`).
 */
export function eventsOf(m: Machine, k: number, v: number, out: number[], n: number): number {
  return eventsOfMask(m, null, k, v & ~FINISHED, out, n);
}

/** Per segment: the context whose record it is, or −1. */
function contextsOf(m: Machine, segments: Segments): number[] {
  return segments.map(({ off, width }) => {
    if (width !== m.ctxStride || off < m.ctxOff || off >= m.resOff) return -1;
    return (off - m.ctxOff) / m.ctxStride;
  });
}

/**
 * Per CPU k, the segments an event on k can read or write: every segment but the records of
 * contexts that live on other CPUs, or every segment when one of k's contexts adds up every
 * tally (RecordTotal).
 */
export function readsOf(m: Machine, segments: Segments): Int32Array[] {
  const ctxOf = contextsOf(m, segments);
  const everything = m.code.map((code) => code.some((ins) => ins.op === Op.RecordTotal));
  const out: Int32Array[] = [];
  for (let k = 0; k < m.cpus; k++) {
    const mine = (c: number) => m.ctxHome[c] === k;
    const all = everything.some((reads, c) => reads && mine(c));
    const keys: number[] = [];
    segments.forEach((_, i) => {
      const c = ctxOf[i] as number;
      if (all || c < 0 || mine(c)) keys.push(i);
    });
    out.push(Int32Array.from(keys));
  }
  return out;
}
