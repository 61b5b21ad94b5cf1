// The catalogue as a whole: ids, listings that every step can point into, and a witness for
// every weakness a variant admits to.

import { describe, expect, it } from 'vitest';
import { isLocal } from '../machine/isa.ts';
import { catalogue } from './index.ts';
import { resolveParams } from './params.ts';
import type { Scenario } from './types.ts';

/** Every parameter set worth checking: the defaults and each variant. */
function variantsOf(sc: Scenario): string[] {
  const spec = sc.params.find((p) => p.name === 'variant');
  return spec?.kind === 'choice' ? [...spec.choices] : ['*'];
}

describe('the scenario catalogue', () => {
  it('has the 21 ids of docs/catalogue.md, each once', () => {
    expect(catalogue.map((s) => s.id).sort()).toEqual(
      [
        'global-plain',
        'global-atomic',
        'global-spinlock',
        'lazy-nr-files',
        'percpu-classic',
        'percpu-atomic64',
        'percpu-lglock',
        'percpu-seq',
        'percpu-seq-multi',
        'percpu-sum-fuzzy',
        'this-cpu-migrate',
        'this-cpu-ops',
        'irq-local-rmw',
        'cmpxchg-local-generic',
        'percpu-modern',
        'torn-read-32',
        'percpu-rwsem',
        'seqcount-sum',
        'percpu-ref-switch',
        'percpu-hotplug-sum',
        'percpu-limited-add',
        'percpu-upgrade',
        'percpu-tree',
      ].sort(),
    );
  });

  it('labels exactly the designs whose code is lost as reconstructions', () => {
    expect(
      catalogue
        .filter((s) => s.reconstruction)
        .map((s) => s.id)
        .sort(),
    ).toEqual(['percpu-atomic64', 'percpu-lglock', 'percpu-seq', 'percpu-seq-multi']);
  });

  const cases = catalogue.flatMap((sc) =>
    variantsOf(sc).map((variant) => ({ sc, variant, name: `${sc.id} ${variant}` })),
  );

  it.each(cases)(
    '$name: every step points at a non-blank line of its listing',
    ({ sc, variant }) => {
      const p = resolveParams(sc, variant === '*' ? {} : { variant });
      const { machine, listing } = sc.build(p);
      for (const program of machine.programs) {
        program.instrs.forEach((ins, pc) => {
          if (isLocal(ins.op)) return;
          const text = listing.lines[ins.line - 1];
          expect(ins.line, `${program.name} instruction ${pc} has no line`).toBeGreaterThan(0);
          expect(
            text?.trim(),
            `${program.name} instruction ${pc} points at line ${ins.line}`,
          ).toBeTruthy();
        });
      }
    },
  );

  it.each(cases)(
    '$name: a variant that guarantees less has a witness that shows it',
    ({ sc, variant }) => {
      const all = sc.invariants.map((i) => i.id);
      const kept = sc.guarantees[variant] ?? [];
      const missing = all.filter((id) => !kept.includes(id));
      if (missing.length === 0) return;
      const shown = sc.witnesses.some(
        (w) =>
          (variant === '*' || w.params.variant === variant) &&
          w.violates.some((id) => missing.includes(id)),
      );
      expect(
        shown,
        `${sc.id} ${variant} gives up ${missing.join(', ')} but no witness breaks one`,
      ).toBe(true);
    },
  );

  it.each(catalogue)(
    '$id cites where it comes from: a kernel version, a mail or an archive',
    (sc) => {
      // A kernel version ("Linux 2.6.39", "v4.13"), a Message-ID (<…@…>), or a list archive.
      expect(sc.source).toMatch(/\b(?:Linux |v)\d+\.\d+|<[^<>\s]+@[^<>\s]+>|lkml\.org|marc\.info/);
    },
  );

  it.each(catalogue)('$id asks its class a question and answers it', (sc) => {
    expect(sc.lesson.question.trim()).toMatch(/\?$/);
    expect(sc.lesson.answer.trim()).not.toBe('');
  });
});
