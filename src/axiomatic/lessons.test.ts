// The catalogue's lesson for the kernel's memory model, seqcount-sum, answers as its notes and
// docs/catalogue.md say: exact under sc and tso whatever the barriers, and under lkmm only with
// both the writer's smp_wmb() and the reader's smp_rmb().

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { compileProgram } from '../lang/compile.ts';
import { checkLkmm } from './check.ts';
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

// percpu-seq-multi's lesson: Eric Dumazet's V2 (several sums, no spinlock) under the kernel's
// model. Its guarded sum is exact under sc, yet the model lets one pass read a fold's two
// halves; with a seqcount's barriers in the fold and the sum, no such sum is left.
describe('percpu-seq-multi under the kernel’s model', () => {
  const multi = findScenario('percpu-seq-multi');
  if (!multi?.text) throw new Error('percpu-seq-multi is not a text entry');
  const text = multi.text(
    resolveParams(multi, {
      variant: 'guarded',
      memory: 'lkmm',
      summer2: '-1',
      slots: '3',
      amounts: '1,0',
      adds: '1',
    }),
  );
  /** The sums the model lets the program return once CPU0 folded (fbc->count is 4). */
  const sumsAfterTheFold = (source: string): number[] => {
    const c = compileProgram(source, { memory: 'lkmm' });
    if (!c.ok) throw new Error(c.errors.map((e) => e.message).join('; '));
    const { machine: m, clauses } = c.program;
    const value = (name: string, s: Int32Array) =>
      Number(clauses.observables.find((o) => o.name === name)?.read(m, s));
    const after = checkLkmm(c.program).states.filter((s) => value('count', s.state) === 4);
    return [...new Set(after.map((s) => value('sum', s.state)))].sort((a, b) => a - b);
  };
  /** The text with `from` replaced by `to`, which must be there once. */
  const edit = (source: string, from: string, to: string): string => {
    expect(source.split(from)).toHaveLength(2);
    return source.replace(from, to);
  };

  it('guarded, as the entry has it: sums of 0 and 7 after the fold, neither true', () => {
    expect(sumsAfterTheFold(text)).toEqual([0, 3, 4, 7]);
  });

  it('with a seqcount’s barriers in the fold and the sum, only 3 (before the add) and 4', () => {
    let t = edit(
      text,
      'atomic_inc(&fbc->changing);',
      'atomic_inc(&fbc->changing);\n\t\tsmp_wmb();',
    );
    t = edit(
      t,
      '__this_cpu_write(*fbc->counters, 0);',
      '__this_cpu_write(*fbc->counters, 0);\n\t\tsmp_wmb();',
    );
    t = edit(t, 'atomic_inc(&fbc->changed);', 'atomic_inc(&fbc->changed);\n\t\tsmp_wmb();');
    t = edit(t, 'cpu_relax();', 'cpu_relax();\n\tsmp_rmb();');
    t = edit(
      t,
      'changed = atomic_read(&fbc->changed);',
      'changed = atomic_read(&fbc->changed);\n\tsmp_rmb();',
    );
    t = edit(
      t,
      'ret += *per_cpu_ptr(fbc->counters, cpu);',
      'ret += READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));\n\tsmp_rmb();',
    );
    t = edit(
      t,
      'if (atomic_read(&fbc->changing) ||\t/* guarded: a fold began meanwhile */\n\t    atomic_read(&fbc->changed) != changed)',
      'if (atomic_read(&fbc->changing))\n\t\tgoto again;\n\tsmp_rmb();\n\tif (atomic_read(&fbc->changed) != changed)',
    );
    expect(sumsAfterTheFold(t)).toEqual([3, 4]);
  });
});

// percpu-modern's lesson under the kernel's model: the interrupt between the decision and the
// add leaves CPU0's slot at the batch, as under sc, and the sum's plain reads race with
// this_cpu_add(), the task's and the handler's; marked, nothing races and nothing breaks.
describe('percpu-modern under the kernel’s model', () => {
  const modern = findScenario('percpu-modern');
  if (!modern) throw new Error('percpu-modern is not in the catalogue');
  const a = axiomaticAnswer(
    modern,
    resolveParams(modern, { variant: 'preempt-only', memory: 'lkmm' }),
  );
  it('reaches the slot at the batch, with the interrupt inside the add', () => {
    expect(a.outcomes.map((o) => o.observables)).toContainEqual(
      expect.objectContaining({ count: 0, slot0: 4, slot1: 0, exact: 4, irqs: 1 }),
    );
  });
  it('names the sum’s races with the task’s and the handler’s this_cpu_add()', () => {
    expect(a.flags).toContain('data-race');
    const writers = a.races.map((r) => [r.a, r.b].find((x) => x.kind === 'write'));
    expect(writers.map((w) => w?.who).sort()).toEqual(['IRQ0 in P0', 'P0']);
    for (const r of a.races) {
      const read = [r.a, r.b].find((x) => x.kind === 'read');
      expect(read?.statement).toBe('ret += *per_cpu_ptr(fbc->counters, cpu);');
      expect(read?.marked).toBe(false);
    }
    expect(a.marked).toMatchObject({ broken: [], flags: [] });
  });
});
