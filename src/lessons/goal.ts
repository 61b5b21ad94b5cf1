// The goal language of challenges: a small, closed set of conditions on a finished run's
// observables and broken invariants. Data, not functions, so a challenge serialises, a test can
// list what a goal names, and the UI can say it in words.

import type { Observables, Value } from '../scenarios/types.ts';

/** Bounds on an integer; every bound given must hold. */
export interface Range {
  readonly atLeast?: number;
  readonly atMost?: number;
  readonly equals?: number;
}

export type Goal =
  /** The run breaks this invariant (a final one at the end, or an always one on the way). */
  | { readonly kind: 'breaks'; readonly invariant: string }
  /** The run keeps this invariant. */
  | { readonly kind: 'keeps'; readonly invariant: string }
  /** An observable's final value lies in the range. */
  | ({ readonly kind: 'observable'; readonly name: string } & Range)
  /** `of − minus` lies in the range (e.g. exact − sum ≥ batch: the sum missed a batch). */
  | ({ readonly kind: 'difference'; readonly of: string; readonly minus: string } & Range)
  /** |a − b| lies in the range, whichever is larger. */
  | ({ readonly kind: 'gap'; readonly between: readonly [string, string] } & Range)
  | { readonly kind: 'all'; readonly goals: readonly Goal[] }
  | { readonly kind: 'any'; readonly goals: readonly Goal[] };

/**
 * An observable as an exact integer, or null when it has none: not reported, not yet known
 * (null) or a list. 64-bit values beyond 2^53 arrive as bigints, so compare in bigints.
 */
function integer(v: Value | undefined): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return null;
}

function inRange(x: bigint | null, r: Range): boolean {
  if (x === null) return false;
  if (r.atLeast !== undefined && x < BigInt(r.atLeast)) return false;
  if (r.atMost !== undefined && x > BigInt(r.atMost)) return false;
  if (r.equals !== undefined && x !== BigInt(r.equals)) return false;
  return true;
}

/** Whether a finished run with these observables, breaking these invariants, meets the goal. */
export function goalMet(goal: Goal, o: Observables, broken: ReadonlySet<string>): boolean {
  switch (goal.kind) {
    case 'breaks':
      return broken.has(goal.invariant);
    case 'keeps':
      return !broken.has(goal.invariant);
    case 'observable':
      return inRange(integer(o[goal.name]), goal);
    case 'difference': {
      const a = integer(o[goal.of]);
      const b = integer(o[goal.minus]);
      return inRange(a === null || b === null ? null : a - b, goal);
    }
    case 'gap': {
      const a = integer(o[goal.between[0]]);
      const b = integer(o[goal.between[1]]);
      if (a === null || b === null) return false;
      return inRange(a > b ? a - b : b - a, goal);
    }
    case 'all':
      return goal.goals.every((g) => goalMet(g, o, broken));
    case 'any':
      return goal.goals.some((g) => goalMet(g, o, broken));
  }
}

/** Every observable and invariant a goal names, so tests can hold it to its scenario. */
export function goalNames(goal: Goal): { observables: string[]; invariants: string[] } {
  const observables: string[] = [];
  const invariants: string[] = [];
  const walk = (g: Goal) => {
    switch (g.kind) {
      case 'breaks':
      case 'keeps':
        invariants.push(g.invariant);
        return;
      case 'observable':
        observables.push(g.name);
        return;
      case 'difference':
        observables.push(g.of, g.minus);
        return;
      case 'gap':
        observables.push(...g.between);
        return;
      case 'all':
      case 'any':
        g.goals.forEach(walk);
        return;
    }
  };
  walk(goal);
  return { observables, invariants };
}

function rangeText(r: Range): string {
  const parts: string[] = [];
  if (r.equals !== undefined) parts.push(`= ${r.equals}`);
  if (r.atLeast !== undefined) parts.push(`≥ ${r.atLeast}`);
  if (r.atMost !== undefined) parts.push(`≤ ${r.atMost}`);
  return parts.join(' and ');
}

/** The goal in words, e.g. "exact − sum ≥ 32" or "breaks no-lost-update". */
export function describeGoal(goal: Goal): string {
  switch (goal.kind) {
    case 'breaks':
      return `breaks ${goal.invariant}`;
    case 'keeps':
      return `keeps ${goal.invariant}`;
    case 'observable':
      return `${goal.name} ${rangeText(goal)}`;
    case 'difference':
      return `${goal.of} − ${goal.minus} ${rangeText(goal)}`;
    case 'gap':
      return `|${goal.between[0]} − ${goal.between[1]}| ${rangeText(goal)}`;
    case 'all':
      return goal.goals.map(describeGoal).join(', and ');
    case 'any':
      return goal.goals.map(describeGoal).join(', or ');
  }
}
