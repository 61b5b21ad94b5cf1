// The exploring engine (explore.ts) as checkUnder's second way to find a program's consistent
// executions: each complete execution graph becomes the candidate the enumerating engine would
// build for the same runs, rf and co (the same skeleton, lock.cat's shape for the locks), and
// the same judge takes it. check.ts hands in what it knows of the program's state (its initial
// values, the end state an execution leaves, the loop bound), so the two engines share them.

import type { CompiledProgram } from '../lang/compiled.ts';
import { executionOf, type Skeleton, skeleton } from './candidates.ts';
import { resolve, Tokens } from './unresolved.ts';
import { Tag } from './events.ts';
import type { Execution } from './execution.ts';
import {
  type CompleteGraph,
  type ExploreCounts,
  ExploreFallback,
  exploreGraphs,
} from './explore.ts';
import type { ModelThreads } from './plans.ts';
import { Relation } from './relation.ts';

/** No unknowns: every value must be solved. */
const NO_TOKENS = new Tokens();

/** What check.ts knows of a program that the exploring engine needs. */
export interface ExploreHooks {
  readonly threads: ModelThreads;
  /** The initial value of a location read at a width. */
  readonly initial: (loc: number, width: number) => bigint;
  /** The machine state an execution ends in. */
  readonly endState: (sk: Skeleton, x: Execution) => Int32Array;
  /** How many times a loop may go round. */
  readonly unroll: number;
  /** Most graphs visited before the engine gives up. */
  readonly maxVisits: number;
}

/** One candidate the exploring engine found, as candidatesOf yields them. */
export interface ExploredCandidate {
  readonly skeleton: Skeleton;
  readonly execution: Execution;
  readonly state: Int32Array;
}

/**
 * Every candidate of the program's complete execution graphs, each handed to `judge`; the
 * engine's counts, or the reason it hands the program to the enumerating engine.
 */
export function exploreCandidates(
  p: CompiledProgram,
  hooks: ExploreHooks,
  judge: (c: ExploredCandidate) => void,
): ExploreCounts | { readonly fallback: string } {
  try {
    return exploreGraphs(
      {
        m: p.machine,
        threads: hooks.threads,
        unroll: hooks.unroll,
        initial: hooks.initial,
        maxVisits: hooks.maxVisits,
      },
      (g) => {
        const c = candidateOfGraph(p, hooks, g);
        if (c) judge(c);
      },
    );
  } catch (e) {
    if (e instanceof ExploreFallback) return { fallback: e.message };
    throw e;
  }
}

/**
 * Whether a lock read's source is lock.cat's to derive, not the candidate's: a lock's own read
 * (from the critical sections' order), and a failed trylock or spin_is_locked() inside its own
 * thread's critical section (rfi-lf). candidates.ts's `sources` leaves the same ones out.
 */
function derived(sk: Skeleton, id: number): boolean {
  const e = sk.events[id] as Skeleton['events'][number];
  if (e.tags & Tag.Lkr) return true;
  if ((e.tags & (Tag.Lf | Tag.Rl)) === 0) return false;
  let held = false;
  for (const o of sk.events) {
    if (o.thread !== e.thread || o.loc !== e.loc || o.po >= e.po) continue;
    if (o.tags & Tag.Lkw) held = true;
    else if (o.tags & Tag.Ul) held = false;
  }
  return held;
}

/**
 * The candidate a complete execution graph stands for, built as candidatesOf builds one (the
 * same skeleton, rf and co; a lock's co holds its lock writes, not its unlocks), or null when
 * candidatesOf would not have it: a lock never released placed before another in co (lock.cat's
 * co0), values that only justify themselves, an end state the filter drops.
 */
function candidateOfGraph(
  p: CompiledProgram,
  hooks: ExploreHooks,
  g: CompleteGraph,
): ExploredCandidate | null {
  const m = p.machine;
  const sk = skeleton(g.runs, hooks.initial);
  const n = sk.events.length;
  const initId = new Map<number, number>();
  const firstOf: number[] = [];
  for (const e of sk.events) {
    if (e.thread < 0) initId.set(e.loc, e.id);
    else if (e.po === 0) firstOf[e.thread] = e.id;
  }
  const id = ([t, i]: readonly [number, number]): number =>
    t < 0 ? (initId.get(i) as number) : (firstOf[t] as number) + i;
  const rf = new Relation(n);
  for (const [w, r] of g.rf) {
    const ri = id(r);
    if (!derived(sk, ri)) rf.add(id(w), ri);
  }
  const co = new Relation(n);
  for (const [loc, list] of g.co) {
    const order = [initId.get(loc) as number, ...list.map(id)].filter(
      (w) => ((sk.events[w] as { tags: number }).tags & Tag.Ul) === 0,
    );
    // lock.cat's co0: a lock write no unlock of its thread releases comes after every other.
    const unmatched = order.filter((w) => {
      const e = sk.events[w] as { tags: number; thread: number };
      return (
        (e.tags & Tag.Lkw) !== 0 &&
        !sk.events.some(
          (u) => u.loc === loc && u.tags & Tag.Ul && u.thread === e.thread && sk.po.has(w, u.id),
        )
      );
    });
    if (!unmatched.every((u) => order.indexOf(u) >= order.length - unmatched.length)) return null;
    for (let a = 0; a < order.length; a++)
      for (let b = a + 1; b < order.length; b++) co.add(order[a] as number, order[b] as number);
  }
  const x = executionOf(sk, rf, co);
  // Values solved from the program's constants (herd7 drops the rest; the exploring engine
  // takes the lab's programs, which have no symbolic unknowns: unresolved.ts).
  if (!resolve(sk, x, NO_TOKENS, () => false).kept) return null;
  const state = hooks.endState(sk, x);
  if (p.clauses.filter && !p.clauses.filter(m, state)) return null;
  return { skeleton: sk, execution: x, state };
}
