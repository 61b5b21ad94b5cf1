// The page's side of a live run, over shared memory only: start the CPUs together, change rates,
// raise events, stop, and wait for the CPUs to finish. Waiting is injected (`Waiter`): the page
// waits with Atomics.waitAsync (Atomics.wait throws on a main thread), tests may do the same.

import {
  C_EXITED,
  C_FAULT,
  C_GO,
  C_READY,
  C_STOP,
  K_INBOX,
  type LiveMemory,
  RATE_WORD,
  REQUEST_WORD,
  S_DUTY,
  S_PERIOD_US,
  S_SEED,
} from './memory.ts';

/** Resolves when words[index] is no longer `value`, or after `ms` milliseconds. */
export type Waiter = (words: Int32Array, index: number, value: number, ms: number) => Promise<void>;

export interface LiveSettings {
  /** IRQs per second on each CPU (0: none). */
  readonly irqRate: number;
  readonly nmiRate: number;
  /** Migrations per second on each CPU. */
  readonly migrationRate: number;
  /** Microseconds a summer (or reader) waits between calls. */
  readonly periodUs: number;
  /**
   * CPU hotplug events per second on each CPU that has dead callbacks (a `DEADk()`), in a
   * program with hotplug: each takes the CPU offline, or back online if it is offline.
   */
  readonly hotplugRate: number;
}

export const noInterference: LiveSettings = {
  irqRate: 0,
  nmiRate: 0,
  migrationRate: 0,
  periodUs: 0,
  hotplugRate: 0,
};

/** The most hotplug events a second a CPU takes (an offline costs a worker's wake-up). */
export const MAX_HOTPLUG_RATE = 10_000;

/**
 * The page's and the CLI's hotplug rate for a program with CPU hotplug: a hundred events a second
 * (fifty offlines), each a window a sum() may fall into, while the CPUs spend their time on the
 * program. It acts only on CPUs with dead callbacks.
 */
export const DEFAULT_HOTPLUG_RATE = 100;

/** Writes the settings; running CPUs pick them up at their next poll. */
export function applySettings(mem: LiveMemory, s: LiveSettings, seed?: number): void {
  const w = mem.words;
  const at = mem.settings;
  Atomics.store(w, at + RATE_WORD.irq, clampRate(s.irqRate));
  Atomics.store(w, at + RATE_WORD.nmi, clampRate(s.nmiRate));
  Atomics.store(w, at + RATE_WORD.migration, clampRate(s.migrationRate));
  Atomics.store(w, at + RATE_WORD.hotplug, Math.min(MAX_HOTPLUG_RATE, clampRate(s.hotplugRate)));
  Atomics.store(w, at + S_PERIOD_US, Math.max(0, Math.min(10_000_000, Math.round(s.periodUs))));
  if (seed !== undefined) Atomics.store(w, at + S_SEED, seed | 0);
}

/**
 * Lets each CPU run only `percent` of the time (yielding at points where the kernel could
 * preempt it), so a page with more CPU workers than cores keeps time to draw.
 */
export function applyDuty(mem: LiveMemory, percent: number): void {
  Atomics.store(mem.words, mem.settings + S_DUTY, Math.max(1, Math.min(100, Math.round(percent))));
}

/**
 * The share of time each of `cpus` workers may run so that, with the page's main thread, they
 * fit on `cores` cores: all of it until the workers outnumber the cores, then together they
 * take all cores but one, which is left for the page.
 */
export function dutyFor(cpus: number, cores: number): number {
  if (cpus <= cores) return 100;
  return Math.max(1, Math.floor((100 * Math.max(0.5, cores - 1)) / cpus));
}

function clampRate(r: number): number {
  return Math.max(0, Math.min(1_000_000, Math.round(r)));
}

/** Waits until every CPU is at the start barrier, then lets them all go at once. */
export async function startTogether(
  mem: LiveMemory,
  wait: Waiter,
  timeoutMs = 10_000,
): Promise<void> {
  const w = mem.words;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = Atomics.load(w, C_READY);
    if (ready >= mem.cpus) break;
    if (Atomics.load(w, C_FAULT) !== 0) throw new Error('a CPU failed before the start');
    // The page gave up on this run (a worker that never loaded, say).
    if (Atomics.load(w, C_STOP) !== 0) throw new Error('the run was stopped before it started');
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${mem.cpus} CPUs started`);
    await wait(w, C_READY, ready, 50);
  }
  Atomics.store(w, C_GO, 1);
  Atomics.notify(w, C_GO);
}

export type RaiseWhat = 'irq' | 'nmi' | 'migration';

/** Asks CPU k for one IRQ, NMI or migration of its running task (taken when the rules allow). */
export function raise(mem: LiveMemory, k: number, what: RaiseWhat): void {
  const at = mem.cpuLine(k) + REQUEST_WORD[what];
  Atomics.add(mem.words, at, 1);
  wake(mem);
}

/** Wakes idle CPUs so they look at the control words now rather than within a millisecond. */
function wake(mem: LiveMemory): void {
  for (let k = 0; k < mem.cpus; k++) Atomics.notify(mem.words, mem.cpuLine(k) + K_INBOX);
}

/** Asks every CPU to finish its current operations and stop. */
export function requestStop(mem: LiveMemory): void {
  Atomics.store(mem.words, C_STOP, 1);
  wake(mem);
}

/** How many CPUs have stopped. */
export function exited(mem: LiveMemory): number {
  return Atomics.load(mem.words, C_EXITED);
}

/** The CPU whose worker failed first, or −1. */
export function faultedCpu(mem: LiveMemory): number {
  return Atomics.load(mem.words, C_FAULT) - 1;
}

/**
 * Waits until `count` CPUs (default: every one) have stopped; false if they have not within
 * `timeoutMs`.
 */
export async function allExited(
  mem: LiveMemory,
  wait: Waiter,
  timeoutMs: number,
  count = mem.cpus,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = exited(mem);
    if (n >= count) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await wait(mem.words, C_EXITED, n, Math.min(left, 100));
  }
}
