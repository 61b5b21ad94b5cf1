// Before exploring: the preset Explore proposes where a variant's defaults cannot show what it
// gives up. The catalogue-wide promise (every variant's default exploration, or its preset, shows
// each invariant it gives up broken) is test/explore/teach.test.ts, against the recorded answers.

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { presetToExplore } from './teach.ts';

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
