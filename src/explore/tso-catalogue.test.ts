// Every scenario of the catalogue explored under both memory models, within its default bounds:
// which outcome sets x86-TSO's store buffers change. Only percpu-rwsem's variants without a full
// barrier gain an outcome (both inside); every other entry keeps exactly its sequentially
// consistent outcomes, because its races are interleavings, its folds run under locks or LOCKed
// operations, and x86 keeps each CPU's stores and loads in order. Each entry's listing says so.

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { outcomeKey } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';
import { explore } from './explore.ts';

/** Outcomes that only x86-TSO reaches, by scenario and variant. */
const ONLY_UNDER_TSO: Readonly<Record<string, readonly string[]>> = {
  'percpu-rwsem reader-no-mb': ['{"reader_in":1,"writer_in":1} ✗exclusive'],
  'percpu-rwsem writer-no-mb': ['{"reader_in":1,"writer_in":1} ✗exclusive'],
  'percpu-rwsem none': ['{"reader_in":1,"writer_in":1} ✗exclusive'],
};

const cases = catalogue.flatMap((sc) => {
  const spec = sc.params.find((p) => p.name === 'variant');
  const names = spec?.kind === 'choice' ? spec.choices : [''];
  return names.map((variant) => ({ sc, variant, name: `${sc.id} ${variant}`.trim() }));
});

describe('the catalogue under x86-TSO', () => {
  it.each(cases)('$name: store buffers add only the outcomes it lists', ({ sc, variant }) => {
    const outcomes = (memory: string) => {
      const p = resolveParams(sc, variant === '' ? { memory } : { variant, memory });
      const r = explore(sc, p, { ...sc.bounds, switches: Infinity });
      expect(r.complete).toBe(true);
      return new Set(
        r.outcomes.map(
          (o) =>
            `${o.terminal ? '' : 'stuck '}${outcomeKey(o.observables)} ✗${o.violations.map((v) => v.id).join(',')}`,
        ),
      );
    };
    const sc1 = outcomes('sc');
    const tso = outcomes('tso');
    for (const o of sc1) expect(tso.has(o), `${o} is lost under tso`).toBe(true);
    const gained = [...tso].filter((o) => !sc1.has(o)).sort();
    expect(gained).toEqual(ONLY_UNDER_TSO[`${sc.id} ${variant}`.trim()] ?? []);
  });

  it.each(catalogue)('$id says in its notes what TSO changes', (sc) => {
    const { listing } = sc.build(resolveParams(sc, {}));
    expect(listing.notes.some((n) => n.startsWith('Under memory tso'))).toBe(true);
  });
});
