// What Explore says about a challenge: how many end states within its bounds reach the goal, and
// the simplest schedule that does, so the UI can say "the simplest uses 1 intervention".
//
// Counts are Explore's: an outcome's `states` is the number of distinct end nodes that gave it,
// a node being a state together with the interventions used to reach it and the CPU that
// stepped last. So these count end states, not schedules (many schedules lead to one state).

import { explore, type ExploreOptions } from '../explore/explore.ts';
import { formatSchedule } from '../machine/schedule.ts';
import type { Scenario } from '../scenarios/types.ts';
import { challengeParams, goalReached } from './challenge.ts';
import { compareScores, type Score } from './score.ts';
import type { Challenge } from './types.ts';

export interface ChallengeStats {
  /** False when Explore stopped early (states or memory): the counts are then lower bounds. */
  readonly complete: boolean;
  /** End states of finished runs within the bounds. */
  readonly endStates: number;
  /** Of those, the ones that reach the goal. */
  readonly reachingEndStates: number;
  /** Distinct outcomes (observables and invariants broken) of finished runs, and reaching ones. */
  readonly outcomes: number;
  readonly reachingOutcomes: number;
  /** The simplest schedule reaching the goal (Explore's order: interventions, switches, steps). */
  readonly simplest: { readonly schedule: string; readonly score: Score } | null;
}

/** Explores the challenge's scenario within its bounds and judges every end state. */
export function challengeStats(
  sc: Scenario,
  challenge: Challenge,
  options: ExploreOptions = {},
): ChallengeStats {
  const r = explore(
    sc,
    challengeParams(sc, challenge),
    { ...challenge.bounds, switches: Infinity },
    options,
  );
  let endStates = 0;
  let reachingEndStates = 0;
  let outcomes = 0;
  let reachingOutcomes = 0;
  let simplest: { schedule: string; score: Score } | null = null;
  for (const o of r.outcomes) {
    // A stuck run (deadlock) never finished: goals are judged on finished runs only.
    if (!o.terminal) continue;
    outcomes++;
    endStates += o.states;
    if (
      !goalReached(
        challenge,
        o.observables,
        o.violations.map((v) => v.id),
      )
    )
      continue;
    reachingOutcomes++;
    reachingEndStates += o.states;
    const s: Score = {
      interventions: o.witness.interventions,
      switches: o.witness.switches,
      steps: o.witness.events.length,
    };
    if (!simplest || compareScores(s, simplest.score) < 0) {
      simplest = { schedule: formatSchedule(o.witness.events), score: s };
    }
  }
  return {
    complete: r.complete,
    endStates,
    reachingEndStates,
    outcomes,
    reachingOutcomes,
    simplest,
  };
}
