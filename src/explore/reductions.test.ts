// Symmetry and partial-order reduction must not change an answer: on every scenario and
// variant (and on configurations chosen so that each reduction applies), the reduced run finds
// exactly the outcomes of the full run, violations included, and every witness it prints is a
// real schedule that replays to its outcome.

import { describe, expect, it } from 'vitest';
import { replay } from '../machine/replay.ts';
import { findScenario } from '../scenarios/index.ts';
import { programScenario } from '../scenarios/program.ts';
import { observe, outcomeKey } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { explore, type ExploreOptions, type ExploreResult } from './explore.ts';
import { type CatalogueCase, catalogueCases } from './testkit.ts';

function outcomeSet(r: ExploreResult): string[] {
  return r.outcomes
    .map(
      (o) =>
        `${o.terminal ? 'end' : 'stuck'} ${outcomeKey(o.observables)} ✗${o.violations.map((v) => v.id).join(',')}`,
    )
    .sort();
}

// Without migrations more CPUs are interchangeable, and more words private to one CPU.
const cases: CatalogueCase[] = catalogueCases((sc) => [
  { ...sc.bounds, switches: Infinity },
  ...(sc.bounds.migrations > 0 ? [{ ...sc.bounds, migrations: 0, switches: Infinity }] : []),
]);
const byId = (id: string) => findScenario(id) as Scenario;
const noInterventions = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: Infinity };
cases.push(
  { sc: byId('global-plain'), set: { cpus: '3', iterations: '2' }, bounds: noInterventions },
  {
    sc: byId('global-spinlock'),
    set: { cpus: '3' },
    bounds: { ...noInterventions, preemptions: 1 },
  },
  {
    sc: byId('percpu-classic'),
    set: { cpus: '3', summer: '-1', adds: '3' },
    bounds: noInterventions,
  },
);

// With store buffers (memory tso): buffered stores, flushes and drains in the reduced graphs too.
cases.push(
  { sc: byId('global-plain'), set: { iterations: '1', memory: 'tso' }, bounds: noInterventions },
  { sc: byId('lazy-nr-files'), set: { memory: 'tso' }, bounds: noInterventions },
  {
    sc: byId('percpu-classic'),
    set: { cpus: '2', summer: '-1', adds: '2', memory: 'tso' },
    bounds: noInterventions,
  },
  {
    sc: byId('global-spinlock'),
    set: { memory: 'tso' },
    bounds: { ...noInterventions, preemptions: 1 },
  },
);

const options: readonly [string, ExploreOptions][] = [
  ['symmetry', { symmetry: true }],
  ['por', { por: true }],
  ['both', { symmetry: true, por: true }],
];

describe('reductions keep every outcome', () => {
  it.each(
    cases.map(
      (c) => [`${c.sc.id} ${JSON.stringify(c.set)} ${JSON.stringify(c.bounds)}`, c] as const,
    ),
  )('%s', (_, { sc, set, bounds }) => {
    const p = resolveParams(sc, set);
    const full = explore(sc, p, bounds);
    expect(full.complete).toBe(true);
    const { machine } = sc.build(p);
    for (const [, o] of options) {
      const r = explore(sc, p, bounds, o);
      expect(r.complete).toBe(true);
      expect(outcomeSet(r)).toEqual(outcomeSet(full));
      expect(r.stats.states).toBeLessThanOrEqual(full.stats.states);
      for (const out of r.outcomes) {
        const { states } = replay(machine, out.witness.events);
        const end = states[states.length - 1] as Int32Array;
        expect(outcomeKey(observe(sc, machine, end, p))).toBe(outcomeKey(out.observables));
      }
    }
  });

  it('each reduction cuts states where it applies, and says why where it does not', () => {
    const gp = byId('global-plain');
    const p = resolveParams(gp, { cpus: '3', iterations: '2' });
    const full = explore(gp, p, noInterventions);
    const sym = explore(gp, p, noInterventions, { symmetry: true });
    expect(sym.reductions.symmetry).toEqual({ on: true });
    // 3 interchangeable CPUs: close to 3! = 6 times fewer states.
    expect(sym.stats.states * 4).toBeLessThan(full.stats.states);
    // With renamed states, the end states are still counted one by one.
    expect(sym.outcomes.map((o) => o.states).sort()).toEqual(
      full.outcomes.map((o) => o.states).sort(),
    );

    const lazy = byId('lazy-nr-files');
    const q = resolveParams(lazy, {});
    const por = explore(
      lazy,
      q,
      { ...lazy.bounds, switches: Infinity },
      { por: true, symmetry: true },
    );
    expect(por.reductions.por).toEqual({ on: true });
    expect(por.stats.states).toBeLessThan(
      explore(lazy, q, { ...lazy.bounds, switches: Infinity }).stats.states,
    );
    expect(por.reductions.symmetry?.on).toBe(false);
    expect(por.reductions.symmetry?.why).toMatch(/CPU number/);

    // Under TSO the reduction still applies (a CPU with an empty buffer stepping on its own
    // words); symmetry does not, and says why.
    const tso = resolveParams(lazy, { memory: 'tso' });
    const fullTso = explore(lazy, tso, noInterventions);
    const porTso = explore(lazy, tso, noInterventions, { por: true, symmetry: true });
    expect(porTso.reductions.por).toEqual({ on: true });
    expect(porTso.stats.states).toBeLessThan(fullTso.stats.states);
    expect(porTso.reductions.symmetry?.why).toMatch(/store buffers/);

    const bounded = explore(gp, p, { ...noInterventions, switches: 2 }, { por: true });
    expect(bounded.reductions.por).toEqual({
      on: false,
      why: 'a switch bound counts the order of steps, which the reduction changes',
    });
  });

  it('symmetry over many CPUs alike is refused before it lists their renamings', () => {
    // One thread and 11 (or 63) idle CPUs: 11! renamings used to be listed before the search
    // began, for 60 s and 2.7 GB that no --max-memory could stop (63!: out of memory).
    for (const [cpus, why] of [
      [12, '39916800 renamings per state are too many: the most is 720'],
      [64, '63! renamings per state are too many: the most is 720'],
    ] as const) {
      const r = programScenario(
        `#define NR_CPUS ${cpus}\nint x;\nP0() { x = 1; }\nobserve x = x;\n`,
      );
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      const sc = r.scenario;
      const res = explore(
        sc,
        resolveParams(sc, {}),
        { ...sc.bounds, switches: Infinity },
        { symmetry: true },
      );
      expect(res.reductions.symmetry).toEqual({ on: false, why });
      expect(res.complete).toBe(true);
      expect(outcomeSet(res)).toEqual(['end {"x":1} ✗']);
    }
  });
});
