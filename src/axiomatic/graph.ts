// Execution graphs as the exploring engine (explore.ts) builds them, one event at a time: each
// thread's events in program order, each read's source (rf), each location's coherence order
// (co), and the order the events were added in (their stamps). Kokologiannakis, Marmanis,
// Gladstein, Vafeiadis, "Truly Stateless, Optimal Dynamic Partial Order Reduction" (TruSt,
// POPL 2022), §3: a graph, the order ≤G its events were added in, and porf-prefixes, which a
// backward revisit keeps. Graphs are values: a step makes a new graph and shares the old one's
// events, so the depth-first search keeps one graph per level and nothing more.
//
// A lock is a location like any other here (GenMC's way): spin_lock() reads the lock word and
// can go on only from a free lock (the initial write or an unlock), its lock write comes right
// after what it read in co, as a read-modify-write's does, and an unlock is a write. So the
// order of critical sections is in rf and co, where pruning sees it; the candidate handed to
// the model keeps lock.cat's own shape (explore.ts, candidateOfGraph in exploreCheck.ts).

import { Tag } from './events.ts';
import type { RunState, ThreadEvent } from './threads.ts';

/** A reference to a write: a thread's event (thread × 2^16 + index), or −1 − loc for loc's initial write. */
export type Ref = number;

export const initRef = (loc: number): Ref => -1 - loc;
export const refOf = (thread: number, index: number): Ref => thread * 65536 + index;
export const refThread = (r: Ref): number => Math.floor(r / 65536);
export const refIndex = (r: Ref): number => r % 65536;

/**
 * One node of a graph: a read, a write or a fence the thread made, or `C`, the branch a run
 * took where it forked without reading (an interrupt, the scheduler, a hotplug step, or none).
 */
export interface GEvent {
  readonly kind: 'R' | 'W' | 'F' | 'C';
  readonly thread: number;
  /** Place in the thread's list (program order). */
  readonly index: number;
  /** When it was added (TruSt's ≤G). */
  readonly stamp: number;
  /** The runner's event (R, W, F), or null for a choice. */
  readonly te: ThreadEvent | null;
  /** Index of te in the run's events, or −1 for a choice. */
  readonly runIndex: number;
  /** For a choice: which branch. */
  readonly choice: number;
  /** For a read: the write it reads. */
  readonly rf: Ref | null;
  /**
   * Whether it was added maximally (TruSt §4, GenMC's `addedMax`): a read reading the co-last
   * write, a write placed co-last, a choice taking the branch that spends nothing.
   */
  readonly addedMax: boolean;
  /** Whether a later write may still revisit it (false once it is in a revisiting write's porf-prefix). */
  readonly revisitable: boolean;
  /**
   * Whether a later write in whose porf-prefix it is may still revisit it (explore.ts,
   * regenerate): false once it is in what a revisiting write depends on (its addr, data, ctrl
   * and rmw dependencies and the writes they read, closed under both), HMC's prefix.
   */
  readonly depRevisitable: boolean;
  /**
   * A read whose run cannot go on with the value it reads (a lock held, a scheduler token not
   * its to take): its thread stops there, until a write revisits the read with another value.
   */
  readonly blocked: boolean;
  /** For a read: the run waiting at it, so a revisit can give it another value. */
  readonly pause: RunState | null;
  /** The thread's run right after this event was added: where it resumes when a revisit cuts after it. */
  readonly after: RunAt;
}

/**
 * What a thread's run waits for: to be resumed, a value, a fork's branch, or nothing more
 * (done, past a loop's bound, dead, or blocked at a read).
 */
export type Stop = 'more' | 'read' | 'fork' | 'done' | 'cut' | 'dead' | 'blocked';

/** Where a thread's run stands. */
export interface RunAt {
  /** The runner's state: its first `added` events are in the graph (choices aside). */
  readonly run: RunState;
  readonly added: number;
  readonly stop: Stop;
  /** At a fork: the branches. */
  readonly forks: readonly RunState[] | null;
}

/** One thread of a graph: its events and where its run stands. */
export interface Slot extends RunAt {
  readonly events: readonly GEvent[];
}

export interface Graph {
  readonly slots: readonly Slot[];
  /** Each location's writes after its initial write, in coherence order. */
  readonly co: ReadonlyMap<number, readonly Ref[]>;
  /** The next stamp. */
  readonly stamp: number;
  /**
   * Whether a revisit made a read read a write in whose porf-prefix it is (a porf cycle,
   * explore.ts): such a graph may be reached more than once, and is counted once.
   */
  readonly cyclic: boolean;
}

export const LOCK_TAGS = Tag.Lkr | Tag.Lkw | Tag.Ul | Tag.Lf | Tag.Rl | Tag.Ru;

export function eventAt(g: Graph, r: Ref): GEvent | null {
  if (r < 0) return null;
  return g.slots[refThread(r)]?.events[refIndex(r)] ?? null;
}

/** Whether a write is a read-modify-write's (a lock's write included): it sits right after what its read read. */
export function isRmwWrite(e: GEvent): boolean {
  return e.kind === 'W' && e.te !== null && e.te.rmwRead >= 0;
}

/**
 * The porf-prefix of an event as a view: for each thread, how many of its first events are in
 * it. Program order is a prefix of each thread, so po ∪ rf closure is a vector of counts.
 */
export function porfPrefix(g: Graph, from: Ref): Int32Array {
  const view = new Int32Array(g.slots.length);
  const stack: Ref[] = [from];
  while (stack.length > 0) {
    const r = stack.pop() as Ref;
    if (r < 0) continue;
    const t = refThread(r);
    const i = refIndex(r);
    const have = view[t] as number;
    if (have > i) continue;
    const evs = (g.slots[t] as Slot).events;
    for (let j = have; j <= i; j++) {
      const e = evs[j] as GEvent;
      if (e.kind === 'R' && e.rf !== null) stack.push(e.rf);
    }
    view[t] = i + 1;
  }
  return view;
}

export function inView(view: Int32Array, r: Ref): boolean {
  return r < 0 || refIndex(r) < (view[refThread(r)] as number);
}

/** The graph with one slot replaced. */
export function withSlot(g: Graph, t: number, s: Slot, co = g.co, stamp = g.stamp): Graph {
  const slots = g.slots.slice();
  slots[t] = s;
  return { slots, co, stamp, cyclic: g.cyclic };
}

/** A copy of the co map with `w` at position `at` of `loc`'s writes. */
export function coWith(g: Graph, loc: number, w: Ref, at: number): Map<number, readonly Ref[]> {
  const co = new Map(g.co);
  const list = (co.get(loc) ?? []).slice();
  list.splice(at, 0, w);
  co.set(loc, list);
  return co;
}

/** The write co-last at loc (its initial write when nothing else writes there). */
export function coMax(g: Graph, loc: number): Ref {
  const list = g.co.get(loc);
  return list && list.length > 0 ? (list[list.length - 1] as Ref) : initRef(loc);
}

/** The writes co-after `w` at `loc` (every write after the initial one, for an initial write). */
export function coAfter(g: Graph, loc: number, w: Ref): readonly Ref[] {
  const list = g.co.get(loc) ?? [];
  if (w < 0) return list;
  const i = list.indexOf(w);
  return i < 0 ? [] : list.slice(i + 1);
}
