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

/**
 * What the herd7 block under sc or tso says it counts. "End states" in the panel are the
 * explorer's (the list counts how many reach each outcome); the block, where it cannot count
 * executions, counts outcomes, each once, and says so in those words.
 */
export function herdCountsHint(memory: 'sc' | 'tso', counts: 'executions' | 'states'): string {
  const model =
    memory === 'tso' ? 'x86-TSO (memory tso)' : 'sequentially consistent memory (memory sc)';
  const what =
    counts === 'executions'
      ? 'Positive and Negative count executions, as herd7’s do.'
      : 'Positive and Negative count outcomes here, each once, where herd7 counts executions (the list below gives the end states that reach each outcome).';
  return `As herd7 prints it, under ${model}. ${what}`;
}
