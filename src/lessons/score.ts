// Scoring a schedule the way Explore ranks its witnesses: fewest interventions, then fewest
// switches, then fewest steps. Using Explore's own order means the simplest solution it reports
// is never beaten by a student's, so "you used 3 interventions; the simplest uses 1" is true.

import { budgetSlot } from '../machine/budget.ts';
import { apply, eventCpu, eventType, Ev, Legal, legalOn } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';

export interface Score {
  /** IRQs, NMIs, preemptions and migrations raised. */
  readonly interventions: number;
  /**
   * Steps on a CPU other than the previous step's while that CPU could still have stepped
   * (Explore's switch, CHESS's preemption bound): how much the schedule interleaves.
   */
  readonly switches: number;
  /** Every event, interventions included (the length of the schedule). */
  readonly steps: number;
}

/**
 * The score of a legal schedule of machine m (events as parseSchedule returns them). With the
 * run's `states` (states[i] before events[i]) it reads them instead of running the machine.
 */
export function score(
  m: Machine,
  events: readonly number[],
  states?: readonly Int32Array[],
): Score {
  const s = states ? null : initialState(m);
  let interventions = 0;
  let switches = 0;
  let last = -1;
  events.forEach((ev, i) => {
    const before = s ?? (states?.[i] as Int32Array);
    if (budgetSlot(ev) >= 0) interventions++;
    if (eventType(ev) === Ev.Step) {
      const k = eventCpu(ev);
      if (last >= 0 && k !== last && (legalOn(m, before, last) & Legal.Step) !== 0) switches++;
      last = k;
    }
    if (s) apply(m, s, ev);
  });
  return { interventions, switches, steps: events.length };
}

/** Negative when a is the simpler schedule, positive when b is, 0 when they tie. */
export function compareScores(a: Score, b: Score): number {
  return a.interventions - b.interventions || a.switches - b.switches || a.steps - b.steps;
}

/** How far a score is from the simplest (each difference ≥ 0 when `simplest` really is). */
export interface Distance {
  readonly interventions: number;
  readonly switches: number;
  readonly steps: number;
  /** As simple as the simplest: nothing to improve. */
  readonly best: boolean;
}

export function distanceFrom(s: Score, simplest: Score): Distance {
  return {
    interventions: s.interventions - simplest.interventions,
    switches: s.switches - simplest.switches,
    steps: s.steps - simplest.steps,
    best: compareScores(s, simplest) <= 0,
  };
}
