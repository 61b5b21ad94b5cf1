// Before exploring: the preset Explore proposes where a variant's defaults cannot show what it
// gives up. The catalogue-wide promise (every variant's default exploration, or its preset, shows
// each invariant it gives up broken) is test/explore/teach.test.ts, against the recorded answers.

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { programScenario } from '../scenarios/program.ts';
import { explore } from './explore.ts';
import { exploreJson } from './json.ts';
import { brokenIn, presetToExplore, unshown } from './teach.ts';

describe('before exploring', () => {
  const find = (id: string) => catalogue.find((s) => s.id === id) as Scenario;

  it('names the preset where the defaults are known to be too small, until it is applied', () => {
    const sc = find('percpu-atomic64');
    expect(presetToExplore(sc, resolveParams(sc, {}))?.name).toBe('five-adds');
    expect(presetToExplore(sc, resolveParams(sc, {}, 'five-adds'))).toBeNull();
  });

  it('names none where the defaults show what the variant gives up', () => {
    const sc = find('percpu-classic');
    expect(presetToExplore(sc, resolveParams(sc, {}))).toBeNull();
  });
});

describe('after exploring', () => {
  it('says a typed program gives up nothing: an invariant it declares is what it asks', () => {
    // A new user's pcpu2.c: a per-CPU counter whose sum is judged, and holds.
    const r = programScenario(`DEFINE_PER_CPU(int, hits);
void hit(void) { this_cpu_add(hits, 1); }
int total(void) { int cpu; int s = 0; for_each_online_cpu(cpu) s += per_cpu(hits, cpu); return s; }
P0() { hit(); }
P1() { int r = total(); }
counter { deltas hits; add hit; sum total; }
invariant always sum-within-window;
`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const sc = r.scenario;
    const params = resolveParams(sc, {});
    const answer = explore(sc, params, { ...sc.bounds, switches: Infinity });
    expect(answer.complete).toBe(true);
    expect(brokenIn(exploreJson(answer))).toEqual([]);
    expect(unshown(sc, params, brokenIn(exploreJson(answer)))).toEqual({ invariants: [] });
  });
});
