// What an event does to a node's components, and which events a CPU can take, remembered.
//
// An event on CPU k reads and writes only part of a state: memory, the CPUs' fields, the store
// buffers, the results, and the records of the contexts that live on CPU k (its tasks, its IRQ
// and NMI handlers). Its effect is then a function of those components' ids alone, and the
// same few combinations come back across millions of nodes: on global-plain with 3 CPUs × 5
// adds, 1.9 million transitions come from a few thousand. So the explorer applies an event to
// a combination once, through the interpreter, and afterwards reads the successor's ids here:
// no copy of the state, no interpretation, no interning (`TransitionCache`). Which events CPU k
// can take, and whether it has finished, read fewer components still (`LegalCache`), so a node
// whose successors are all known is expanded without decoding its state at all.
//
// What makes "lives on CPU k" hold: a context moves only by a migration or a CPU going offline,
// so the caches are used only when the search allows neither. An event on CPU k then reads
// other contexts in one place, `nextReady` (a task finishes or is preempted), and there only
// their CPU word, which never changes, says they are not candidates. One instruction reads every
// context (RecordTotal adds up the tallies): a CPU whose contexts run it reads every component.
// Any new rule that reads further must widen `readsOf`; transitions.test.ts explores the whole
// catalogue with every hit checked against the interpreter.

import { Ev, eventCpu, Legal, legalOn } from '../machine/events.ts';
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
 * A table from (a tag, the ids of some of a node's segments) to a few words: open addressing
 * over entries of the tag, the key's ids (padded to `span`) and `values` words.
 */
class IdTable {
  count = 0;
  private readonly stride: number;
  data: Int32Array;
  /** Entry + 1, 0 for empty; at most half full. */
  private table = new Int32Array(1 << 10);
  /** The slot where `find` stopped (where `add` puts a new entry). */
  private slot = 0;

  constructor(
    /** The segments of the key for a tag. */
    private readonly keysOf: (tag: number) => Int32Array,
    private readonly span: number,
    values: number,
    /** Segments in a node (the ids `find` reads are indexed by segment). */
    private readonly segments: number,
  ) {
    this.stride = 1 + span + values;
    this.data = new Int32Array(64 * this.stride);
  }

  private hash(tag: number, ids: Int32Array, keys: Int32Array): number {
    let h = mix(0x3c6ef372, tag);
    const n = keys.length | 0;
    for (let i = 0; i < n; i++) h = mix(h, ids[keys[i] as number] as number);
    return fmix(h);
  }

  /** The entry of `tag` and `ids`, or −1. */
  find(tag: number, ids: Int32Array): number {
    const keys = this.keysOf(tag);
    const n = keys.length | 0;
    const stride = this.stride | 0;
    const table = this.table;
    const data = this.data;
    const mask = table.length - 1;
    let i = this.hash(tag, ids, keys) & mask;
    for (;;) {
      const e = table[i] as number;
      if (e === 0) break;
      const at = Math.imul(e - 1, stride);
      if (data[at] === tag) {
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
   * After a `find` of the same tag and ids that missed: adds their entry and returns where its
   * values go in `data`, or −1 when the table is full.
   */
  add(tag: number, ids: Int32Array): number {
    if (this.count >= MAX_ENTRIES) return -1;
    const keys = this.keysOf(tag);
    const stride = this.stride;
    if ((this.count + 1) * stride > this.data.length) {
      const more = new Int32Array(this.data.length * 2);
      more.set(this.data);
      this.data = more;
    }
    const e = this.count;
    const at = e * stride;
    this.data[at] = tag;
    for (let j = 0; j < keys.length; j++) this.data[at + 1 + j] = ids[keys[j] as number] as number;
    this.table[this.slot] = ++this.count;
    if (this.count * 2 > this.table.length) this.rehash();
    return this.valueAt(e);
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    // The key's ids back where `hash` reads them: at their segments' indices.
    const ids = new Int32Array(this.segments);
    for (let e = 0; e < this.count; e++) {
      const at = e * this.stride;
      const tag = this.data[at] as number;
      const keys = this.keysOf(tag);
      for (let j = 0; j < keys.length; j++)
        ids[keys[j] as number] = this.data[at + 1 + j] as number;
      let i = this.hash(tag, ids, keys) & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = e + 1;
    }
    this.table = table;
  }

  get bytes(): number {
    return this.data.byteLength + this.table.byteLength;
  }
}

/** Where events on each CPU lead, by the ids of the components they read and write. */
export class TransitionCache {
  private readonly ids: IdTable;
  /** Per CPU: the segments an event on it reads and writes, in order. */
  private readonly reads: readonly Int32Array[];
  private readonly span: number;

  /**
   * A cache for machine m, whose states are cut into `segments` (visited.ts), or null when
   * contexts can move between CPUs (`migrations` or `hotplugs` allowed).
   */
  static for(
    m: Machine,
    segments: Segments,
    migrations: number,
    hotplugs: number,
  ): TransitionCache | null {
    if (migrations > 0 || hotplugs > 0) return null;
    return new TransitionCache(readsOf(m, segments), segments.length);
  }

  private constructor(reads: readonly Int32Array[], segments: number) {
    this.reads = reads;
    this.span = Math.max(...reads.map((r) => r.length));
    const keysOf = (ev: number) => reads[eventCpu(ev)] as Int32Array;
    this.ids = new IdTable(keysOf, this.span, this.span + 1, segments);
  }

  /** The entry for event ev from a node of component ids `ids`, or −1. */
  find(ev: number, ids: Int32Array): number {
    return this.ids.find(ev, ids);
  }

  /**
   * Writes entry e's successor by ev of `ids` (n ids) into `out`: the ids outside the key are
   * `ids`'. Returns whether it is another state.
   */
  successor(e: number, ev: number, ids: Int32Array, out: Int32Array, n: number): boolean {
    // A word loop: `subarray` would allocate a view at every transition.
    for (let j = 0; j < n; j++) out[j] = ids[j] as number;
    const keys = this.reads[eventCpu(ev)] as Int32Array;
    const data = this.ids.data;
    const at = this.ids.valueAt(e);
    for (let j = 0; j < keys.length; j++) out[keys[j] as number] = data[at + j] as number;
    return data[at + (this.span | 0)] !== 0;
  }

  /** After a `find` of ev and `ids` that missed: ev takes `ids` to `next`. */
  add(ev: number, ids: Int32Array, next: Int32Array, moved: boolean): void {
    const at = this.ids.add(ev, ids);
    if (at < 0) return;
    const keys = this.reads[eventCpu(ev)] as Int32Array;
    const data = this.ids.data;
    for (let j = 0; j < keys.length; j++) data[at + j] = next[keys[j] as number] as number;
    data[at + this.span] = moved ? 1 : 0;
  }

  get bytes(): number {
    return this.ids.bytes;
  }
}

/** Set in a LegalCache value beside legalOn's mask: the CPU has finished (see `finishedOn`). */
export const FINISHED = 1 << 8;

/**
 * Which events each CPU can take and whether it has finished, by the ids of the components
 * those read: the CPUs' fields, the store buffers and the CPU's own contexts (not memory).
 * Null on a machine with hotplug, where which CPUs are online is a word of memory.
 */
export class LegalCache {
  private readonly ids: IdTable;

  static for(m: Machine, segments: Segments, known: TransitionCache | null): LegalCache | null {
    if (known === null || m.hotplug !== null) return null;
    return new LegalCache(m, segments);
  }

  private constructor(
    private readonly m: Machine,
    segments: Segments,
  ) {
    const ctxOf = contextsOf(m, segments);
    const keys: Int32Array[] = [];
    for (let k = 0; k < m.cpus; k++) {
      const mine: number[] = [];
      segments.forEach(({ off }, i) => {
        const c = ctxOf[i] as number;
        if (c >= 0 ? m.ctxHome[c] === k : off >= m.cpuOff && off < m.ctxOff) mine.push(i);
      });
      keys.push(Int32Array.from(mine));
    }
    const span = Math.max(...keys.map((r) => r.length));
    this.ids = new IdTable((k) => keys[k] as Int32Array, span, 1, segments.length);
  }

  /**
   * CPU k's legal events (Legal bits) from a node of component ids `ids`, with FINISHED when it
   * has finished; −1 when not known yet (then `learn` it from the node's state).
   */
  of(k: number, ids: Int32Array): number {
    const e = this.ids.find(k, ids);
    return e < 0 ? -1 : (this.ids.data[this.ids.valueAt(e)] as number);
  }

  /** After `of` answered −1 for k and `ids`: works it out from s, the node's state. */
  learn(k: number, ids: Int32Array, s: Int32Array): number {
    const v = legalOn(this.m, s, k) | (finishedOn(this.m, s, k) ? FINISHED : 0);
    const at = this.ids.add(k, ids);
    if (at >= 0) this.ids.data[at] = v;
    return v;
  }

  get bytes(): number {
    return this.ids.bytes;
  }
}

/** Whether a LegalCache value says the CPU has finished. */
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
 * Writes into `out` the events CPU k can take by its LegalCache value v, in enabledEvents'
 * order, from index n; returns the new count. Only on a machine without hotplug.
 */
export function eventsOf(m: Machine, k: number, v: number, out: number[], n: number): number {
  const c = k << 3;
  if ((v & Legal.Step) !== 0) out[n++] = c;
  if ((v & Legal.Irq) !== 0) out[n++] = Ev.Irq | c;
  if ((v & Legal.Nmi) !== 0) out[n++] = Ev.Nmi | c;
  if ((v & Legal.Preempt) !== 0) out[n++] = Ev.Preempt | c;
  if ((v & Legal.Flush) !== 0) out[n++] = Ev.Flush | c;
  if ((v & Legal.Migrate) !== 0)
    for (let j = 0; j < m.cpus; j++) if (j !== k) out[n++] = Ev.Migrate | c | (j << 11);
  return n;
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
