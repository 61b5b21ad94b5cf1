// The two answers side by side: what the explorer says of a program at its bounds (the end
// states' observables, the invariants broken, whether a state got stuck or faulted) and what a
// SPIN run of the model built with -DLAB_REPORT printed (model.ts's REPORT lines, pan's own
// error lines), in one shape, so a test can say whether they agree.

import type { ExploreResult } from '../result.ts';
import type { Value } from '../../scenarios/types.ts';
import { REPORT } from './model.ts';

export interface Verdict {
  /** Each end state's observables, as the model prints them: `nr=4 exact=4`. */
  readonly outcomes: ReadonlySet<string>;
  /** Invariants broken somewhere, by id; `fault` and `deadlock` for the machine's own. */
  readonly broken: ReadonlySet<string>;
}

function valueText(v: Value): string {
  if (v === null) return 'none';
  if (Array.isArray(v)) return `[${v.map((x) => `${String(x)},`).join('')}]`;
  return String(v);
}

/** The explorer's answer (a complete search) in the model's words. */
export function labVerdict(r: ExploreResult): Verdict {
  const outcomes = new Set<string>();
  const broken = new Set<string>();
  for (const o of r.outcomes) {
    for (const v of o.violations)
      broken.add(v.id === 'never-finishes' || v.id === 'loop-bound' ? 'deadlock' : v.id);
    if (!o.terminal) continue;
    if (o.violations.some((v) => v.id === 'fault')) continue;
    outcomes.add(
      Object.entries(o.observables)
        .map(([k, v]) => `${k}=${valueText(v)}`)
        .join(' '),
    );
  }
  for (const a of r.always) broken.add(a.id);
  return { outcomes, broken };
}

/** SPIN's answer, from pan's output (built with spin -DLAB_REPORT, cc -DPRINTF, run with -c0). */
export function spinVerdict(panOutput: string): Verdict {
  const outcomes = new Set<string>();
  const broken = new Set<string>();
  for (const line of panOutput.split('\n')) {
    if (line.startsWith(REPORT.outcome)) outcomes.add(line.slice(REPORT.outcome.length).trim());
    else if (line.startsWith(REPORT.broken)) broken.add(line.slice(REPORT.broken.length).trim());
    else if (/assertion violated/.test(line)) broken.add('fault');
    else if (/^pan:\d+:\s+invalid end state/.test(line)) broken.add('deadlock');
  }
  return { outcomes, broken };
}

/** Sorted, for messages and tables. */
export function listed(s: ReadonlySet<string>): string[] {
  return [...s].sort();
}
