import { describe, expect, it } from 'vitest';
import type { ExploreJson } from '../../explore/json.ts';
import { herdCountsHint, statusOf } from './status.ts';

/** A finished run's answer with `outcomes` outcomes and the figures given. */
function answer(states: number, transitions: number, outcomes: number): ExploreJson {
  return {
    stopped: null,
    stats: { states, transitions, ms: 3, depth: 1, bytes: 0 },
    reductions: {},
    outcomes: Array.from({ length: outcomes }, () => ({})),
  } as unknown as ExploreJson;
}

describe("the Explore panel's status line", () => {
  it('says "1 outcome" and "1 state", and plurals from 2 on', () => {
    expect(statusOf({ ...answer(1, 1, 1), workers: 1 }, 512, 'sc')).toBe(
      'Done: 1 state, 1 transition in 3 ms (333 states/s, 0 MB), 1 outcome under sc',
    );
    expect(statusOf({ ...answer(1057, 1488, 6), workers: 2 }, 512, 'tso')).toBe(
      'Done: 1,057 states, 1,488 transitions in 3 ms (352,333 states/s, 0 MB, 2 workers), 6 outcomes under tso',
    );
  });
});

describe("the herd7 block's word for what it counts", () => {
  it('says outcomes, each once, where it cannot count executions: the list counts end states', () => {
    expect(herdCountsHint('sc', 'states')).toBe(
      'As herd7 prints it, under sequentially consistent memory (memory sc). Positive and Negative count outcomes here, each once, where herd7 counts executions (the list below gives the end states that reach each outcome).',
    );
    expect(herdCountsHint('tso', 'executions')).toBe(
      'As herd7 prints it, under x86-TSO (memory tso). Positive and Negative count executions, as herd7’s do.',
    );
  });
});
