// The catalogue's counters under the kernel's memory model: the exact total is every context's
// tally (so atomic_inc() loses nothing), interrupts and the scheduler are modelled rather than
// refused, and a data race is named with what marking its accesses changes.

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { axiomaticAnswer } from './outcomes.ts';

function entry(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(`${id} is not in the catalogue`);
  return sc;
}

/** Each outcome as its observables, with the invariants it breaks. */
function lines(a: ReturnType<typeof axiomaticAnswer>): string[] {
  return a.outcomes
    .map((o) => `${JSON.stringify(o.observables)} ${o.violations.map((v) => v.id).join(',')}`)
    .sort();
}

describe('the exact total under lkmm', () => {
  it.each(['global-atomic', 'global-spinlock', 'percpu-classic'])(
    '%s loses no update, and its exact total is the one Explore finds under sc',
    (id) => {
      const sc = entry(id);
      const a = axiomaticAnswer(sc, resolveParams(sc, { memory: 'lkmm' }));
      expect(a.outcomes.length).toBeGreaterThan(0);
      expect(a.outcomes.flatMap((o) => o.violations.map((v) => v.id))).not.toContain(
        'no-lost-update',
      );
      const r = explore(sc, resolveParams(sc, {}), { ...sc.bounds, switches: Infinity });
      const exact = new Set(r.outcomes.map((o) => o.observables.exact));
      expect(exact.size).toBe(1);
      expect(new Set(a.outcomes.map((o) => o.observables.exact))).toEqual(exact);
    },
  );

  it('global-plain still loses updates, and only where the exact total says so', () => {
    const sc = entry('global-plain');
    const a = axiomaticAnswer(sc, resolveParams(sc, { memory: 'lkmm' }));
    for (const o of a.outcomes) {
      const lost = o.violations.some((v) => v.id === 'no-lost-update');
      expect(lost).toBe(o.observables.nr !== o.observables.exact);
    }
    expect(a.outcomes.some((o) => o.violations.length > 0)).toBe(true);
  });
});

describe('interrupts and the scheduler under lkmm', () => {
  it('irq-local-rmw: an IRQ between the load and the store loses an update; irqsave does not', () => {
    const sc = entry('irq-local-rmw');
    const none = axiomaticAnswer(sc, resolveParams(sc, { variant: 'none', memory: 'lkmm' }));
    expect(lines(none)).toEqual([
      '{"c":11,"irqs":0,"exact":11} ',
      '{"c":11,"irqs":1,"exact":16} no-lost-update',
      '{"c":16,"irqs":1,"exact":16} ',
    ]);
    const saved = axiomaticAnswer(sc, resolveParams(sc, { variant: 'irqsave', memory: 'lkmm' }));
    expect(lines(saved)).toEqual([
      '{"c":11,"irqs":0,"exact":11} ',
      '{"c":16,"irqs":1,"exact":16} ',
    ]);
  });

  it('this-cpu-migrate (raw): the reset that lands on the other CPU’s slot is reached', () => {
    const sc = entry('this-cpu-migrate');
    const a = axiomaticAnswer(sc, resolveParams(sc, { variant: 'raw', memory: 'lkmm' }));
    expect(a.outcomes.flatMap((o) => o.violations.map((v) => v.id))).toContain('reset-own-slot');
  });

  it('percpu-hotplug-sum (online-only): the offline between the sums gives a negative RSS', () => {
    const sc = entry('percpu-hotplug-sum');
    const a = axiomaticAnswer(sc, resolveParams(sc, { variant: 'online-only', memory: 'lkmm' }));
    expect(a.outcomes.map((o) => o.observables.sum)).toContain(-3);
    expect(a.notJudged.map((n) => n.id)).toEqual(['sum-within-window']);
  });
});

describe('every sc outcome is an lkmm outcome', () => {
  const cases: [string, string | undefined][] = [
    ['global-plain', undefined],
    ['lazy-nr-files', undefined],
    ['percpu-atomic64', undefined],
    ['this-cpu-ops', 'x86'],
    ['cmpxchg-local-generic', 'nmi'],
    ['torn-read-32', 'hi-lo'],
    ['percpu-limited-add', 'as-merged'],
    ['percpu-upgrade', 'no-retry'],
  ];
  it.each(cases)('%s (%s)', (id, variant) => {
    const sc = entry(id);
    const set: Record<string, string> = variant === undefined ? {} : { variant };
    const r = explore(sc, resolveParams(sc, set), { ...sc.bounds, switches: Infinity });
    const a = axiomaticAnswer(sc, resolveParams(sc, { ...set, memory: 'lkmm' }));
    const lk = new Set(a.outcomes.map((o) => JSON.stringify(o.observables)));
    for (const o of r.outcomes) expect(lk).toContain(JSON.stringify(o.observables));
  });
});

describe('a data race, named', () => {
  it('percpu-rwsem: per_cpu() reads race with this_cpu_inc(); marked, exclusion holds', () => {
    const sc = entry('percpu-rwsem');
    const a = axiomaticAnswer(sc, resolveParams(sc, { variant: 'mb', memory: 'lkmm' }));
    expect(a.flags).toContain('data-race');
    expect(a.outcomes.flatMap((o) => o.violations.map((v) => v.id))).toContain('exclusive');
    expect(a.races.map((r) => [r.location, r.a.statement, r.b.statement])).toEqual([
      ['read_count[0]', 'this_cpu_inc(read_count);', 'sum += per_cpu(read_count, cpu);'],
      ['read_count[0]', 'this_cpu_dec(read_count);', 'sum += per_cpu(read_count, cpu);'],
    ]);
    expect(a.races[0]?.sentence).toMatch(
      /^P0's line \d+ .* writes it marked on CPU0 and P1's line \d+ .* reads it plainly on CPU1:/,
    );
    expect(a.marked).toEqual({ outcomes: 3, executions: 4, broken: [], flags: [] });
  });

  it('percpu-hotplug-sum: one race a sentence, the offline’s mask updates named as such', () => {
    const sc = entry('percpu-hotplug-sum');
    const a = axiomaticAnswer(
      sc,
      resolveParams(sc, { variant: 'online-or-dying', memory: 'lkmm' }),
    );
    const sentences = a.races.map((r) => r.sentence);
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(a.races.map((r) => r.location).sort()).toEqual(['cpu_dying_mask', 'cpu_online_mask']);
    for (const s of sentences)
      expect(s).toMatch(
        /^CPU1's offline and DEAD1 writes it marked on CPU1 \(a step of the kernel's own, not a line of the program\) and P2's line \d+/,
      );
    // The sum's mask reads, every one on its line, are marked together: no race is left.
    expect(a.marked?.flags).toEqual([]);
  });
});
