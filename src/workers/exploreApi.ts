// What the explore worker exposes: one call that runs the explorer and returns plain JSON-able
// data (observables as JSON, witnesses as schedule strings). Node tests import it directly.

import { type Bounds, explore } from '../explore/explore.ts';
import { formatSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import { jsonObservables } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';

export interface ExploreRequest {
  readonly scenario: string;
  /** Parameter overrides as text, as links and --set carry them. */
  readonly params: Readonly<Record<string, string>>;
  readonly bounds: {
    irqs: number;
    nmis: number;
    preemptions: number;
    migrations: number;
    switches: number | null;
  };
  readonly maxStates: number;
}

export interface ExploreOutcome {
  readonly observables: Record<string, unknown>;
  readonly violations: readonly { id: string; reason: string }[];
  readonly terminal: boolean;
  readonly witness: string;
  readonly witnessSteps: number;
  readonly interventions: number;
  readonly states: number;
}

export interface ExploreSummary {
  readonly complete: boolean;
  readonly stats: { states: number; transitions: number; ms: number };
  readonly outcomes: readonly ExploreOutcome[];
  readonly always: readonly { id: string; reason: string; witness: string }[];
  readonly livelocks: readonly { witness: string; cycle: string }[];
}

export const exploreApi = {
  /** Runs one exploration; `progress` (if given) hears every 4096 states. */
  run(
    req: ExploreRequest,
    progress?: (states: number, transitions: number) => void,
  ): ExploreSummary {
    const sc = findScenario(req.scenario);
    if (!sc) throw new Error(`unknown scenario '${req.scenario}'`);
    const params = resolveParams(sc, req.params);
    const bounds: Bounds = { ...req.bounds, switches: req.bounds.switches ?? Infinity };
    const r = explore(sc, params, bounds, {
      maxStates: req.maxStates,
      progress: (states, transitions) => {
        progress?.(states, transitions);
        return false;
      },
    });
    return {
      complete: r.complete,
      stats: r.stats,
      outcomes: r.outcomes.map((o) => ({
        observables: jsonObservables(o.observables),
        violations: o.violations,
        terminal: o.terminal,
        witness: formatSchedule(o.witness.events),
        witnessSteps: o.witness.events.length,
        interventions: o.witness.interventions,
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
  },
};

export type ExploreApi = typeof exploreApi;
