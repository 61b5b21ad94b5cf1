// Every scenario of the catalogue explored under both memory models, within its default bounds:
// which outcome sets x86-TSO's store buffers change. Only percpu-rwsem's variants without a full
// barrier gain an outcome (both inside); every other entry keeps exactly its sequentially
// consistent outcomes, because its races are interleavings, its folds run under locks or LOCKed
// operations, and x86 keeps each CPU's stores and loads in order. Each entry's listing says so.
// The SC answers are the recorded ones (golden.json, which golden.test.ts holds the explorer to);
// the TSO ones are explored here.

import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.ts';
import { jsonObservables } from '../../src/scenarios/outcome.ts';
import { catalogue } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';
import { recorded } from './golden.ts';

/** An outcome as compared: stuck or not, its observables, the invariants it breaks. */
function outcomeText(o: {
  readonly terminal: boolean;
  readonly observables: Record<string, unknown>;
  readonly violations: readonly { readonly id: string }[];
}): string {
  return `${o.terminal ? '' : 'stuck '}${JSON.stringify(o.observables)} ✗${o.violations.map((v) => v.id).join(',')}`;
}

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
    const params = (memory: string) =>
      resolveParams(sc, variant === '' ? { memory } : { variant, memory });
    const record = recorded(sc, params('sc'));
    expect(record.complete).toBe(true);
    const sc1 = new Set(record.outcomes.map(outcomeText));
    const r = explore(sc, params('tso'), { ...sc.bounds, switches: Infinity });
    expect(r.complete).toBe(true);
    const tso = new Set(
      r.outcomes.map((o) => outcomeText({ ...o, observables: jsonObservables(o.observables) })),
    );
    for (const o of sc1) expect(tso.has(o), `${o} is lost under tso`).toBe(true);
    const gained = [...tso].filter((o) => !sc1.has(o)).sort();
    expect(gained).toEqual(ONLY_UNDER_TSO[`${sc.id} ${variant}`.trim()] ?? []);
  });

  it.each(catalogue)('$id says in its notes what TSO changes', (sc) => {
    const { listing } = sc.build(resolveParams(sc, {}));
    expect(listing.notes.some((n) => n.startsWith('Under memory tso'))).toBe(true);
  });
});
