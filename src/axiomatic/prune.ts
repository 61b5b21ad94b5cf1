// Which partial graphs the exploring engine drops before they are complete. TruSt (POPL 2022,
// §4–5) needs a consistency check on partial graphs that is prefix-closed (a consistent graph's
// porf-prefixes are consistent) and maximally extensible (a consistent graph stays consistent
// when its next event reads the co-last write, or is placed co-last, or takes the branch that
// spends nothing). The whole model is judged only on complete graphs, by lkmm() itself, so the
// two engines cannot disagree on the model; here go only checks that an added event can never
// undo.
//
// linux-kernel.cat's checks, and whether an inconsistent prefix can become consistent:
// - coherence (acyclic po-loc | rf | co | fr) and atomic (empty rmw & fre;coe): every edge of a
//   prefix is an edge of every extension (co only gains writes, a read's fr only gains
//   co-successors), so a cycle stays. Checked here, location by location, as four shapes of
//   po-loc pairs and the RMW's neighbour in co. A lock's word is checked too: its reads read the
//   initial write or an unlock (a free lock) and its lock write comes right after, so lock.cat's
//   own co (each unlock between its lock and the next lock) is the graph's co, and its derived
//   rf the graph's rf (graph.ts).
// - happens-before, propagation and rcu are acyclicity and irreflexivity checks, but of
//   relations built with complements: `failedRmw` (an RMW whose write a prefix has not added
//   yet looks failed, so its Acquire and Mb tags vanish), `marked` and `plain`, `lock-nest`'s
//   and `critical`'s `\ (po-loc;[UL];po-loc)` (an unlock not yet added), and rcu's fixed point.
//   They are left to the final check.
// - plain-coherence and the data-race flag use `\ vis` and `\ rw-xbstar` (a race in a prefix may
//   be ordered by a fence added later), lock-nest, nested-is-locked and unmatched-locks use
//   `\ critical` (an unlock added later matches a lock): not monotone, final check only.
// - The program's bounds on interrupts and the scheduler: what the threads' runs spent only
//   grows, so a prefix that spent more than the bounds allow stays over them.

import { Tag } from './events.ts';
import type { Spent } from './threads.ts';
import { type GEvent, type Graph, isRmwWrite, type Ref, refOf, type Slot } from './graph.ts';

/** The rank of write w in loc's co (the initial write 0), or −1 when it is not there. */
function rankOf(g: Graph, loc: number, w: Ref): number {
  if (w < 0) return 0;
  const i = (g.co.get(loc) ?? []).indexOf(w);
  return i < 0 ? -1 : i + 1;
}

const refOfEvent = (e: GEvent): Ref => refOf(e.thread, e.index);

/** The read of an RMW's write, in its thread's events (searched back from the write). */
function readOf(events: readonly GEvent[], w: GEvent): GEvent | undefined {
  const at = (w.te as { rmwRead: number }).rmwRead;
  for (let i = w.index - 1; i >= 0; i--) {
    const e = events[i] as GEvent;
    if (e.kind === 'R' && e.runIndex === at) return e;
  }
  return undefined;
}

/** Atomicity: an RMW's write comes right after, in co, the write its read read. */
function atomicHere(g: Graph, events: readonly GEvent[], w: GEvent): boolean {
  const read = readOf(events, w);
  if (!read || read.rf === null) return true;
  const loc = (w.te as { loc: number }).loc;
  return rankOf(g, loc, refOfEvent(w)) === rankOf(g, loc, read.rf) + 1;
}

/**
 * Whether a partial graph may still extend to a coherent and atomic execution: false only when
 * a coherence cycle or a broken RMW is already in it. Every event is checked (after a revisit).
 */
export function partiallyConsistent(g: Graph): boolean {
  for (const s of g.slots) {
    // The last write and the last read's source at each location, in program order: the four
    // shapes (write-write, read-write, write-read, read-read) reduce to one running maximum.
    const seen = new Map<number, number>();
    for (const e of s.events) {
      const te = e.te;
      if (!te || te.loc < 0 || e.kind === 'F') continue;
      if (te.dir === 'W') {
        const r = rankOf(g, te.loc, refOfEvent(e));
        const before = seen.get(te.loc);
        // A write must be co-after every write po-before it and every write a po-earlier read read.
        if (before !== undefined && r <= before) return false;
        seen.set(te.loc, r);
        if (isRmwWrite(e) && !atomicHere(g, s.events, e)) return false;
      } else if (e.rf !== null) {
        const r = rankOf(g, te.loc, e.rf);
        const before = seen.get(te.loc);
        // A read reads a write no older than what it follows in program order.
        if (before !== undefined && r < before) return false;
        seen.set(te.loc, Math.max(before ?? -1, r));
      }
    }
  }
  return true;
}

/**
 * Whether the graph stays coherent and atomic with its newest event, `e` (the last of its
 * thread), given that it was before. A new write only sits between two writes of other events'
 * pairs, which keeps their order, so only its own po-earlier accesses and the write it now
 * precedes (an RMW's, whose read may have read the write it now follows) are checked.
 */
export function consistentWith(g: Graph, e: GEvent): boolean {
  const te = e.te;
  if (!te || te.loc < 0 || e.kind === 'F') return true;
  const s = g.slots[e.thread] as Slot;
  const loc = te.loc;
  let before = -1;
  for (let i = 0; i < e.index; i++) {
    const o = s.events[i] as GEvent;
    const ot = o.te;
    if (!ot || ot.loc !== loc || o.kind === 'F') continue;
    if (ot.dir === 'W') before = Math.max(before, rankOf(g, loc, refOfEvent(o)));
    else if (o.rf !== null) before = Math.max(before, rankOf(g, loc, o.rf));
  }
  if (te.dir === 'R') return e.rf === null || rankOf(g, loc, e.rf) >= before;
  const list = g.co.get(loc) ?? [];
  const at = list.indexOf(refOfEvent(e));
  if (at + 1 <= before) return false;
  if (isRmwWrite(e) && !atomicHere(g, s.events, e)) return false;
  const next = list[at + 1];
  if (next !== undefined) {
    const n = g.slots[Math.floor(next / 65536)]?.events[next % 65536];
    if (n && isRmwWrite(n) && !atomicHere(g, (g.slots[n.thread] as Slot).events, n)) return false;
  }
  return true;
}

/**
 * Whether the threads' runs together spent no more than the program's bounds (with thread t's
 * run `instead`, when given).
 */
export function withinBudget(
  g: Graph,
  bounds: Readonly<Spent>,
  t = -1,
  instead: { readonly spent: Spent } | null = null,
): boolean {
  let irqs = 0;
  let nmis = 0;
  let preemptions = 0;
  let migrations = 0;
  let hotplugs = 0;
  for (const [u, s] of g.slots.entries()) {
    // A handler on an idle CPU, or an offline, that has not chosen yet whether it happens
    // spends nothing so far (its run carries what happening would spend).
    if (!(u === t && instead) && s.run.phase === 'begin') continue;
    const x = u === t && instead ? instead.spent : s.run.spent;
    irqs += x.irqs;
    nmis += x.nmis;
    preemptions += x.preemptions;
    migrations += x.migrations;
    hotplugs += x.hotplugs;
  }
  return (
    irqs <= bounds.irqs &&
    nmis <= bounds.nmis &&
    preemptions <= bounds.preemptions &&
    migrations <= bounds.migrations &&
    hotplugs <= bounds.hotplugs
  );
}

/** Whether a read is an acquire: smp_load_acquire(), a lock's read, an RMW's acquire read that wrote. */
function acquires(e: GEvent): boolean {
  const te = e.te;
  if (e.kind !== 'R' || e.blocked || !te) return false;
  if (te.tags & Tag.Lkr) return true;
  if ((te.tags & Tag.Acquire) === 0) return false;
  if ((te.tags & Tag.Rmw) === 0) return true;
  // An RMW that did not write (a failed cmpxchg) loses its Acquire (linux-kernel.bell).
  const w = e.after.run.events[e.runIndex + 1];
  return w !== undefined && w.dir === 'W' && w.rmwRead === e.runIndex;
}

/** Whether a write is a release: smp_store_release() and its kin, or an unlock. */
function releases(e: GEvent): boolean {
  return e.kind === 'W' && e.te !== null && (e.te.tags & (Tag.Release | Tag.Ul)) !== 0;
}

/**
 * The lowest rank in loc's co that an access at position n of thread t (after its first n
 * events) may read (`read`) or be placed at (a write: one more), as far as the graph already
 * decides it:
 * - coherence: not below what its po-earlier accesses of loc wrote or read;
 * - release and acquire: not below a write that reaches it along a chain of release writes read
 *   by acquire reads (an unlock read by a lock, smp_store_release() by smp_load_acquire(), a
 *   scheduler turn's end by the next turn's start), each step with the program order around
 *   it. A write w' so ordered before a read r that reads a write co-before w' breaks
 *   linux-kernel.cat: when both are marked, r's fr to w', the release's cumul-fence and the rfe
 *   make prop from r to the acquire in r's thread, an hb cycle with acq-po; when one is plain,
 *   w' is wr-vis to r (w-post-bounded by po-rel, vis through the rfe, r-pre-bounded by acq-po)
 *   and plain-coherence fails. Likewise a write w2 so ordered after w' must be co-after it
 *   (prop and ww-vis). The chain and the ranks are in every extension of the graph, so no
 *   extension can repair it, and the co-last write always satisfies the bound (TruSt's
 *   maximal extensions stay).
 */
export function lowerBound(g: Graph, t: number, n: number, loc: number, read: boolean): number {
  let bound = read ? 0 : 1;
  const note = (rank: number): void => {
    const b = read ? rank : rank + 1;
    if (b > bound) bound = b;
  };
  // Coherence with the thread's own po-earlier accesses.
  const own = (g.slots[t] as Slot).events;
  for (let i = 0; i < n; i++) {
    const o = own[i] as GEvent;
    const ot = o.te;
    if (!ot || ot.loc !== loc || o.kind === 'F') continue;
    // A read reads no write co-before these; a write is placed co-after them.
    if (ot.dir === 'W') note(rankOf(g, loc, refOfEvent(o)));
    else if (o.rf !== null) note(rankOf(g, loc, o.rf));
  }
  // The writes release-acquire chains bring before it, in other threads.
  const view = new Int32Array(g.slots.length);
  const scanned = new Int32Array(g.slots.length);
  view[t] = n;
  const work = [t];
  while (work.length > 0) {
    const u = work.pop() as number;
    const evs = (g.slots[u] as Slot).events;
    for (let i = scanned[u] as number; i < (view[u] as number); i++) {
      const e = evs[i] as GEvent;
      if (u !== t && e.kind === 'W' && e.te?.loc === loc) note(rankOf(g, loc, refOfEvent(e)));
      if (!acquires(e) || e.rf === null || e.rf < 0) continue;
      const src = g.slots[Math.floor(e.rf / 65536)]?.events[e.rf % 65536];
      if (!src || !releases(src)) continue;
      if (src.index + 1 > (view[src.thread] as number)) {
        view[src.thread] = src.index + 1;
        work.push(src.thread);
      }
    }
    scanned[u] = Math.max(scanned[u] as number, view[u] as number);
  }
  return bound;
}

/** Whether an access is marked (linux-kernel.bell's Marked): not a plain C access. */
function marked(e: GEvent): boolean {
  const te = e.te;
  if (!te || (e.kind !== 'R' && e.kind !== 'W')) return false;
  return (
    (te.tags &
      (Tag.Once |
        Tag.Release |
        Tag.Acquire |
        Tag.Mb |
        Tag.Rmw |
        Tag.Lkr |
        Tag.Lkw |
        Tag.Ul |
        Tag.Lf |
        Tag.Rl |
        Tag.Ru)) !==
    0
  );
}

/**
 * Whether a read r reading write w (of another thread) is ruled out by linux-kernel.cat
 * whatever the rest of the execution: there is a path from r to w whose steps are program
 * order from an acquire read (acq-po), to a release write (po-rel) or across a full fence (mb),
 * and rf between marked accesses of two threads (rfe), every access on the way but r and w
 * marked. Then, when r and w are marked, the path and the rfe from w to r are a cycle of hb
 * (the happens-before axiom); when one is plain, the path is r-post-bounded ; xbstar ;
 * w-pre-bounded, so (r, w) is in rw-xbstar and the race's rf breaks plain-coherence
 * (wr-incoh). The path's events and edges are in every extension of the graph.
 */
export function closesHb(g: Graph, r: GEvent, w: GEvent): boolean {
  if (r.thread === w.thread) return false;
  // Per thread, the lowest index already reached (everything ordered after it is reached too).
  const reached = new Int32Array(g.slots.length).fill(0x7fffffff);
  const work: GEvent[] = [r];
  reached[r.thread] = r.index;
  while (work.length > 0) {
    const a = work.pop() as GEvent;
    const evs = (g.slots[a.thread] as Slot).events;
    // The first event po-after a that a is ordered before, and every later one: all of them
    // after an acquire, after a full fence; else only release writes.
    let all = acquires(a) ? a.index + 1 : evs.length;
    for (let i = a.index + 1; i < all; i++) {
      const f = evs[i] as GEvent;
      if (f.kind === 'F' && f.te && (f.te.tags & Tag.Mb) !== 0 && f.te.loc < 0) all = i + 1;
    }
    for (let i = a.index + 1; i < evs.length; i++) {
      const b = evs[i] as GEvent;
      if (i < all && !releases(b)) continue;
      if (b === w) return true;
      if (!marked(b)) continue;
      // From a write: the reads of it in other threads.
      if (b.kind === 'W')
        for (const s of g.slots)
          for (const c of s.events)
            if (
              c.kind === 'R' &&
              c.thread !== b.thread &&
              c.rf === refOf(b.thread, b.index) &&
              marked(c) &&
              c.index < (reached[c.thread] as number)
            ) {
              reached[c.thread] = c.index;
              work.push(c);
            }
    }
  }
  return false;
}
