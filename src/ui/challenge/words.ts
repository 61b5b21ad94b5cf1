// What the challenge panel says, as plain functions of the data (tested in Node): bounds, scores,
// a verdict on the student's schedule, Explore's counts and the distance from the simplest.
// Explore counts END STATES (distinct end states with the interventions that reached them), not
// schedules: the words say so.

import {
  type Challenge,
  type ChallengeStats,
  describeGoal,
  goalNames,
  type Score,
} from '../../lessons/index.ts';
import type { Budget } from '../../machine/budget.ts';
import { count } from '../../machine/count.ts';
import type { Value } from '../../scenarios/types.ts';
import type { ChallengeCheck } from '../../store/challengeStore.ts';

/** "a, b and c". */
function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

const KINDS: readonly [keyof Budget, string, string][] = [
  ['irqs', 'IRQ', 'IRQs'],
  ['nmis', 'NMI', 'NMIs'],
  ['preemptions', 'preemption', 'preemptions'],
  ['migrations', 'migration', 'migrations'],
  ['hotplugs', 'CPU hotplug event', 'CPU hotplug events'],
];

/** The interventions a challenge allows: "at most 1 IRQ" or "none: CPU steps only". */
export function boundsText(b: Budget): string {
  const allowed = KINDS.filter(([k]) => (b[k] ?? 0) > 0).map(([k, one, many]) =>
    count(b[k] ?? 0, one, many),
  );
  return allowed.length === 0 ? 'none: CPU steps only' : `at most ${list(allowed)}`;
}

/** The interventions a challenge allows in all. */
export function boundTotal(b: Budget): number {
  return b.irqs + b.nmis + b.preemptions + b.migrations + (b.hotplugs ?? 0);
}

/** "1 intervention, 0 switches, 8 steps". */
export function scoreText(s: Score): string {
  return `${count(s.interventions, 'intervention')}, ${count(s.switches, 'switch', 'switches')}, ${count(s.steps, 'step')}`;
}

/**
 * How far a solution is from the simplest, on the first measure where they differ (Explore's
 * order: interventions, then switches, then steps).
 */
export function distanceText(s: Score, simplest: Score): string {
  if (s.interventions !== simplest.interventions) {
    return `You used ${count(s.interventions, 'intervention')}; the simplest uses ${simplest.interventions.toLocaleString('en')}.`;
  }
  if (s.switches !== simplest.switches) {
    return `Same interventions as the simplest; you switched CPUs ${count(s.switches, 'time')}, the simplest ${count(simplest.switches, 'time')}.`;
  }
  if (s.steps !== simplest.steps) {
    return `Same interventions and switches as the simplest; you took ${count(s.steps, 'step')}, the simplest ${count(simplest.steps, 'step')}.`;
  }
  return 'As simple as the simplest solution Explore found.';
}

/** Explore's count for a 'reach' challenge, in end states. */
export function reachText(s: ChallengeStats): string {
  const early = s.complete ? '' : ' Explore stopped early, so these are at least the counts.';
  return `Explore ran every schedule within the bounds: ${count(s.reachingEndStates, 'end state')} of ${s.endStates.toLocaleString('en')} reach the goal (end states, not schedules: many schedules end in the same state).${early}`;
}

/** What the exhaustive check of an 'impossible' challenge settled, or did not. */
export function settleText(ch: Challenge, s: ChallengeStats): string {
  const goal = describeGoal(ch.goal);
  if (s.reachingEndStates > 0) {
    return `Explore found ${count(s.reachingEndStates, 'end state')} reaching the goal (${goal}): within these bounds it can be done after all.`;
  }
  if (!s.complete) {
    return `Not settled: Explore stopped early after ${count(s.endStates, 'end state')}. None of them reaches the goal (${goal}), but the rest were not checked.`;
  }
  return `Settled: Explore followed every schedule within the bounds (${boundsText(ch.bounds)}) to its end. Of ${count(s.endStates, 'end state')}, none reaches the goal (${goal}).`;
}

function valueText(v: Value | undefined): string {
  if (v === undefined || v === null) return 'unknown';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

/** The values a goal is about, at the end of a run: "exact = 4, nr = 4". */
function goalValues(
  ch: Challenge,
  observables: Readonly<Record<string, Value>>,
  broken: readonly string[],
): string {
  const { observables: names, invariants } = goalNames(ch.goal);
  const values = [...new Set(names)].map((n) => `${n} = ${valueText(observables[n])}`);
  const verdicts = [...new Set(invariants)].map(
    (i) => `${i} ${broken.includes(i) ? 'broken' : 'holds'}`,
  );
  return [...values, ...verdicts].join(', ');
}

/**
 * The verdict on the student's schedule so far, in a sentence or two. `settled`: Explore has
 * already proved an impossible challenge, so a schedule tried now is a look at why.
 */
export function checkText(ch: Challenge, c: ChallengeCheck, settled = false): string {
  if (settled && ch.mode === 'impossible') {
    if (c.kind === 'unfinished' && c.score.steps === 0)
      return 'Settled: you can still step a schedule to see for yourself why none reaches the goal.';
    if (c.kind === 'unfinished')
      return `Looking at one schedule (${count(c.score.steps, 'step')} so far): the challenge is settled, so its end will not reach the goal either.`;
    if (c.kind === 'finished' && !c.reached)
      return `Finished without reaching the goal (${goalValues(ch, c.observables, c.broken)}), as every schedule within the bounds does.`;
  }
  switch (c.kind) {
    case 'params-differ':
      return 'The stage’s parameters are no longer this challenge’s: press Restart challenge to set them back.';
    case 'invalid':
      return `This schedule cannot be judged: ${c.reason}.`;
    case 'over-bounds':
      return `Over the bound: ${c.reason}. Step back and try with fewer.`;
    case 'unfinished': {
      const total = boundTotal(ch.bounds);
      const used =
        total === 0
          ? 'no interventions allowed'
          : `${count(c.score.interventions, 'intervention')} of ${total.toLocaleString('en')} allowed`;
      return `In progress: ${count(c.score.steps, 'step')}, ${used}. The goal is judged when every CPU has finished.`;
    }
    case 'finished': {
      const at = goalValues(ch, c.observables, c.broken);
      if (c.reached && ch.mode === 'reach') return `Solved: the run ends with ${at}.`;
      if (c.reached) return `This run reaches the goal (${at}), which should not be possible.`;
      if (ch.mode === 'impossible')
        return `Finished without reaching the goal (${at}), as expected. Try another schedule, or check every schedule.`;
      return `Finished without reaching the goal: ${at}. Step back and try another order.`;
    }
  }
}
