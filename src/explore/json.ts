// An exploration as plain JSON-able data: what the page asks the explore worker (ExploreRequest)
// and the result, with observables as JSON values and witnesses as schedule strings. The CLI
// prints it (`lab explore --json`) and the explore worker returns it to the page, so both say
// the same thing the same way; the Explore store holds these types without knowing the worker.

import { formatSchedule } from '../machine/schedule.ts';
import { jsonObservables, type JsonValue } from '../scenarios/outcome.ts';
import type { Budget } from '../machine/budget.ts';
import type { ScenarioRequest } from '../scenarios/index.ts';
import type { HerdAnswer } from '../lang/herdAnswer.ts';
import type { ExploreResult } from './result.ts';
import type { Bounds } from './setup.ts';

/** An exploration's bounds as JSON carries them: null, not Infinity, for no bound on switches. */
export type BoundsJson = Budget & { readonly switches: number | null };

/** The bounds the explorer takes for bounds from JSON. */
export function boundsOfJson(b: BoundsJson): Bounds {
  return { ...b, switches: b.switches ?? Infinity };
}

export interface ExploreRequest extends ScenarioRequest {
  /** Parameter overrides as text, as links and --set carry them. */
  readonly params: Readonly<Record<string, string>>;
  /** The interventions a path may make; switches null for no bound. */
  readonly bounds: BoundsJson;
  /** Stop, incomplete, after this many states (null: no limit). */
  readonly maxStates: number | null;
  /** Stop, incomplete, at this much memory (MB; the explorer's default when left out). */
  readonly maxMemoryMB?: number;
  readonly symmetry?: boolean;
  readonly por?: boolean;
  /** Workers that search together (1 when left out); more than the page can run are fewer. */
  readonly workers?: number;
}

/**
 * What a run returns: the exploration as JSON-able data (src/explore/json.ts), herd7's verdict
 * where the program has a final condition (a litmus test), and under memory tso which outcomes
 * only the store buffers reach.
 */
export type ExploreSummary = ExploreJson & {
  readonly herd: HerdAnswer | null;
  /**
   * Under memory tso: for each outcome, whether no sequentially consistent run reaches it (an
   * exploration of the same program and bounds under sc). Null under sc, or when either run
   * stopped short (a missing outcome would then prove nothing).
   */
  readonly onlyUnderTso: readonly boolean[] | null;
  /** How many workers searched: the cores where the page may share memory, else one. */
  readonly workers: number;
};

export interface OutcomeJson {
  readonly observables: Record<string, JsonValue>;
  /** Final invariants the end breaks; always-invariants broken on the way, with the event count. */
  readonly violations: readonly {
    readonly id: string;
    readonly reason: string;
    readonly step?: number;
  }[];
  readonly terminal: boolean;
  /** The simplest schedule that ends here, and its length and cost. */
  readonly witness: string;
  readonly witnessSteps: number;
  readonly interventions: number;
  readonly switches: number;
  /** How many distinct end states gave this outcome. */
  readonly states: number;
}

/** An ExploreResult as JSON: its figures as they are, its witnesses as schedule strings. */
export interface ExploreJson extends Pick<
  ExploreResult,
  'complete' | 'stopped' | 'stats' | 'reductions'
> {
  readonly outcomes: readonly OutcomeJson[];
  readonly always: readonly {
    readonly id: string;
    readonly reason: string;
    readonly witness: string;
  }[];
  readonly livelocks: readonly { readonly witness: string; readonly cycle: string }[];
}

export function exploreJson(r: ExploreResult): ExploreJson {
  return {
    complete: r.complete,
    stopped: r.stopped,
    stats: r.stats,
    reductions: r.reductions,
    outcomes: r.outcomes.map((o) => ({
      observables: jsonObservables(o.observables),
      violations: o.violations,
      terminal: o.terminal,
      witness: formatSchedule(o.witness.events),
      witnessSteps: o.witness.events.length,
      interventions: o.witness.interventions,
      switches: o.witness.switches,
      states: o.states,
    })),
    always: r.always.map((a) => ({
      id: a.id,
      reason: a.reason,
      witness: formatSchedule(a.witness.events),
    })),
    livelocks: r.livelocks.map((l) => ({
      witness: formatSchedule(l.witness.events),
      cycle: formatSchedule(l.cycle),
    })),
  };
}
