// The sentence under the Scaling chart: the one thing this machine's measurements say about why
// per-CPU counters exist, in numbers measured here.

import { liveSpecOf } from '../specs.ts';
import type { SweepResult } from './measure.ts';
import { comparable } from './views.ts';
import { count } from '../../machine/count.ts';

const SHARED_WORD = 'global-atomic';

function operation(id: string): string {
  return liveSpecOf(id)?.operation ?? id;
}

function times(r: number): string {
  return r >= 10 ? r.toFixed(0) : r.toFixed(1);
}

/**
 * "With 2 CPUs, percpu_counter_add (2.6.39) ran 7.6× the adds per second of atomic_inc on one
 * shared word." Compares the fastest algorithm with the global atomic where both were measured
 * at the largest CPU count, else the fastest with the slowest; null with fewer than two.
 */
export function headline(results: readonly SweepResult[]): string | null {
  const measured = comparable(results, true).filter((r) => r.opsPerSecond.median > 0);
  if (measured.length === 0) return null;
  const n = Math.max(...measured.map((r) => r.cpus));
  const atN = measured
    .filter((r) => r.cpus === n)
    .sort((a, b) => b.opsPerSecond.median - a.opsPerSecond.median);
  if (atN.length < 2) return null;
  const best = atN[0];
  const base = atN.find((r) => r.scenario === SHARED_WORD && r !== best) ?? atN[atN.length - 1];
  if (!best || !base) return null;
  const cpus = count(n, 'CPU');
  const ratio = best.opsPerSecond.median / base.opsPerSecond.median;
  const racy = best.exact ? '' : ' (but it lost updates)';
  return `With ${cpus}, ${operation(best.scenario)} ran ${times(ratio)}× the adds per second of ${operation(base.scenario)}${racy}.`;
}
