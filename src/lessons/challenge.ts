// Checking a challenge: whether a finished run meets its goal, and what a student's schedule
// comes to (invalid, over the bounds, unfinished, or finished with or without the goal).

import { budgetLimits, budgetUsed } from '../machine/budget.ts';
import { replay, ReplayError } from '../machine/replay.ts';
import { parseSchedule, ScheduleSyntaxError } from '../machine/schedule.ts';
import { ParamError, resolveParams } from '../scenarios/params.ts';
import type { Machine } from '../machine/machine.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';
import { goalMet } from './goal.ts';
import { score, type Score } from './score.ts';
import type { Challenge } from './types.ts';
import { runVerdict } from './verdict.ts';

/** Whether a finished run with these observables, breaking these invariants, meets the goal. */
export function goalReached(
  challenge: Pick<Challenge, 'goal'>,
  observables: Observables,
  broken: Iterable<string>,
): boolean {
  return goalMet(challenge.goal, observables, new Set(broken));
}

/** The challenge's full parameter set (its overrides on the scenario's defaults). */
export function challengeParams(sc: Scenario, challenge: Challenge): Params {
  return resolveParams(sc, challenge.params);
}

export type AttemptVerdict =
  /** The schedule does not parse, or an event is not possible where it comes. */
  | { readonly kind: 'invalid'; readonly reason: string; readonly index?: number }
  /** More interventions of some kind than the challenge allows. */
  | { readonly kind: 'over-bounds'; readonly reason: string; readonly score: Score }
  /** Legal so far, but tasks or handlers are still running: the goal is judged at the end. */
  | { readonly kind: 'unfinished'; readonly score: Score }
  | {
      readonly kind: 'finished';
      readonly reached: boolean;
      readonly observables: Observables;
      readonly broken: readonly string[];
      readonly score: Score;
    };

const KINDS = ['IRQs', 'NMIs', 'preemptions', 'migrations'] as const;

/** A run already taken (Step mode's timeline): its machine, events and every state. */
export interface TakenRun {
  readonly machine: Machine;
  readonly events: readonly number[];
  /** states[i] after i events; states.length is events.length + 1. */
  readonly states: readonly Int32Array[];
}

/**
 * Judges a student's schedule (text, parsed events, or a run already taken) for a challenge.
 * Never throws on bad input: a malformed or illegal schedule is an 'invalid' verdict saying
 * where and why. A taken run is judged on the states it holds, without running the machine.
 */
export function checkAttempt(
  sc: Scenario,
  challenge: Challenge,
  schedule: string | readonly number[] | TakenRun,
): AttemptVerdict {
  let p: Params;
  try {
    p = challengeParams(sc, challenge);
  } catch (e) {
    // The challenge data itself is wrong: a test holds every challenge to valid parameters.
    if (e instanceof ParamError) return { kind: 'invalid', reason: e.message };
    throw e;
  }
  let run: TakenRun;
  if (typeof schedule !== 'string' && 'states' in schedule) run = schedule;
  else {
    let events: readonly number[];
    try {
      events = typeof schedule === 'string' ? parseSchedule(schedule) : schedule;
    } catch (e) {
      if (e instanceof ScheduleSyntaxError) return { kind: 'invalid', reason: e.message };
      throw e;
    }
    const { machine } = sc.build(p);
    try {
      run = { machine, events, states: replay(machine, events).states };
    } catch (e) {
      if (e instanceof ReplayError) return { kind: 'invalid', reason: e.message, index: e.index };
      throw e;
    }
  }
  const { machine, events, states } = run;
  const s = score(machine, events, states);
  const used = budgetUsed(events);
  const limits = budgetLimits(challenge.bounds);
  const over = KINDS.filter((_, i) => (used[i] as number) > (limits[i] as number));
  if (over.length > 0) {
    const what = over
      .map((k) => {
        const i = KINDS.indexOf(k);
        return `${used[i] as number} ${k} (at most ${limits[i] as number})`;
      })
      .join(', ');
    return { kind: 'over-bounds', reason: `this challenge allows fewer: ${what}`, score: s };
  }
  const v = runVerdict(sc, machine, states, p);
  if (!v.terminal) return { kind: 'unfinished', score: s };
  return {
    kind: 'finished',
    reached: goalReached(challenge, v.observables, v.broken),
    observables: v.observables,
    broken: v.broken,
    score: s,
  };
}
