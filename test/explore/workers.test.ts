// The answer must not depend on how many workers explore: every catalogue entry and variant of
// the recorded answers (golden.json), explored by two shards on worker threads, gives the answer
// one thread gives: the same outcomes, witnesses, outcome counts, state and transition counts,
// depth and reductions. One thread's answer is the record, which golden.test.ts holds one
// thread's exploration to, so the catalogue is not explored on one thread a second time here.
// Also with symmetry, a state limit, a simplest run and a typed program, on one thread and two.

import { afterAll, describe, expect, it } from 'vitest';
import { startShards } from '../../src/cli/explore/shards.ts';
import { type Bounds, explore, type ExploreOptions } from '../../src/explore/explore.ts';
import { exploreJson } from '../../src/explore/json.ts';
import { exploreOnShards } from '../../src/explore/shards/coordinator.ts';
import { FIRST_PROGRAM } from '../../src/scenarios/examples.ts';
import { findScenario, openProgram } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';
import type { Scenario } from '../../src/scenarios/types.ts';
import { readGolden, recordedFields } from './golden.ts';

const golden = readGolden();

const pool = startShards(2);
afterAll(() => {
  pool.close();
});

/** Everything but the time and the memory, which the number of workers may change. */
function answer(r: ReturnType<typeof explore>) {
  const j = exploreJson(r);
  const { ms: _ms, bytes: _bytes, ...stats } = j.stats;
  return { ...j, stats };
}

/** The exploration of `sc` at `params` within its bounds by two shards. */
function onShards(sc: Scenario, params: Record<string, string>, options: ExploreOptions = {}) {
  const p = resolveParams(sc, params);
  const bounds: Bounds = { ...sc.bounds, switches: Infinity };
  return exploreOnShards(sc, p, bounds, options, 2, pool.platform);
}

async function both(sc: Scenario, params: Record<string, string>, options: ExploreOptions = {}) {
  const one = explore(sc, resolveParams(sc, params), { ...sc.bounds, switches: Infinity }, options);
  return { one: answer(one), two: answer(await onShards(sc, params, options)) };
}

describe('one thread or two shards: the same answer', () => {
  it.each(golden.map((g) => ({ ...g, name: `${g.scenario} ${JSON.stringify(g.params)}` })))(
    '$name',
    async ({ scenario, params, answer: one }) => {
      const sc = findScenario(scenario);
      if (!sc) throw new Error(`unknown scenario ${scenario}`);
      expect(recordedFields(await onShards(sc, params))).toEqual(one);
    },
  );

  it('with symmetry, a state limit, and a simplest run', async () => {
    const plain = findScenario('global-plain') as Scenario;
    const params = { cpus: '3', iterations: '3' };
    const sym = await both(plain, params, { symmetry: true });
    expect(sym.one.reductions.symmetry?.on).toBe(true);
    expect(sym.two).toEqual(sym.one);
    const capped = await both(plain, params, { maxStates: 500 });
    expect([capped.one.complete, capped.one.stopped]).toEqual([false, 'max-states']);
    expect(capped.two).toEqual(capped.one);
    const simplest = await both(plain, params, { simplest: true });
    expect(simplest.one.stopped).toBe('simplest');
    expect(simplest.two).toEqual(simplest.one);
  });

  it('for a typed program, which the workers open from its text', async () => {
    const opened = openProgram(FIRST_PROGRAM);
    if (!opened.ok) throw new Error('the program does not compile');
    const { one, two } = await both(opened.scenario, {});
    // The lost update and the two clean ends.
    expect(one.outcomes.length).toBeGreaterThan(1);
    expect(two).toEqual(one);
  });
});
