// Random schedules: at each state pick one legal event uniformly, within a budget of
// interventions (IRQs, NMIs, preemptions, migrations), until the machine is terminal.
// The caller supplies the random numbers, so runs are seeded and repeatable.

import { enabledEvents, Ev, eventType, isTerminal, apply } from './events.ts';
import { initialState } from './interpreter.ts';
import type { Machine } from './machine.ts';

export interface Budget {
  readonly irqs: number;
  readonly nmis: number;
  readonly preemptions: number;
  readonly migrations: number;
}

/** Index of the budget an event type draws on, or −1 for steps (free). */
export function budgetSlot(ev: number): number {
  switch (eventType(ev)) {
    case Ev.Irq:
      return 0;
    case Ev.Nmi:
      return 1;
    case Ev.Preempt:
      return 2;
    case Ev.Migrate:
      return 3;
    default:
      return -1;
  }
}

export function budgetLimits(b: Budget): readonly number[] {
  return [b.irqs, b.nmis, b.preemptions, b.migrations];
}

export interface RandomRun {
  readonly events: number[];
  readonly state: Int32Array;
  readonly terminal: boolean;
}

/**
 * One random run. `pick(n)` returns an integer in [0, n). Stops when terminal, when nothing is
 * enabled (a deadlock), or after `maxSteps` events (a run that never ends, e.g. a livelock).
 */
export function randomRun(
  m: Machine,
  pick: (n: number) => number,
  budget: Budget,
  maxSteps = 100_000,
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
    const n = enabledEvents(m, s, all);
    ok.length = 0;
    for (let i = 0; i < n; i++) {
      const ev = all[i] as number;
      const slot = budgetSlot(ev);
      if (slot < 0 || (used[slot] as number) < (limits[slot] as number)) ok.push(ev);
    }
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
  maxSteps = 100_000,
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
