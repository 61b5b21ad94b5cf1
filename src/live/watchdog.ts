// Notices a CPU worker that stopped responding mid-run: one that hangs outside the machine, or
// whose worker was terminated (by the browser, or a crash that raised no error event). Every
// live CPU stamps its statistics line with the time at each poll, many times a second, even
// while it spins on a lock or idles (cpu/stats.ts), so a stamp that stops changing is a CPU that
// stopped running.
//
// The page's own pauses must not count as the CPU's silence: a hidden tab's timers run once a
// second or less, and a frozen tab runs nothing, workers included. When two checks are further
// apart than `gapMs`, the watchdog takes it that the page itself was paused and starts watching
// afresh.

import { type LiveMemory, Stat } from './memory.ts';

/** Each CPU's last stamp (ms since its start). */
export function heartbeats(mem: LiveMemory): number[] {
  return Array.from(
    { length: mem.cpus },
    (_, k) => mem.stats[mem.statLine(k) + Stat.Time] as number,
  );
}

/** How long a CPU may show no sign of life before it counts as unresponsive (ms). */
export const SILENCE_MS = 2000;

export class Watchdog {
  private last: number[] = [];
  private since: number[] = [];
  private checked: number | null = null;

  constructor(
    /** How long a stamp may stay still before its CPU counts as unresponsive (ms). */
    private readonly silenceMs = SILENCE_MS,
    /** Checks further apart than this mean the page itself was paused (ms). */
    private readonly gapMs = 750,
  ) {}

  /**
   * The CPUs whose stamps have not moved for `silenceMs` of watched time, given `now` (ms); a
   * run that starves its workers (load.ts) passes a longer silence.
   */
  check(stamps: readonly number[], now: number, silenceMs = this.silenceMs): number[] {
    const paused = this.checked === null || now - this.checked > this.gapMs;
    this.checked = now;
    const silent: number[] = [];
    stamps.forEach((stamp, k) => {
      if (paused || stamp !== this.last[k]) {
        this.last[k] = stamp;
        this.since[k] = now;
      } else if (now - (this.since[k] ?? now) >= silenceMs) silent.push(k);
    });
    return silent;
  }
}
