// A worker writes memory first and its tally a moment later (two plain writes in one step), so a
// copy of shared memory, or a sum() racing with the adds, may see an add the totals do not count
// yet. Each context has at most one such add in flight.

import { tallyOf } from '../machine/isa.ts';
import type { Machine } from '../machine/machine.ts';

/** The most that adds in flight can put in memory before the totals count them. */
export function inFlightSlack(m: Machine): number {
  let slack = 0;
  for (const code of m.code) slack += Math.max(0, ...code.map((i) => Math.abs(tallyOf(i))));
  return slack;
}
