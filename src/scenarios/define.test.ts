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

  it('a witness left without `violates` violates nothing; a variant witness names its variant first', () => {
    const v = variants(['plain', 'locked'], 'plain', 'how it adds');
    const sc = defineScenario({
      ...(catalogue[0] as (typeof catalogue)[number]),
      witnesses: [
        v.witness('locked', {
          name: 'w',
          description: 'd',
          params: { cpus: 2 },
          schedule: '0 1',
          expect: {},
        }),
      ],
    });
    expect(sc.witnesses).toEqual([
      {
        name: 'w',
        description: 'd',
        params: { variant: 'locked', cpus: 2 },
        schedule: '0 1',
        expect: {},
        violates: [],
      },
    ]);
    expect(Object.keys(sc.witnesses[0]?.params ?? {})).toEqual(['variant', 'cpus']);
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
