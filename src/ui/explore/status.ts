// The Explore panel's status line, in words: how a run ended, its size and speed, the reductions
// used. Pure, so its wording is tested without a page.

import type { ExploreJson } from '../../explore/json.ts';
import { count } from '../../machine/count.ts';

export const MB = 1024 * 1024;

/**
 * The status line: how the run ended, its size and speed, the model its outcomes are under (every
 * answer names its model), and the reductions used.
 */
export function statusOf(
  r: ExploreJson & { readonly workers: number },
  memoryMB: number,
  model: 'sc' | 'tso',
): string {
  const { states, transitions, ms, depth } = r.stats;
  const rate = Math.round((states / Math.max(1, ms)) * 1000);
  const covered = `covered ${count(states, 'state')} to depth ${depth}`;
  const head =
    r.stopped === null
      ? 'Done'
      : r.stopped === 'max-memory'
        ? `Incomplete: stopped at the memory limit of ${memoryMB} MB (${covered}); raise the limit or add a reduction`
        : r.stopped === 'simplest'
          ? 'Stopped at the simplest violation'
          : r.stopped === 'loop-bound'
            ? 'Incomplete: a loop reached its bound on some paths (raise #pragma lab loop_bound in the program)'
            : `Incomplete: ${r.stopped === 'cancelled' ? 'cancelled' : 'stopped at the state limit'} (${covered})`;
  const reductions = Object.entries(r.reductions)
    .map(([name, use]) => `${name} ${use.on ? 'on' : `off: ${use.why ?? ''}`}`)
    .join('; ');
  const workers = r.workers > 1 ? `, ${String(r.workers)} workers` : '';
  return `${head}: ${count(states, 'state')}, ${count(transitions, 'transition')} in ${ms} ms (${rate.toLocaleString('en')} states/s, ${Math.round(r.stats.bytes / MB)} MB${workers}), ${count(r.outcomes.length, 'outcome')} under ${model}${reductions ? `. Reductions: ${reductions}` : ''}`;
}
