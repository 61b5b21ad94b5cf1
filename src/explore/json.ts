// An exploration's result as plain JSON-able data: observables as JSON values, witnesses as
// schedule strings. The CLI prints it (`lab explore --json`) and the explore worker returns it to
// the page, so both say the same thing the same way.

import { formatSchedule } from '../machine/schedule.ts';
import { jsonObservables } from '../scenarios/outcome.ts';
import type { ExploreResult, ReductionUse, StopReason } from './explore.ts';

export interface OutcomeJson {
  readonly observables: Record<string, unknown>;
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

export interface ExploreJson {
  readonly complete: boolean;
  /** Why an incomplete run stopped. */
  readonly stopped: StopReason | null;
  readonly stats: {
    readonly states: number;
    readonly transitions: number;
    readonly ms: number;
    readonly depth: number;
    readonly bytes: number;
  };
  readonly reductions: { readonly symmetry?: ReductionUse; readonly por?: ReductionUse };
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
