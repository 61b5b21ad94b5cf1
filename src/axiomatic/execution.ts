// One candidate execution: its events, the relations the program fixes (program order, the
// dependencies, the RMW pairs) and the ones a candidate chooses (which write each read reads
// from, the coherence order of each location's writes).

import type { AxEvent } from './events.ts';
import { EventSet, Relation } from './relation.ts';

export interface Execution {
  readonly events: readonly AxEvent[];
  /** Program order: each thread's events in the order the thread made them. */
  readonly po: Relation;
  /** A read's value reaches the address of a later access. */
  readonly addr: Relation;
  /** A read's value reaches the value of a later write. */
  readonly data: Relation;
  /** A read's value reaches a branch that comes before a later event. */
  readonly ctrl: Relation;
  /** A read-modify-write primitive's read to its write (locks are paired by the model). */
  readonly rmw: Relation;
  /**
   * Reads-from for the reads the candidate chose a write for: ordinary reads, and the lock reads
   * (failed trylocks, spin_is_locked) whose writes the model enumerates; a lock's own read is
   * derived from `co` by the model.
   */
  readonly rf: Relation;
  /** Coherence: a strict total order of each location's writes (locks' LKW, not their UL). */
  readonly co: Relation;
}

/** Events that are the same thread's (initial writes belong to none). */
export function internal(events: readonly AxEvent[]): Relation {
  const n = events.length;
  const r = new Relation(n);
  for (const a of events)
    for (const b of events) if (a.thread >= 0 && a.thread === b.thread) r.add(a.id, b.id);
  return r;
}

/** Pairs of events at the same location. */
export function sameLocation(events: readonly AxEvent[]): Relation {
  const n = events.length;
  const r = new Relation(n);
  for (const a of events)
    if (a.loc >= 0) for (const b of events) if (b.loc === a.loc) r.add(a.id, b.id);
  return r;
}

/** The events carrying any of `tags`. */
export function tagged(events: readonly AxEvent[], tags: number): EventSet {
  const s = new EventSet(events.length);
  for (const e of events) if ((e.tags & tags) !== 0) s.add(e.id);
  return s;
}

/** The events matching a predicate. */
export function where(events: readonly AxEvent[], f: (e: AxEvent) => boolean): EventSet {
  const s = new EventSet(events.length);
  for (const e of events) if (f(e)) s.add(e.id);
  return s;
}
