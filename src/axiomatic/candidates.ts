// Candidate executions: one run of each thread, the initial writes, and a choice of the write
// each read reads from (`rf`, same location and value) and of each location's coherence order
// (`co`, the initial write first). Choices are made location by location and a location's
// choices are kept only if they are coherent on their own (po-loc | rf | co | fr acyclic, and no
// write between an RMW's read and its write), as herd7's cos-opt prunes before the model runs.

import { Tag, type AxEvent } from './events.ts';
import type { Execution } from './execution.ts';
import { Relation } from './relation.ts';
import { atWidth, isLockEvent, type ThreadEvent, type ThreadRun } from './threads.ts';

/** The fixed part of a candidate: the events of one combination of thread runs. */
export interface Skeleton {
  readonly events: readonly AxEvent[];
  /** The run each thread took. */
  readonly runs: readonly ThreadRun[];
  /** The thread events of each event (undefined for an initial write). */
  readonly origin: readonly (ThreadEvent | undefined)[];
  readonly po: Relation;
  readonly addr: Relation;
  readonly data: Relation;
  readonly ctrl: Relation;
  readonly rmw: Relation;
}

/** Builds the events and fixed relations of a combination of runs. */
export function skeleton(
  runs: readonly ThreadRun[],
  initial: (loc: number, width: number) => bigint,
): Skeleton {
  // Initial writes for every location an event touches, at the widest width it is accessed.
  const widths = new Map<number, number>();
  for (const r of runs)
    for (const e of r.events)
      if (e.loc >= 0) widths.set(e.loc, Math.max(widths.get(e.loc) ?? 0, e.width || 32));
  const events: AxEvent[] = [];
  const origin: (ThreadEvent | undefined)[] = [];
  for (const [loc, width] of [...widths].sort((a, b) => a[0] - b[0])) {
    events.push({
      id: events.length,
      thread: -1,
      po: -1,
      dir: 'W',
      loc,
      value: initial(loc, width),
      tags: Tag.Init,
      pc: -1,
    });
    origin.push(undefined);
  }
  const firstOf: number[] = [];
  runs.forEach((r, t) => {
    firstOf.push(events.length);
    r.events.forEach((e, i) => {
      events.push({
        id: events.length,
        thread: t,
        po: i,
        dir: e.dir,
        loc: e.loc,
        value: e.value,
        tags: e.tags,
        pc: e.pc,
      });
      origin.push(e);
    });
  });
  const n = events.length;
  const po = new Relation(n);
  const addr = new Relation(n);
  const data = new Relation(n);
  const ctrl = new Relation(n);
  const rmw = new Relation(n);
  runs.forEach((r, t) => {
    const base = firstOf[t] as number;
    r.events.forEach((e, i) => {
      const id = base + i;
      for (let j = 0; j < i; j++) po.add(base + j, id);
      for (const d of e.addr) addr.add(base + d, id);
      for (const d of e.data) data.add(base + d, id);
      for (const d of e.ctrl) ctrl.add(base + d, id);
      if (e.rmwRead >= 0 && (e.tags & Tag.Lkw) === 0) rmw.add(base + e.rmwRead, id);
    });
  });
  return { events, runs, origin, po, addr, data, ctrl, rmw };
}

/** One location's share of a candidate: its reads' sources and its writes' order. */
interface LocationChoice {
  readonly rf: readonly (readonly [number, number])[];
  /** The location's writes in coherence order, the initial write first. */
  readonly order: readonly number[];
}

const isInit = (e: AxEvent) => (e.tags & Tag.Init) !== 0;

/** The writes a read may read from, or null when the model derives its source (a lock's read). */
function sources(sk: Skeleton, r: AxEvent): number[] | null {
  const { events, po } = sk;
  const sameLoc = events.filter((w) => w.loc === r.loc && w.dir === 'W');
  const other = (w: AxEvent) => isInit(w) || w.thread !== r.thread;
  if (r.tags & Tag.Lkr) return null;
  if (r.tags & (Tag.Lf | Tag.Rl)) {
    // Inside its own critical section a failed trylock or spin_is_locked reads its own lock.
    const own = sameLoc.filter(
      (w) => w.tags & Tag.Lkw && w.thread === r.thread && po.has(w.id, r.id),
    );
    const lastOwn = own[own.length - 1];
    if (lastOwn) {
      const released = sameLoc.some(
        (u) =>
          u.tags & Tag.Ul &&
          u.thread === r.thread &&
          po.has(lastOwn.id, u.id) &&
          po.has(u.id, r.id),
      );
      if (!released) return null;
    }
    return sameLoc.filter((w) => w.tags & Tag.Lkw && other(w)).map((w) => w.id);
  }
  if (r.tags & Tag.Ru) {
    const ownUl = sameLoc.filter(
      (w) => w.tags & Tag.Ul && w.thread === r.thread && po.has(w.id, r.id),
    );
    const last = ownUl[ownUl.length - 1];
    return [
      ...(last ? [last.id] : []),
      ...sameLoc.filter((w) => (w.tags & Tag.Ul || isInit(w)) && other(w)).map((w) => w.id),
    ];
  }
  const width = (sk.origin[r.id] as ThreadEvent).width;
  return sameLoc
    .filter(
      (w) =>
        !isLockEvent(w.tags) &&
        atWidth(w.value, width) === r.value &&
        w.id !== r.id &&
        !(w.thread === r.thread && po.has(r.id, w.id)),
    )
    .map((w) => w.id);
}

/** Every ordering of `items` with `first` in front. */
function orders(first: number | undefined, items: readonly number[]): number[][] {
  const out: number[][] = [];
  const rest = items.slice();
  const go = (prefix: number[], left: number[]) => {
    if (left.length === 0) {
      out.push(prefix);
      return;
    }
    for (let i = 0; i < left.length; i++)
      go([...prefix, left[i] as number], [...left.slice(0, i), ...left.slice(i + 1)]);
  };
  go(first === undefined ? [] : [first], rest);
  return out;
}

/** Each read's possible sources, by location; null when a read has none (no candidate at all). */
function locationChoices(sk: Skeleton): LocationChoice[][] | null {
  const { events, po } = sk;
  const locs = [...new Set(events.filter((e) => e.loc >= 0).map((e) => e.loc))].sort(
    (a, b) => a - b,
  );
  const perLoc: LocationChoice[][] = [];
  for (const loc of locs) {
    const here = events.filter((e) => e.loc === loc);
    const reads = here.filter((e) => e.dir === 'R');
    const writes = here.filter((e) => e.dir === 'W' && !isInit(e) && (e.tags & Tag.Ul) === 0);
    const init = here.find(isInit);
    const lockLoc = here.some((e) => isLockEvent(e.tags));
    const readSources: { r: number; from: number[] }[] = [];
    for (const r of reads) {
      const from = sources(sk, r);
      if (from === null) continue;
      if (from.length === 0) return null;
      readSources.push({ r: r.id, from });
    }
    // Writes a lock never releases come last (lock.cat's co0 for unmatched lock writes).
    const unmatched = lockLoc
      ? writes.filter(
          (w) =>
            w.tags & Tag.Lkw &&
            !here.some((u) => u.tags & Tag.Ul && u.thread === w.thread && po.has(w.id, u.id)),
        )
      : [];
    const coOrders = orders(
      init?.id,
      writes.map((w) => w.id),
    ).filter((o) => unmatched.every((u) => o.indexOf(u.id) >= o.length - unmatched.length));
    const choices: LocationChoice[] = [];
    const pick = (i: number, rf: [number, number][]) => {
      if (i === readSources.length) {
        for (const order of coOrders)
          if (lockLoc || coherentAt(sk, rf, order)) choices.push({ rf: rf.slice(), order });
        return;
      }
      const { r, from } = readSources[i] as { r: number; from: number[] };
      for (const w of from) {
        rf.push([w, r]);
        pick(i + 1, rf);
        rf.pop();
      }
    };
    pick(0, []);
    if (choices.length === 0) return null;
    perLoc.push(choices);
  }
  return perLoc;
}

/**
 * Whether one location's choice is coherent: po-loc, rf, co and fr (the location's events only)
 * form no cycle, and no other write comes between an RMW's read and its write in co.
 */
function coherentAt(
  sk: Skeleton,
  rf: readonly (readonly [number, number])[],
  order: readonly number[],
): boolean {
  const rank = new Map<number, number>();
  order.forEach((w, i) => rank.set(w, i));
  const src = new Map<number, number>();
  for (const [w, r] of rf) src.set(r, w);
  // Coherence per location, in herd7's four shapes: write-write, read-write, write-read,
  // read-read (each a po-loc pair contradicted by co, rf and fr).
  const evs = [...rank.keys(), ...src.keys()];
  const rk = (e: number): number | undefined => rank.get(e);
  for (const a of evs)
    for (const b of evs) {
      if (a === b || !sk.po.has(a, b)) continue;
      const ea = sk.events[a] as AxEvent;
      const eb = sk.events[b] as AxEvent;
      if (ea.dir === 'W' && eb.dir === 'W') {
        if ((rk(a) as number) > (rk(b) as number)) return false;
      } else if (ea.dir === 'R' && eb.dir === 'W') {
        // a reads from w; b must be co-after w.
        const w = src.get(a);
        if (w !== undefined && (rk(w) as number) >= (rk(b) as number)) return false;
      } else if (ea.dir === 'W' && eb.dir === 'R') {
        const w = src.get(b);
        if (w !== undefined && (rk(w) as number) < (rk(a) as number)) return false;
      } else {
        const wa = src.get(a);
        const wb = src.get(b);
        if (wa !== undefined && wb !== undefined && (rk(wa) as number) > (rk(wb) as number))
          return false;
      }
    }
  // Atomicity: the write an RMW's read reads from is right before the RMW's write.
  for (const [w, r] of rf) {
    for (const x of sk.rmw.successors(r)) {
      const rw = rank.get(w);
      const rx = rank.get(x);
      if (rw !== undefined && rx !== undefined && rx !== rw + 1) return false;
    }
  }
  return true;
}

/** Every candidate execution of a skeleton, coherent location by location. */
export function* candidates(sk: Skeleton): Generator<Execution> {
  const found = locationChoices(sk);
  if (found === null) return;
  const perLoc: LocationChoice[][] = found;
  const n = sk.events.length;
  const picked: LocationChoice[] = [];
  function* go(i: number): Generator<Execution> {
    if (i === perLoc.length) {
      const rf = new Relation(n);
      const co = new Relation(n);
      for (const c of picked) {
        for (const [w, r] of c.rf) rf.add(w, r);
        for (let a = 0; a < c.order.length; a++)
          for (let b = a + 1; b < c.order.length; b++)
            co.add(c.order[a] as number, c.order[b] as number);
      }
      yield executionOf(sk, rf, co);
      return;
    }
    for (const c of perLoc[i] as LocationChoice[]) {
      picked.push(c);
      yield* go(i + 1);
      picked.pop();
    }
  }
  yield* go(0);
}

/** The execution of a skeleton with its reads-from and coherence order chosen. */
export function executionOf(sk: Skeleton, rf: Relation, co: Relation): Execution {
  const { events, po, addr, data, ctrl, rmw } = sk;
  return { events, po, addr, data, ctrl, rmw, rf, co };
}
