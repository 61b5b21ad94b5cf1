// The catalogue-wide promise: for every scenario and variant, exploring with the default bounds
// shows each invariant the variant gives up broken at least once: with the default parameters,
// or else with the preset the scenario names for Explore to propose.

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { explore } from './explore.ts';
import { brokenIn, presetToExplore, unshown } from './teach.ts';

const cases: [string, Scenario, Record<string, string>][] = catalogue.flatMap((sc) => {
  const variant = sc.params.find((p) => p.name === 'variant');
  const names = variant?.kind === 'choice' ? variant.choices : [undefined];
  return names.map((v): [string, Scenario, Record<string, string>] => [
    `${sc.id}${v === undefined ? '' : ` ${v}`}`,
    sc,
    v === undefined ? {} : { variant: v },
  ]);
});

describe('the default exploration shows what each variant gives up', () => {
  it.each(cases)('%s', (_, sc, set) => {
    const bounds = { ...sc.bounds, switches: Infinity };
    const p = resolveParams(sc, set);
    const first = unshown(sc, p, brokenIn(explore(sc, p, bounds)));
    if (first.invariants.length === 0) return;
    // The defaults fall short: a preset must be proposed, and it must show the rest.
    expect(
      first.preset,
      `${sc.id} needs an explore preset for ${first.invariants.join(', ')}`,
    ).toBeDefined();
    const q = resolveParams(sc, set, first.preset?.name);
    const second = brokenIn(explore(sc, q, bounds));
    expect(first.invariants.filter((id) => !second.includes(id))).toEqual([]);
  });
});

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
