// What the engine judged to find a program's executions, in words, for `lab explore` and the
// page alike. No imports beyond a type: the page's main chunk takes it without the engine.

import type { AxiomaticEngine } from './check.ts';

/**
 * The candidates the enumerating engine judged, or the complete execution graphs the exploring
 * engine judged and the partial ones it dropped early (check.ts says which answers which).
 */
export function judgedWords(r: {
  readonly engine: AxiomaticEngine;
  readonly candidates: number;
  readonly pruned: number;
}): string {
  const n = (k: number, one: string) => `${k.toLocaleString('en')} ${one}${k === 1 ? '' : 's'}`;
  return r.engine === 'explore'
    ? `${n(r.candidates, 'execution graph')} explored (${n(r.pruned, 'partial graph')} dropped early)`
    : n(r.candidates, 'candidate');
}
