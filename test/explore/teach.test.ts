// The catalogue-wide promise: for every scenario and variant, exploring with the default bounds
// shows each invariant the variant gives up broken at least once: with the default parameters,
// or else with the preset the scenario names for Explore to propose. The default exploration is
// the recorded one (golden.json, which golden.test.ts holds the explorer to); a preset's is run.

import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.ts';
import { brokenIn, unshown } from '../../src/explore/teach.ts';
import { catalogue } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';
import type { Scenario } from '../../src/scenarios/types.ts';
import { recorded } from './golden.ts';

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
    const first = unshown(sc, p, brokenIn(recorded(sc, p)));
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
