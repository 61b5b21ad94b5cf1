// Budgets of interventions: how many IRQs, NMIs, preemptions, migrations and CPU hotplug events
// (offline and online) a schedule may make.
// Steps are free. Random runs, Step mode's Play and Explore's bounds all count the same way.

import { enabledEvents, Ev, eventType } from './events.ts';
import type { Machine } from './machine.ts';

export interface Budget {
  readonly irqs: number;
  readonly nmis: number;
  readonly preemptions: number;
  readonly migrations: number;
  /** CPU hotplug events (offline k, online k); absent: none. */
  readonly hotplugs?: number;
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
    case Ev.Offline:
    case Ev.Online:
      return 4;
    default:
      return -1;
  }
}

/** The budget as limits by slot. */
export function budgetLimits(b: Budget): readonly number[] {
  return [b.irqs, b.nmis, b.preemptions, b.migrations, b.hotplugs ?? 0];
}

/** What a list of events has used of each slot. */
export function budgetUsed(events: Iterable<number>): number[] {
  const used = [0, 0, 0, 0, 0];
  for (const ev of events) {
    const slot = budgetSlot(ev);
    if (slot >= 0) used[slot] = (used[slot] as number) + 1;
  }
  return used;
}

/**
 * The legal events of state s that the budget still allows, written into `out` (its old content
 * is dropped); `scratch` is reused for the legal ones. Returns `out`.
 */
export function allowedEvents(
  m: Machine,
  s: Int32Array,
  limits: readonly number[],
  used: readonly number[],
  out: number[],
  scratch: number[] = [],
): number[] {
  const n = enabledEvents(m, s, scratch);
  out.length = 0;
  for (let i = 0; i < n; i++) {
    const ev = scratch[i] as number;
    const slot = budgetSlot(ev);
    if (slot < 0 || (used[slot] as number) < (limits[slot] as number)) out.push(ev);
  }
  return out;
}
