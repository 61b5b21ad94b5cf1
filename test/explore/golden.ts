// The explorer's recorded answers (golden.json): for every catalogue entry and variant (and under
// tso where the store buffers are the lesson), what one thread's exhaustive exploration within the
// entry's bounds gives. golden.test.ts explores each case and holds it to its record; the other
// catalogue-wide tests compare their own answers (shards, an entry's text, what the defaults
// teach, TSO against SC) with the record instead of exploring the same case again.

import { readFileSync } from 'node:fs';
import type { ExploreResult } from '../../src/explore/explore.ts';
import { exploreJson } from '../../src/explore/json.ts';
import { paramsText } from '../../src/scenarios/params.ts';
import type { Params, Scenario } from '../../src/scenarios/types.ts';

export const GOLDEN_FILE = new URL('./golden.json', import.meta.url);

/** What must not change: everything but the timing and the memory figures. */
export function recordedFields(r: ExploreResult) {
  const j = exploreJson(r);
  return {
    complete: j.complete,
    stopped: j.stopped,
    states: j.stats.states,
    transitions: j.stats.transitions,
    depth: j.stats.depth,
    reductions: j.reductions,
    outcomes: j.outcomes,
    always: j.always,
    livelocks: j.livelocks,
  };
}

export type Answer = ReturnType<typeof recordedFields>;

export interface Case {
  readonly scenario: string;
  /** Every parameter, written out, so a changed default does not move the goalposts. */
  readonly params: Record<string, string>;
  readonly answer: Answer;
}

export function readGolden(): Case[] {
  return JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Case[];
}

let cached: Case[] | undefined;

/** The recorded answer for `sc` at `p`; throws when golden.json has no such case. */
export function recorded(sc: Scenario, p: Params): Answer {
  cached ??= readGolden();
  const want = JSON.stringify(paramsText(p));
  const found = cached.find((c) => c.scenario === sc.id && JSON.stringify(c.params) === want);
  if (!found) throw new Error(`golden.json has no case for ${sc.id} ${want}`);
  return found.answer;
}
