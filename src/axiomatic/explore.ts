// The exploring engine: a program's execution graphs built one event at a time, GenMC's way,
// instead of enumerating every candidate and judging it. Kokologiannakis, Marmanis, Gladstein,
// Vafeiadis, "Truly Stateless, Optimal Dynamic Partial Order Reduction" (TruSt, POPL 2022):
// - Algorithm 1/2 (Visit): threads run in a fixed order (the lowest thread that can go on; an
//   RMW's write right after its read, GenMC's rule); each step adds one event.
// - A read reads each write of its location already in the graph (forward revisits, §3). A
//   value its run cannot go on with (a held lock, a scheduler token not its own to take) leaves
//   the thread blocked at the read when the write is the co-last one, so that a later write (an
//   unlock, a turn's end) can revisit it; from any other write it is dropped (GenMC's blocked
//   reads of `assume`).
// - A write is placed at each place in its location's coherence order (§6, GenMC's `co`
//   placement), an RMW's write (a lock's too) right after the write its read read.
// - A write then revisits each earlier read of its location outside its porf-prefix (backward
//   revisits, §4): the graph keeps the events added before the read and the write's
//   porf-prefix, the read reads the write, and its thread runs again from there.
// - §5, the maximality condition (GenMC's isMaximalExtension): a revisit happens only when every
//   event it deletes, and the read, was added maximally (a read reading the co-last write, a
//   write placed co-last, a fork's branch that spends nothing of the bounds), is co-after all
//   that is kept, and was not itself revisited by a deleted write; so each graph is reached once.
// - Where a run forks without reading (an interrupt, the scheduler, a hotplug step), each branch
//   is a choice event; a partial graph that is incoherent, or whose threads together spent more
//   of the program's bounds than it allows, is dropped (prune.ts); complete graphs are judged by
//   lkmm() itself (exploreCheck.ts), as the enumerating engine's candidates are.
// The search is a depth-first recursion over immutable graphs: memory is one graph a level,
// whatever the number of executions.

import type { Machine } from '../machine/machine.ts';
import { Tag } from './events.ts';
import {
  coAfter,
  coMax,
  coWith,
  eventAt,
  type GEvent,
  type Graph,
  initRef,
  inView,
  isRmwWrite,
  LOCK_TAGS,
  porfPrefix,
  type Ref,
  refIndex,
  refOf,
  refThread,
  type RunAt,
  type Slot,
  type Stop,
  withSlot,
} from './graph.ts';
import type { ModelThreads } from './plans.ts';
import {
  closesHb,
  consistentWith,
  lowerBound,
  partiallyConsistent,
  withinBudget,
} from './prune.ts';
import {
  AxiomaticRefusal,
  atWidth,
  type RunState,
  type ThreadEvent,
  ThreadRunner,
  type ThreadRun,
} from './threads.ts';

export interface ExploreSetup {
  readonly m: Machine;
  readonly threads: ModelThreads;
  /** Loop bound. */
  readonly unroll: number;
  /** The initial value of a location read at a width. */
  readonly initial: (loc: number, width: number) => bigint;
  /** Most graphs visited before the engine gives up. */
  readonly maxVisits: number;
}

/** A program the exploring engine hands to the enumerating one, and why. */
export class ExploreFallback extends Error {}

/** An event of a complete graph: [thread, index in its run], or [−1, loc] for loc's initial write. */
export type Where = readonly [number, number];

/** What a complete graph hands the judge: each thread's run, rf and co. */
export interface CompleteGraph {
  readonly runs: readonly ThreadRun[];
  /** [write, read] pairs, one a read (a lock's read too). */
  readonly rf: readonly (readonly [Where, Where])[];
  /** Each location's writes after its initial one, in co (unlocks too). */
  readonly co: ReadonlyMap<number, readonly Where[]>;
}

export interface ExploreCounts {
  /** Complete graphs handed on. */
  complete: number;
  /** Partial graphs dropped: incoherent, over the bounds, or a read's value its run refuses. */
  pruned: number;
  /** Graphs that ended with a thread blocked, cut at the loop bound, or dead. */
  blocked: number;
  /**
   * Complete graphs reached again through a porf cycle (or reached through one, but without a
   * cycle: TruSt reaches those without), not counted twice.
   */
  duplicates: number;
  /** Whether some run went past the loop bound. */
  loopCut: boolean;
  /** Graphs made, partial ones included. */
  visits: number;
}

/**
 * What events depend on (HMC's prefix): their addr, data and ctrl dependencies and an RMW's
 * read, the writes those reads read, and so on; as refs, `from` included.
 */
function dependencies(g: Graph, from: readonly Ref[]): Set<Ref> {
  const out = new Set<Ref>();
  const work: Ref[] = from.slice();
  // Each thread's graph index of a run index (choices make no run event).
  const indexOf = new Map<number, Int32Array>();
  const at = (t: number, runIndex: number): number => {
    let map = indexOf.get(t);
    if (!map) {
      const evs = (g.slots[t] as Slot).events;
      map = new Int32Array(evs.length + 1).fill(-1);
      const m = map;
      evs.forEach((e, i) => {
        if (e.runIndex >= 0 && e.runIndex < m.length) m[e.runIndex] = i;
      });
      indexOf.set(t, map);
    }
    return map[runIndex] ?? -1;
  };
  while (work.length > 0) {
    const x = work.pop() as Ref;
    if (x < 0 || out.has(x)) continue;
    out.add(x);
    const e = eventAt(g, x);
    if (!e) continue;
    if (e.kind === 'R' && e.rf !== null) work.push(e.rf);
    const te = e.te;
    if (!te) continue;
    const on = [...te.addr, ...te.data, ...te.ctrl];
    if (te.rmwRead >= 0) on.push(te.rmwRead);
    for (const d of on) {
      const i = at(e.thread, d);
      if (i >= 0) work.push(refOf(e.thread, i));
    }
  }
  return out;
}

/** Whether two runs' events are the same event (what the execution holds of them). */
function sameEvent(a: ThreadEvent, b: ThreadEvent): boolean {
  const same = (x: readonly number[], y: readonly number[]) =>
    x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.dir === b.dir &&
    a.loc === b.loc &&
    a.value === b.value &&
    a.tags === b.tags &&
    a.width === b.width &&
    a.pc === b.pc &&
    a.rmwRead === b.rmwRead &&
    a.ctx === b.ctx &&
    same(a.addr, b.addr) &&
    same(a.data, b.data) &&
    same(a.ctrl, b.ctrl)
  );
}

/**
 * A complete graph's identity (its events, rf and co) when it has a cycle in po ∪ rf, or null
 * when it has none.
 */
function cycleKey(g: Graph): string | null {
  // Kahn's algorithm over po (each event to the next of its thread) and rf.
  const base: number[] = [];
  let n = 0;
  for (const s of g.slots) {
    base.push(n);
    n += s.events.length;
  }
  const node = (ref: Ref): number => (base[Math.floor(ref / 65536)] as number) + (ref % 65536);
  const indeg = new Int32Array(n);
  const out: number[][] = Array.from({ length: n }, () => []);
  g.slots.forEach((s, t) => {
    s.events.forEach((e, i) => {
      const me = (base[t] as number) + i;
      if (i > 0) {
        (out[me - 1] as number[]).push(me);
        indeg[me] = (indeg[me] as number) + 1;
      }
      if (e.kind === 'R' && e.rf !== null && e.rf >= 0) {
        (out[node(e.rf)] as number[]).push(me);
        indeg[me] = (indeg[me] as number) + 1;
      }
    });
  });
  const ready: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) ready.push(v);
  let seen = 0;
  while (ready.length > 0) {
    const v = ready.pop() as number;
    seen++;
    for (const u of out[v] as number[]) {
      indeg[u] = (indeg[u] as number) - 1;
      if (indeg[u] === 0) ready.push(u);
    }
  }
  if (seen === n) return null;
  const parts: string[] = [];
  for (const s of g.slots)
    parts.push(
      s.events
        .map((e) =>
          e.kind === 'C'
            ? `C${e.choice}`
            : `${e.kind}${e.te?.loc ?? ''}:${String(e.te?.value ?? '')}:${e.rf ?? ''}:${e.te?.pc ?? ''}:${e.te?.ctx ?? ''}:${e.te?.tags ?? ''}`,
        )
        .join(' '),
    );
  for (const [loc, list] of [...g.co].sort((a, b) => a[0] - b[0]))
    parts.push(`${loc}:${list.join(',')}`);
  return parts.join('|');
}

/** Whether a write is an unlock of a lock its thread does not hold (its events so far: `own`). */
function unmatchedUnlock(own: readonly GEvent[], te: ThreadEvent): boolean {
  if ((te.tags & Tag.Ul) === 0) return false;
  for (let i = own.length - 1; i >= 0; i--) {
    const o = (own[i] as GEvent).te;
    if (!o || o.loc !== te.loc || o.dir !== 'W') continue;
    if (o.tags & Tag.Lkw) return false;
    if (o.tags & Tag.Ul) return true;
  }
  return true;
}

/** Whether two runs' events are at one place of the program, whatever their values. */
function sameShape(a: ThreadEvent, b: ThreadEvent): boolean {
  return (
    a.dir === b.dir &&
    a.loc === b.loc &&
    a.tags === b.tags &&
    a.width === b.width &&
    a.pc === b.pc &&
    a.rmwRead === b.rmwRead &&
    a.ctx === b.ctx
  );
}

/** What a run spent of the bounds, in all. */
function spentSum(run: RunState): number {
  const x = run.spent;
  return x.irqs + x.nmis + x.preemptions + x.migrations + x.hotplugs;
}

/** Explores every porf-acyclic graph of the program that stays coherent; `done` gets each complete one. */
export function exploreGraphs(
  setup: ExploreSetup,
  done: (g: CompleteGraph) => void,
): ExploreCounts {
  const { m, threads, initial } = setup;
  const { bounds } = threads.scheduling;
  const runners = threads.plans.map(
    (plan) =>
      new ThreadRunner(
        m,
        plan,
        threads.scheduling,
        () => [],
        { unroll: setup.unroll, maxRuns: 0 },
        { lockReads: true },
      ),
  );
  const runner = (t: number): ThreadRunner => runners[t] as ThreadRunner;
  const counts: ExploreCounts = {
    complete: 0,
    pruned: 0,
    blocked: 0,
    duplicates: 0,
    loopCut: false,
    visits: 0,
  };

  // A lock's word read or written as a variable too would break the lock's reading (graph.ts).
  const lockLocs = new Set<number>();
  const plainLocs = new Set<number>();
  const note = (te: ThreadEvent): void => {
    if (te.dir === 'F' || te.loc < 0) return;
    const lock = (te.tags & LOCK_TAGS) !== 0;
    const mine = lock ? lockLocs : plainLocs;
    if (mine.has(te.loc)) return;
    mine.add(te.loc);
    if ((lock ? plainLocs : lockLocs).has(te.loc))
      throw new ExploreFallback('a lock is also read or written as a variable');
  };

  const valueOf = (g: Graph, w: Ref, loc: number, width: number): bigint =>
    w < 0
      ? atWidth(initial(loc, width === 64 ? 64 : 32), width)
      : atWidth((eventAt(g, w) as GEvent).te?.value ?? 0n, width);

  /** The graph with one more event in thread t, and the thread's run where it then stands. */
  const append = (
    g: Graph,
    t: number,
    e: Omit<
      GEvent,
      'thread' | 'index' | 'stamp' | 'after' | 'revisitable' | 'depRevisitable' | 'blocked'
    > & {
      blocked?: boolean;
    },
    at: RunAt,
    co = g.co,
  ): Graph => {
    const s = g.slots[t] as Slot;
    if (e.te) note(e.te);
    const ev: GEvent = {
      ...e,
      blocked: e.blocked ?? false,
      thread: t,
      index: s.events.length,
      stamp: g.stamp,
      revisitable: true,
      depRevisitable: true,
      after: at,
    };
    return withSlot(g, t, { ...at, events: [...s.events, ev] }, co, g.stamp + 1);
  };

  const lastOf = (g: Graph, t: number): GEvent => {
    const evs = (g.slots[t] as Slot).events;
    return evs[evs.length - 1] as GEvent;
  };

  const active = (s: Slot): boolean =>
    s.added < s.run.events.length || s.stop === 'more' || s.stop === 'read' || s.stop === 'fork';

  const nextThread = (g: Graph): number => {
    // An RMW's (or a lock's) write right after its read: nothing comes between the two.
    for (let t = 0; t < g.slots.length; t++) {
      const s = g.slots[t] as Slot;
      const te = s.run.events[s.added];
      if (te && te.dir === 'W' && te.rmwRead >= 0) return t;
    }
    return g.slots.findIndex(active);
  };

  /** Goes on from g if it may still become a consistent execution; `newest`: its last event, or null after a revisit. */
  const visit = (g: Graph, newest: GEvent | null): void => {
    if (++counts.visits > setup.maxVisits)
      throw new AxiomaticRefusal(
        `more than ${setup.maxVisits.toLocaleString('en')} execution graphs: too many to explore`,
        'smaller',
      );
    const ok =
      withinBudget(g, bounds) &&
      (newest === null ? partiallyConsistent(g) : consistentWith(g, newest));
    if (!ok) {
      counts.pruned++;
      return;
    }
    proceed(g);
  };

  const proceed = (g: Graph): void => {
    const t = nextThread(g);
    if (t < 0) {
      finish(g);
      return;
    }
    const s = g.slots[t] as Slot;
    if (s.added < s.run.events.length) {
      const te = s.run.events[s.added] as ThreadEvent;
      const at: RunAt = { run: s.run, added: s.added + 1, stop: s.stop, forks: s.forks };
      if (te.dir === 'W' && !unmatchedUnlock(s.events, te)) {
        addWrite(g, t, s, te, at);
        return;
      }
      if (te.dir === 'R') throw new Error('explore: a read the engine chose no write for');
      // A fence, or an unlock of a lock its thread does not hold: lock.cat gives it no place
      // in co (no critical section ends at it), so no lock reads it.
      const g1 = append(
        g,
        t,
        { kind: 'F', te, runIndex: s.added, choice: 0, rf: null, addedMax: true, pause: null },
        at,
      );
      visit(g1, lastOf(g1, t));
      return;
    }
    switch (s.stop) {
      case 'more': {
        const { run, outcome } = runner(t).resume(s.run);
        const stop: Stop = Array.isArray(outcome) ? 'fork' : outcome;
        if (stop === 'cut') counts.loopCut = true;
        const forks = Array.isArray(outcome) ? outcome : null;
        proceed(withSlot(g, t, { ...s, run, stop, forks }));
        return;
      }
      case 'fork': {
        const forks = s.forks ?? [];
        // The branch that spends least of the bounds (the run going on) is the maximal one.
        let neutral = 0;
        forks.forEach((f, i) => {
          if (spentSum(f) < spentSum(forks[neutral] as RunState)) neutral = i;
        });
        forks.forEach((run, i) => {
          // A branch that would take the threads past the bounds together makes no graph.
          if (!withinBudget(g, bounds, t, run)) return;
          const g1 = append(
            g,
            t,
            {
              kind: 'C',
              te: null,
              runIndex: -1,
              choice: i,
              rf: null,
              addedMax: i === neutral,
              pause: null,
            },
            { run, added: s.added, stop: 'more', forks: null },
          );
          visit(g1, lastOf(g1, t));
        });
        return;
      }
      case 'read':
        readStep(g, t, s);
        return;
      default:
        return;
    }
  };

  /** The read event of a run blocked at a read of value v: what it reads, with nothing made of it. */
  const blockedRead = (run: RunState, v: bigint): ThreadEvent => {
    const p = runner(0).pendingRead(run) as { loc: number; width: number; tags: number };
    return {
      dir: 'R',
      loc: p.loc,
      value: v,
      tags: p.tags,
      pc: -1,
      width: p.width,
      addr: [],
      data: [],
      ctrl: [],
      rmwRead: -1,
    };
  };

  /** A read: one graph per write of its location it may read. */
  const readStep = (g: Graph, t: number, s: Slot): void => {
    const pending = runner(t).pendingRead(s.run);
    if (!pending) return;
    const { loc, width } = pending;
    const max = coMax(g, loc);
    const list = g.co.get(loc) ?? [];
    // Only the writes it may read as far as the graph decides (prune.ts): no graph is made
    // for the others.
    const from = lowerBound(g, t, s.events.length, loc, true);
    for (let k = from; k <= list.length; k++) {
      const w = k === 0 ? initRef(loc) : (list[k - 1] as Ref);
      const v = valueOf(g, w, loc, width);
      const run = runner(t).supply(s.run, v);
      if (run) {
        const te = run.events[s.added];
        if (!te) continue;
        const g1 = append(
          g,
          t,
          { kind: 'R', te, runIndex: s.added, choice: 0, rf: w, addedMax: w === max, pause: s.run },
          { run, added: s.added + 1, stop: 'more', forks: null },
        );
        visit(g1, lastOf(g1, t));
      } else if (w === max) {
        const g1 = append(
          g,
          t,
          {
            kind: 'R',
            te: blockedRead(s.run, v),
            runIndex: s.added,
            choice: 0,
            rf: w,
            addedMax: true,
            blocked: true,
            pause: s.run,
          },
          { run: s.run, added: s.added, stop: 'blocked', forks: null },
        );
        visit(g1, lastOf(g1, t));
      }
    }
  };

  /** A write: each place in co (one for an RMW's), and each backward revisit from there. */
  const addWrite = (g: Graph, t: number, s: Slot, te: ThreadEvent, at: RunAt): void => {
    const w = refOf(t, s.events.length);
    const base = { kind: 'W' as const, te, runIndex: s.added, choice: 0, rf: null, pause: null };
    const list = g.co.get(te.loc) ?? [];
    let places: number[];
    // An RMW's write where another RMW's already sits (both read one write): GenMC's pending
    // RMW, whose graph is not coherent and only revisits that other RMW's read.
    let pending = false;
    if (te.rmwRead >= 0) {
      let src: Ref = initRef(te.loc);
      for (let i = s.events.length - 1; i >= 0; i--) {
        const e = s.events[i] as GEvent;
        if (e.kind === 'R' && e.runIndex === te.rmwRead) {
          src = e.rf ?? src;
          break;
        }
      }
      const place = src < 0 ? 0 : list.indexOf(src) + 1;
      places = [place];
      pending = place < list.length && takenBy(g, list[place] as Ref);
    } else {
      // The places coherence and release-acquire chains leave it (prune.ts), co-last first,
      // and none between an RMW's write and the write its read read.
      const from = lowerBound(g, t, s.events.length, te.loc, false);
      places = [];
      for (let place = list.length; place >= Math.max(0, from - 1); place--)
        if (place === list.length || !takenBy(g, list[place] as Ref)) places.push(place);
    }
    for (const place of places) {
      const g1 = append(
        g,
        t,
        { ...base, addedMax: place === list.length },
        at,
        coWith(g, te.loc, w, place),
      );
      for (const g2 of backwardRevisits(g1, w)) visit(g2, null);
      if (!pending) visit(g1, lastOf(g1, t));
    }
  };

  /** Whether w is an RMW's write whose read read the write right before it (nothing may come between). */
  const takenBy = (g: Graph, w: Ref): boolean => {
    const e = eventAt(g, w);
    return e !== null && isRmwWrite(e);
  };

  /** The graphs a new write makes by revisiting earlier reads (TruSt §4–5). */
  function* backwardRevisits(g: Graph, w: Ref): Generator<Graph> {
    const we = eventAt(g, w) as GEvent;
    const te = we.te as ThreadEvent;
    const loc = te.loc;
    const prefix = porfPrefix(g, w);
    // A write whose RMW read shares its source with another RMW's (GenMC's pending RMW): only
    // reads added before that other RMW's write may be revisited.
    let confStamp = Infinity;
    if (isRmwWrite(we)) {
      const own = (g.slots[we.thread] as Slot).events.find(
        (e) => e.kind === 'R' && e.runIndex === te.rmwRead,
      );
      const src = own?.rf;
      for (const s of g.slots)
        for (const e of s.events)
          if (e !== own && e.kind === 'R' && e.rf === src && !e.blocked) {
            const next = s.events[e.index + 1];
            if (next && isRmwWrite(next) && next.te?.rmwRead === e.runIndex)
              confStamp = Math.min(confStamp, next.stamp);
          }
    }
    // Reads outside the prefix (TruSt), and reads of other threads inside it, which the write
    // can revisit only if their thread makes the same events again (regenerate).
    const reads: GEvent[] = [];
    for (const s of g.slots)
      for (const e of s.events)
        if (
          e.kind === 'R' &&
          e.te?.loc === loc &&
          e.addedMax &&
          e.stamp < confStamp &&
          (inView(prefix, refOf(e.thread, e.index))
            ? e.thread !== we.thread && e.depRevisitable
            : e.revisitable)
        )
          reads.push(e);
    reads.sort((a, b) => b.stamp - a.stamp);
    for (const r of reads) {
      if (!maximal(g, r, w, we, prefix)) continue;
      // A porf cycle that is a happens-before cycle is no execution (prune.ts).
      if (inView(prefix, refOf(r.thread, r.index)) && closesHb(g, r, we)) continue;
      yield* revisit(g, r, w, prefix);
    }
  }

  /** GenMC's isMaximalExtension: whether revisiting r from w deletes only maximally added events. */
  const maximal = (g: Graph, r: GEvent, w: Ref, we: GEvent, prefix: Int32Array): boolean => {
    const keep = (e: GEvent): boolean =>
      e.stamp <= r.stamp || inView(prefix, refOf(e.thread, e.index));
    const keepRef = (x: Ref): boolean => x < 0 || keep(eventAt(g, x) as GEvent);
    const loc = (we.te as { loc: number }).loc;
    if (!isRmwWrite(we)) {
      const next = coAfter(g, loc, w)[0];
      if (next !== undefined && !keepRef(next)) return false;
    }
    for (const s of g.slots)
      for (const e of s.events) {
        if (e !== r && keep(e)) {
          // What stays must read what stays. TruSt's own revisits keep this by construction;
          // one from inside a porf-prefix may not (a read revisited before by a write this
          // revisit would delete), and is not made.
          if (e.kind === 'R' && e.rf !== null && !keepRef(e.rf)) return false;
          continue;
        }
        if (!e.addedMax) return false;
        const x =
          e.kind === 'R' && e.rf !== null ? e.rf : e.kind === 'W' ? refOf(e.thread, e.index) : null;
        if (x !== null && e.te)
          for (const y of coAfter(g, e.te.loc, x)) if (y !== w && keepRef(y)) return false;
        if (e.kind === 'R' && e.rf !== null && e.rf >= 0) {
          const src = eventAt(g, e.rf) as GEvent;
          if (!keep(src) && src.stamp > e.stamp) return false;
        }
      }
    return true;
  };

  /**
   * The graphs where r reads w: what was added after r is gone, w's porf-prefix stays (one
   * graph, or none; as many as regenerate makes when r is in the prefix).
   */
  const revisit = (g: Graph, r: GEvent, w: Ref, prefix: Int32Array): Graph[] => {
    const keep = (e: GEvent): boolean =>
      e.stamp <= r.stamp || inView(prefix, refOf(e.thread, e.index));
    const loc = (r.te as { loc: number }).loc;
    const co = new Map<number, readonly Ref[]>();
    for (const [l, list] of g.co) {
      const kept = list.filter((x) => keep(eventAt(g, x) as GEvent));
      if (kept.length > 0) co.set(l, kept);
    }
    const coLast = (co.get(loc) ?? [])[(co.get(loc) ?? []).length - 1] ?? initRef(loc);
    const deps = dependencies(g, [w]);
    const slots: Slot[] = [];
    let cyclic = false;
    for (const [t, s] of g.slots.entries()) {
      let n = 0;
      while (n < s.events.length && keep(s.events[n] as GEvent)) n++;
      const events = s.events.slice(0, n).map((e) => {
        const ref = refOf(e.thread, e.index);
        const porf = inView(prefix, ref) && e.revisitable;
        const dep = deps.has(ref) && e.depRevisitable;
        return porf || dep
          ? {
              ...e,
              revisitable: e.revisitable && !porf,
              depRevisitable: e.depRevisitable && !dep,
            }
          : e;
      });
      if (t === r.thread && n > r.index + 1) {
        // r is in w's porf-prefix (a porf cycle): its thread's events up to the last one the
        // prefix holds stay, made again from r's new value (below, once the other threads'
        // kept events are known).
        cyclic = true;
        slots.push({ ...s, events });
      } else if (t === r.thread) {
        const pause = r.pause as RunState;
        const width = (r.te as { width: number }).width;
        const v = valueOf(g, w, loc, width);
        const run = runner(t).supply(pause, v);
        if (run) {
          const te = run.events[r.runIndex];
          if (!te) return [];
          const after: RunAt = { run, added: r.runIndex + 1, stop: 'more', forks: null };
          events[r.index] = {
            ...r,
            te,
            rf: w,
            addedMax: w === coLast,
            blocked: false,
            after,
          };
          slots.push({ ...after, events });
        } else {
          // The run cannot go on with w's value: blocked at r, if a later write may still
          // revisit it (w is co-last), else never complete.
          if (w !== coLast) return [];
          const after: RunAt = { run: pause, added: r.runIndex, stop: 'blocked', forks: null };
          events[r.index] = {
            ...r,
            te: blockedRead(pause, v),
            rf: w,
            addedMax: true,
            blocked: true,
            after,
          };
          slots.push({ ...after, events });
        }
      } else if (n === s.events.length) slots.push({ ...s, events });
      else {
        const last = events[n - 1];
        const at: RunAt = last
          ? last.after
          : { run: runner(t).start(), added: 0, stop: 'more', forks: null };
        slots.push({ ...at, events });
      }
    }
    const kept: Graph = { slots, co, stamp: g.stamp, cyclic: g.cyclic || cyclic };
    if (!cyclic) return [kept];
    return regenerate(kept, g, r, w).map((s) => withSlot(kept, r.thread, s));
  };

  /**
   * Thread r.thread's slots once r reads w, when r is in w's porf-prefix (a porf cycle), so the
   * thread's events after r stay (`kept`'s slot for the thread): they are made again by running
   * on from r's new value (HMC's dependency tracking, Kokologiannakis and Vafeiadis, ASPLOS
   * 2020). What the other kept events depend on (w, the thread's writes that other threads'
   * kept reads read, and all they depend on in turn) must come out the same; a read nothing
   * kept depends on may read any write of the kept graph (coherence is checked on the result),
   * and every other event must come out at its place, its value free. One slot per way; none
   * when the thread cannot make its kept events again.
   */
  const regenerate = (kept: Graph, g: Graph, r: GEvent, w: Ref): Slot[] => {
    const t = r.thread;
    const events = (kept.slots[t] as Slot).events;
    const seeds: Ref[] = [w];
    for (const [u, s] of kept.slots.entries())
      if (u !== t)
        for (const e of s.events)
          if (e.kind === 'R' && e.rf !== null && e.rf >= 0 && refThread(e.rf) === t)
            seeds.push(e.rf);
    const anchored = dependencies(g, seeds);
    const te0 = r.te as ThreadEvent;
    const run0 = runner(t).supply(r.pause as RunState, valueOf(g, w, te0.loc, te0.width));
    const first = run0?.events[r.runIndex];
    if (!run0 || !first) return [];
    const start: RunAt = { run: run0, added: r.runIndex + 1, stop: 'more', forks: null };
    const out: GEvent[] = events.slice(0, r.index);
    out.push({
      ...(events[r.index] as GEvent),
      te: first,
      rf: w,
      addedMax: w === coMax(kept, te0.loc),
      blocked: false,
      after: start,
    });
    // The value a source gives: the thread's own writes after r as they are made again.
    const valueAt = (src: Ref, te: ThreadEvent): bigint =>
      src >= 0 && refThread(src) === t && refIndex(src) > r.index
        ? atWidth((out[refIndex(src)] as GEvent).te?.value ?? 0n, te.width)
        : valueOf(kept, src, te.loc, te.width);
    // The writes a free read at index i may read, coherent with its own thread's accesses of
    // loc: not co-before what the thread wrote or read there before, and co-before what it
    // writes there after (those writes keep their places in co).
    const freeSources = (i: number, loc: number): Ref[] => {
      const list = kept.co.get(loc) ?? [];
      const rank = (x: Ref): number => (x < 0 ? 0 : list.indexOf(x) + 1);
      let lo = 0;
      let hi = list.length;
      for (let j = 0; j < events.length; j++) {
        if (j === i) continue;
        const e = (j < i ? out[j] : events[j]) as GEvent;
        if (e.kind === 'F' || e.kind === 'C' || e.te?.loc !== loc) continue;
        if (j < i) lo = Math.max(lo, rank(e.kind === 'W' ? refOf(t, j) : (e.rf ?? -1 - loc)));
        else if (e.kind === 'W') hi = Math.min(hi, rank(refOf(t, j)) - 1);
      }
      const out2: Ref[] = [];
      for (let k = lo; k <= hi; k++) out2.push(k === 0 ? initRef(loc) : (list[k - 1] as Ref));
      return out2;
    };
    const found: Slot[] = [];
    const go = (from: number, at: RunAt): void => {
      let cur = at;
      for (let i = from; i < events.length; i++) {
        const o = events[i] as GEvent;
        while (cur.added >= cur.run.events.length && cur.stop === 'more') {
          const { run, outcome } = runner(t).resume(cur.run);
          const forks = Array.isArray(outcome) ? outcome : null;
          cur = { run, added: cur.added, stop: forks ? 'fork' : (outcome as Stop), forks };
        }
        const waiting = cur.added >= cur.run.events.length;
        const fixed = anchored.has(refOf(t, i));
        if (o.kind === 'C') {
          const f = waiting && cur.stop === 'fork' ? cur.forks?.[o.choice] : undefined;
          if (!f) return;
          cur = { run: f, added: cur.added, stop: 'more', forks: null };
          out[i] = { ...o, after: cur };
        } else if (o.kind === 'R') {
          if (!waiting || cur.stop !== 'read' || o.rf === null || o.runIndex !== cur.added) return;
          const ot = o.te as ThreadEvent;
          const pause = cur.run;
          const sources: Ref[] = fixed ? [o.rf] : freeSources(i, ot.loc);
          const added = cur.added;
          for (const src of sources) {
            const run = runner(t).supply(pause, valueAt(src, ot));
            const te = run?.events[added];
            if (!run || !te || !(fixed ? sameEvent(te, ot) : sameShape(te, ot))) continue;
            const after: RunAt = { run, added: added + 1, stop: 'more', forks: null };
            out[i] = { ...o, te, rf: src, pause, addedMax: src === coMax(kept, ot.loc), after };
            go(i + 1, after);
          }
          return;
        } else {
          const te = cur.run.events[cur.added];
          const ot = o.te as ThreadEvent;
          if (waiting || !te || o.runIndex !== cur.added) return;
          if (!(fixed ? sameEvent(te, ot) : sameShape(te, ot))) return;
          cur = { ...cur, added: cur.added + 1 };
          out[i] = { ...o, te, after: cur };
        }
      }
      found.push({ ...cur, events: out.slice() });
    };
    go(r.index + 1, start);
    return found;
  };

  // Complete graphs with a porf cycle, by key: only they may be reached twice.
  const cyclicSeen = new Set<string>();

  const finish = (g: Graph): void => {
    if (g.slots.some((s) => s.stop !== 'done')) {
      counts.blocked++;
      return;
    }
    if (g.cyclic) {
      // A graph a porf cycle went into: TruSt reaches every porf-acyclic graph once without
      // one, so only a graph that still has a cycle counts, and only the first time.
      const key = cycleKey(g);
      if (key === null || cyclicSeen.has(key)) {
        counts.duplicates++;
        return;
      }
      cyclicSeen.add(key);
    }
    counts.complete++;
    const where = (x: Ref): Where => {
      if (x < 0) return [-1, -1 - x];
      const e = eventAt(g, x) as GEvent;
      return [e.thread, e.runIndex];
    };
    const rf: [Where, Where][] = [];
    for (const s of g.slots)
      for (const e of s.events)
        if (e.kind === 'R' && e.rf !== null) rf.push([where(e.rf), [e.thread, e.runIndex]]);
    const co = new Map<number, Where[]>();
    for (const [loc, list] of g.co) co.set(loc, list.map(where));
    done({ runs: g.slots.map((s, t) => runner(t).runOf(s.run)), rf, co });
  };

  const start: Graph = {
    slots: runners.map((r) => ({
      events: [],
      run: r.start(),
      added: 0,
      stop: 'more',
      forks: null,
    })),
    co: new Map(),
    stamp: 0,
    cyclic: false,
  };
  visit(start, null);
  return counts;
}
