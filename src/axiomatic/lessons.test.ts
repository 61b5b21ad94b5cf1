// The catalogue's lesson for the kernel's memory model, seqcount-sum, answers as its notes and
// docs/catalogue.md say: exact under sc and tso whatever the barriers, and under lkmm only with
// both the writer's smp_wmb() and the reader's smp_rmb().

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { axiomaticAnswer } from './outcomes.ts';

const sc = findScenario('seqcount-sum');

describe('seqcount-sum under every memory model', () => {
  if (!sc) throw new Error('seqcount-sum is not in the catalogue');
  it.each(['both', 'no-wmb', 'no-rmb', 'none'])(
    '%s accepts only exact sums under sc and tso',
    (variant) => {
      for (const memory of ['sc', 'tso']) {
        const p = resolveParams(sc, { variant, memory });
        const r = explore(sc, p, { ...sc.bounds, switches: Infinity });
        expect(r.complete).toBe(true);
        expect(r.outcomes.filter((o) => o.violations.length > 0)).toEqual([]);
      }
    },
  );
  it('with both barriers, the kernel’s model accepts only exact sums: Never, 0 of 18', () => {
    const a = axiomaticAnswer(sc, resolveParams(sc, { variant: 'both', memory: 'lkmm' }));
    expect(a.herd?.observation).toBe('Never');
    expect([a.herd?.positive, a.herd?.negative]).toEqual([0, 18]);
    expect(a.outcomes.filter((o) => o.violations.length > 0)).toEqual([]);
  });
  it.each(['no-wmb', 'no-rmb', 'none'])(
    'without %s’s barriers the kernel’s model accepts a torn sum: 0 and 6 both',
    (variant) => {
      const a = axiomaticAnswer(sc, resolveParams(sc, { variant, memory: 'lkmm' }));
      expect(a.herd?.observation).toBe('Sometimes');
      const torn = a.outcomes
        .filter((o) => o.violations.some((v) => v.id === 'exact-sum'))
        .map((o) => o.observables['1:sum']);
      expect(torn.sort()).toEqual([0, 6]);
    },
  );
});

describe('percpu-ref-switch under every memory model', () => {
  const ref = findScenario('percpu-ref-switch');
  if (!ref) throw new Error('percpu-ref-switch is not in the catalogue');
  it.each(['release', 'once'])('%s never loses a get under sc and tso', (variant) => {
    for (const memory of ['sc', 'tso']) {
      const r = explore(ref, resolveParams(ref, { variant, memory }), {
        ...ref.bounds,
        switches: Infinity,
      });
      expect(r.outcomes.filter((o) => o.violations.length > 0)).toEqual([]);
    }
  });
  it('the release keeps every get counted under the kernel’s model; WRITE_ONCE() does not', () => {
    const kept = axiomaticAnswer(ref, resolveParams(ref, { variant: 'release', memory: 'lkmm' }));
    expect(kept.herd?.observation).toBe('Never');
    const lost = axiomaticAnswer(ref, resolveParams(ref, { variant: 'once', memory: 'lkmm' }));
    expect(lost.herd?.observation).toBe('Sometimes');
    const pcs = lost.outcomes
      .filter((o) => o.violations.some((v) => v.id === 'counted'))
      .map((o) => o.observables.pc);
    expect(pcs.sort()).toEqual([0, 8]);
  });
});
