// Random schedules: at each state pick one legal event uniformly, within a budget of
// interventions (IRQs, NMIs, preemptions, migrations), until the machine is terminal.
// The caller supplies the random numbers, so runs are seeded and repeatable.

import { allowedEvents, type Budget, budgetLimits, budgetSlot } from './budget.ts';
import { apply, isTerminal } from './events.ts';
import { initialState } from './interpreter.ts';
import type { Machine } from './machine.ts';

export interface RandomRun {
  readonly events: number[];
  readonly state: Int32Array;
  readonly terminal: boolean;
}

/** Events after which a random run gives up: longer ones never end (a livelock). */
export const DEFAULT_MAX_STEPS = 100_000;

/**
 * One random run. `pick(n)` returns an integer in [0, n). Stops when terminal, when nothing is
 * enabled (a deadlock), or after `maxSteps` events (a run that never ends, e.g. a livelock).
 */
export function randomRun(
  m: Machine,
  pick: (n: number) => number,
  budget: Budget,
  maxSteps = DEFAULT_MAX_STEPS,
  onState?: (s: Int32Array) => void,
): RandomRun {
  const s = initialState(m);
  onState?.(s);
  const limits = budgetLimits(budget);
  const used = [0, 0, 0, 0];
  const all: number[] = [];
  const ok: number[] = [];
  const events: number[] = [];
  while (events.length < maxSteps && !isTerminal(m, s)) {
    allowedEvents(m, s, limits, used, ok, all);
    if (ok.length === 0) break;
    const ev = ok[pick(ok.length)] as number;
    const slot = budgetSlot(ev);
    if (slot >= 0) used[slot] = (used[slot] as number) + 1;
    apply(m, s, ev);
    onState?.(s);
    events.push(ev);
  }
  return { events, state: s, terminal: isTerminal(m, s) };
}

/**
 * A run steered by a list of choices (as property tests generate them): step i takes legal event
 * `choices[i] mod n`; once the choices are used up it goes round-robin, so a CPU spinning on a
 * lock cannot starve the holder forever and every run ends.
 */
export function choiceRun(
  m: Machine,
  choices: readonly number[],
  budget: Budget,
  maxSteps = DEFAULT_MAX_STEPS,
  onState?: (s: Int32Array) => void,
): RandomRun {
  let i = 0;
  const pick = (n: number) => {
    const c = i < choices.length ? (choices[i] as number) : i;
    i++;
    return c % n;
  };
  return randomRun(m, pick, budget, maxSteps, onState);
}
