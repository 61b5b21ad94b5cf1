// How hard a live run presses on this machine's cores: more CPU workers than cores take turns,
// and extreme interference rates leave a worker little time to run between events. Such a
// worker is starved, not hung: it may go seconds without a heartbeat and still be fine. The
// watchdog waits longer for it, the page and the CLI warn before the run, and a CPU that still
// goes quiet is reported as possibly starved.

import type { LiveSettings } from './control.ts';
import { SILENCE_MS } from './watchdog.ts';

/** The longest the watchdog waits for a starved CPU (ms). */
export const MAX_SILENCE_MS = 30_000;

/** Interference events per second, over every CPU, that a core absorbs without starving. */
const EVENTS_PER_CORE = 200_000;

export interface Load {
  /** CPU workers per core (1 or less: each has a core). */
  readonly perCore: number;
  /** Interference events per second over every CPU, per core. */
  readonly eventsPerCore: number;
  /** A worker may be starved: the run asks more than the cores give. */
  readonly starved: boolean;
  /** How long the watchdog lets a CPU stay quiet before it calls it unresponsive (ms). */
  readonly silenceMs: number;
  /** The warning, for people, or null. */
  readonly warning: string | null;
}

export function loadOf(cpus: number, cores: number, s: LiveSettings): Load {
  const c = Math.max(1, cores);
  const perCore = cpus / c;
  const events = (s.irqRate + s.nmiRate + s.migrationRate) * cpus;
  const eventsPerCore = events / c;
  const crowded = perCore > 2;
  const busy = eventsPerCore > EVENTS_PER_CORE;
  const starved = crowded || busy;
  // Each worker waits its turn: the quiet it may show grows with how many share a core, and
  // again when events crowd out its own steps.
  // At most MAX_SILENCE_MS: a worker that really hung is still noticed within half a minute.
  const silenceMs = Math.round(
    Math.min(
      MAX_SILENCE_MS,
      SILENCE_MS *
        Math.max(1, perCore / 2) *
        (busy ? Math.min(8, eventsPerCore / EVENTS_PER_CORE) : 1),
    ),
  );
  const why = [
    crowded ? `${String(cpus)} CPUs on ${String(c)} cores take turns` : null,
    busy
      ? `${Math.round(events).toLocaleString('en')} interference events a second leave them little time to add`
      : null,
  ].filter((x): x is string => x !== null);
  return {
    perCore,
    eventsPerCore,
    starved,
    silenceMs,
    warning: starved
      ? `${why.join(', and ')}: a CPU may go seconds without running. That is starvation, not a hang.`
      : null,
  };
}
