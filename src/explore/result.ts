// What an exploration is asked and what it answers: its options, progress, outcomes with their
// witnesses, broken invariants, livelocks and figures. The same whether one thread searched
// (explore.ts) or several (shards/); assemble.ts builds it.

import type { Violation } from '../scenarios/outcome.ts';
import type { Observables } from '../scenarios/types.ts';
import type { Caches, ReductionUse } from './setup.ts';
import type { StopReason } from './shard.ts';

/** What a search has covered: a shard's part, or the whole run's. */
export interface SearchFigures {
  readonly states: number;
  readonly transitions: number;
  /** The most steps on an expanded node's cheapest path. */
  readonly depth: number;
  /** Memory held by the visited set and the queue. */
  readonly bytes: number;
}

/** The figures and the time they took: a run's so far, or its result's. */
export interface SearchStats extends SearchFigures {
  readonly ms: number;
}

/** How far a run has got, every 4096 expanded nodes (200 ms on shards). */
export type ExploreProgress = SearchStats;

export interface ExploreOptions {
  /** Stop (incomplete) after this many nodes; no limit by default. */
  readonly maxStates?: number;
  /** Stop (incomplete) when the visited set and queue hold this many MB; 1024 by default. */
  readonly maxMemoryMB?: number;
  /**
   * Stop at the first violation. States are expanded cheapest first (fewest interventions, then
   * switches, then steps), so it is the simplest one: what iterative deepening on the bounds
   * would find, without re-exploring.
   */
  readonly simplest?: boolean;
  /** Keep one state per class of states that differ by a renaming of identical CPUs. */
  readonly symmetry?: boolean;
  /** Explore a CPU's private step alone when nothing else can interfere with it. */
  readonly por?: boolean;
  /** Called every 4096 expanded states; returning true cancels (the result is incomplete). */
  readonly progress?: (p: ExploreProgress) => boolean;
  /**
   * What one thread remembers of events by components (transitions.ts): 'on' (the default),
   * 'off' (every successor built by the interpreter, for benchmarks), or 'check' (both, and a
   * difference throws: for tests).
   */
  readonly caches?: Caches;
}

export interface Witness {
  readonly events: readonly number[];
  readonly interventions: number;
  readonly switches: number;
}

/** An invariant broken on the way to an outcome, at `step` (events applied; 0: the start). */
export interface PathViolation extends Violation {
  readonly step: number;
}

export interface Outcome {
  readonly observables: Observables;
  /** Final invariants the end state breaks, then always-invariants broken on the way. */
  readonly violations: readonly (Violation | PathViolation)[];
  /** False for a stuck state: not finished, and nothing but itself can follow (a deadlock). */
  readonly terminal: boolean;
  readonly witness: Witness;
  /** How many distinct end nodes gave this outcome. */
  states: number;
}

export interface AlwaysViolation extends Violation {
  /** The cheapest path to the first state that breaks it. */
  readonly witness: Witness;
}

export interface LivelockReport {
  /** The cheapest path to the first state of the cycle. */
  readonly witness: Witness;
  /** A fair cycle from that state back to it, in which a sum keeps running and never returns. */
  readonly cycle: readonly number[];
}

export interface ExploreResult {
  readonly complete: boolean;
  readonly stopped: StopReason | null;
  readonly stats: SearchStats;
  /** Present for the reductions that were asked for. */
  readonly reductions: { readonly symmetry?: ReductionUse; readonly por?: ReductionUse };
  readonly outcomes: readonly Outcome[];
  readonly always: readonly AlwaysViolation[];
  /** Found only in complete explorations (a cycle needs the whole graph). */
  readonly livelocks: readonly LivelockReport[];
}
