import { describe, expect, it } from 'vitest';
import { catalogue } from './index.ts';
import { defineScenario, variants } from './define.ts';
import { resolveParams } from './params.ts';

describe('defining an entry', () => {
  it('variants() type-checks the guarantees: a misspelt or forgotten variant does not compile', () => {
    const v = variants(['plain', 'locked'], 'plain', 'how it adds');
    expect(v.guarantees({ plain: [], locked: ['no-lost-update'] })).toEqual({
      plain: [],
      locked: ['no-lost-update'],
    });
    // @ts-expect-error: 'lockd' is not a variant
    v.guarantees({ plain: [], lockd: [] });
    // @ts-expect-error: 'locked' is missing
    v.guarantees({ plain: [] });
    expect(v.param).toMatchObject({
      name: 'variant',
      default: 'plain',
      choices: ['plain', 'locked'],
    });
  });

  it('defineScenario() fills no presets, no handlers, no guarantees and zero bounds', () => {
    const sc = defineScenario({
      ...(catalogue[0] as (typeof catalogue)[number]),
      bounds: { irqs: 2 },
    });
    expect(sc.bounds).toEqual({ irqs: 2, nmis: 0, preemptions: 0, migrations: 0 });
  });

  it('every variant of every entry has a guarantee line, and every guarantee a variant', () => {
    for (const sc of catalogue) {
      const param = sc.params.find((p) => p.name === 'variant');
      const keys = Object.keys(sc.guarantees);
      if (param?.kind === 'choice') {
        for (const k of keys) expect(param.choices, `${sc.id}: ${k}`).toContain(k);
        // Each variant builds.
        for (const c of param.choices)
          expect(() => sc.build(resolveParams(sc, { variant: c }))).not.toThrow();
      } else
        expect(
          keys.every((k) => k === '*'),
          sc.id,
        ).toBe(true);
    }
  });
});
