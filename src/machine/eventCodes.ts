// Scheduler events as numbers (docs/machine.md): what an event is, not what it does. An event is
// a small integer: type in the low 3 bits, CPU k in the next 8, target CPU j above. Integers keep
// exploration allocation-free; `formatEvent` gives the schedule-string token.
//
// A leaf: events.ts (the rules and the effects) and hotplug.ts (which events.ts asks whether a
// CPU may go offline) both build events, so the encoding is below both. Callers import it from
// events.ts, which passes it on.

export const Ev = {
  Step: 0,
  Irq: 1,
  Nmi: 2,
  Preempt: 3,
  Migrate: 4,
  Flush: 5,
  Offline: 6,
  Online: 7,
} as const;

export type EventType = (typeof Ev)[keyof typeof Ev];

export function makeEvent(type: EventType, k: number, j = 0): number {
  return type | (k << 3) | (j << 11);
}

export function eventType(ev: number): EventType {
  return (ev & 7) as EventType;
}

export function eventCpu(ev: number): number {
  return (ev >> 3) & 0xff;
}

export function eventTarget(ev: number): number {
  return (ev >> 11) & 0xff;
}

/**
 * The schedule-string token of an event: "0", "irq1", "nmi0", "pre1", "mig0>1", "flush0", "off1",
 * "on1".
 */
export function formatEvent(ev: number): string {
  const k = eventCpu(ev);
  switch (eventType(ev)) {
    case Ev.Step:
      return String(k);
    case Ev.Irq:
      return `irq${k}`;
    case Ev.Nmi:
      return `nmi${k}`;
    case Ev.Preempt:
      return `pre${k}`;
    case Ev.Flush:
      return `flush${k}`;
    case Ev.Offline:
      return `off${k}`;
    case Ev.Online:
      return `on${k}`;
    default:
      return `mig${k}>${eventTarget(ev)}`;
  }
}

/** The kinds of event `legalOn` reports, as bits. */
export const Legal = {
  Step: 1,
  Irq: 2,
  Nmi: 4,
  Preempt: 8,
  Migrate: 16,
  Flush: 32,
  Offline: 64,
  Online: 128,
} as const;
