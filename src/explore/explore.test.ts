import { describe, expect, it } from 'vitest';
import { CTX_RETRIES } from '../machine/machine.ts';
import { replay } from '../machine/replay.ts';
import { findScenario } from '../scenarios/index.ts';
import { jsonObservables, observe } from '../scenarios/outcome.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { type Bounds, explore } from './explore.ts';
import { programOutcomes } from './testkit.ts';
import { programScenario } from '../scenarios/program.ts';

const none: Bounds = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: Infinity };

function scenario(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(id);
  return sc;
}

function values(sc: Scenario, set: Record<string, string>, bounds: Bounds, name: string) {
  const r = explore(sc, resolveParams(sc, set), bounds);
  expect(r.complete).toBe(true);
  return r.outcomes.map((o) => o.observables[name]).sort();
}

describe('explore', () => {
  it('global-plain, 2 CPUs × 2 iterations from 0, unbounded switches: nr ∈ {2, 3, 4}', () => {
    expect(values(scenario('global-plain'), { cpus: '2', iterations: '2' }, none, 'nr')).toEqual([
      2, 3, 4,
    ]);
  });

  it('global-plain with at most 1 switch: nr ∈ {2, 4}', () => {
    expect(
      values(
        scenario('global-plain'),
        { cpus: '2', iterations: '2' },
        { ...none, switches: 1 },
        'nr',
      ),
    ).toEqual([2, 4]);
  });

  it('global-atomic, 2 CPUs × 2 iterations: nr = 4 always', () => {
    expect(values(scenario('global-atomic'), { cpus: '2', iterations: '2' }, none, 'nr')).toEqual([
      4,
    ]);
  });

  it('irq-local-rmw with at most one IRQ: a lost update for none, none for either fix', () => {
    const sc = scenario('irq-local-rmw');
    const oneIrq = { ...none, irqs: 1 };
    const broken = (variant: string) =>
      explore(sc, resolveParams(sc, { variant }), oneIrq).outcomes.filter(
        (o) => o.violations.length > 0,
      );
    expect(broken('none').length).toBeGreaterThan(0);
    expect(broken('irqsave')).toEqual([]);
    expect(broken('cmpxchg-local')).toEqual([]);
  });

  it('every witness replays to its outcome, with the fewest interventions first', () => {
    const sc = scenario('irq-local-rmw');
    const p = resolveParams(sc, { variant: 'none' });
    const r = explore(sc, p, { ...none, irqs: 1 });
    const { machine } = sc.build(p);
    for (const o of r.outcomes) {
      const { states } = replay(machine, o.witness.events);
      const end = states[states.length - 1] as Int32Array;
      expect(jsonObservables(observe(sc, machine, end, p))).toEqual(jsonObservables(o.observables));
    }
    const lost = r.outcomes.find((o) => o.violations.length > 0);
    expect(lost?.witness.interventions).toBe(1);
  });

  it('reports the first state that breaks an always invariant, with its witness', () => {
    const sc = scenario('percpu-modern');
    const p = resolveParams(sc, {
      variant: 'preempt-only',
      batch: '32',
      slots: '20',
      amounts: '10,0',
      adds: '1',
      summer: '-1',
      irqAmount: '10',
    });
    const r = explore(sc, p, { ...none, irqs: 1 });
    const v = r.always.find((a) => a.id === 'slot-below-batch');
    expect(v?.reason).toBe("CPU0's delta is 40, not within ±32");
    expect(v?.witness.interventions).toBe(1);
  });

  it('is deterministic: two runs give the same witnesses', () => {
    const sc = scenario('global-plain');
    const p = resolveParams(sc, { cpus: '3', iterations: '1' });
    const a = explore(sc, p, none).outcomes.map((o) => o.witness.events.join(','));
    const b = explore(sc, p, none).outcomes.map((o) => o.witness.events.join(','));
    expect(a).toEqual(b);
  });

  it('simplest stops at the violation with the fewest interventions', () => {
    const sc = scenario('cmpxchg-local-generic');
    const p = resolveParams(sc, { variant: 'nmi' });
    const r = explore(sc, p, { ...none, irqs: 1, nmis: 1 }, { simplest: true });
    const bad = r.outcomes.filter((o) => o.violations.length > 0);
    expect(bad).toHaveLength(1);
    expect(bad[0]?.witness.interventions).toBe(1);
    expect(bad[0]?.observables.c).toBe(11);
  });

  it('finds the livelock of a retrying sum against adders that keep folding, with a fair cycle', () => {
    const sc = scenario('percpu-sum-fuzzy');
    const p = resolveParams(sc, { adders: 'forever' });
    const r = explore(sc, p, none);
    expect(r.complete).toBe(true);
    expect(r.livelocks.length).toBeGreaterThan(0);
    const l = r.livelocks[0];
    if (!l) return;
    // The cycle leads back to the state it started from (the retry count aside), every CPU
    // steps in it, and the sum never returns.
    const { machine } = sc.build(p);
    const { states } = replay(machine, [...l.witness.events, ...l.cycle]);
    const start = states[l.witness.events.length] as Int32Array;
    const end = states[states.length - 1] as Int32Array;
    const strip = (s: Int32Array) =>
      Array.from(s).filter(
        (_, i) => i < machine.ctxOff || (i - machine.ctxOff) % machine.ctxStride !== CTX_RETRIES,
      );
    expect(strip(end)).toEqual(strip(start));
    expect(new Set(l.cycle.map((e) => e >> 3)).size).toBe(3);
  });

  it('the same endless, always-folding adders: a livelock for the retrying sum, none for percpu-seq', () => {
    const adders = { adders: 'forever', cpus: '2', summer: '1', amounts: '9' };
    const fuzzy = scenario('percpu-sum-fuzzy');
    const a = explore(fuzzy, resolveParams(fuzzy, adders), none);
    expect([a.complete, a.livelocks.length > 0]).toEqual([true, true]);
    const seq = scenario('percpu-seq');
    const b = explore(seq, resolveParams(seq, adders), none);
    expect([b.complete, b.livelocks.length]).toEqual([true, 0]);
    expect(b.outcomes.length).toBeGreaterThan(0);
    for (const o of b.outcomes) expect(o.observables.retries as number).toBeLessThanOrEqual(2);
  });

  it('reports no livelock where the sum always returns', () => {
    const sc = scenario('percpu-classic');
    const r = explore(sc, resolveParams(sc, { adders: 'forever' }), none);
    expect(r.complete).toBe(true);
    expect(r.livelocks).toEqual([]);
  });

  it('stops, marked incomplete, at the state limit', () => {
    const sc = scenario('global-plain');
    const r = explore(sc, resolveParams(sc, { cpus: '3', iterations: '3' }), none, {
      maxStates: 50,
    });
    expect([r.complete, r.stopped]).toEqual([false, 'max-states']);
    // Checked between levels of cost: past the limit by at most the level that crossed it.
    expect(r.stats.states).toBeGreaterThan(50);
    expect(r.stats.states).toBeLessThan(100);
  });

  it('stops, marked incomplete, at the memory limit or when cancelled, saying how far it got', () => {
    const sc = scenario('global-plain');
    const p = resolveParams(sc, { cpus: '3', iterations: '4' });
    const full = explore(sc, p, none);
    expect([full.complete, full.stopped]).toEqual([true, null]);
    // The smallest visited set holds a few MB: a 1 MB budget stops at the first check.
    const small = explore(sc, p, none, { maxMemoryMB: 1 });
    expect([small.complete, small.stopped]).toEqual([false, 'max-memory']);
    expect(small.stats.states).toBeLessThan(full.stats.states);
    expect(small.stats.bytes).toBeGreaterThan(1024 * 1024);
    let calls = 0;
    const cancelled = explore(sc, p, none, { progress: () => ++calls === 2 });
    expect([cancelled.complete, cancelled.stopped, calls]).toEqual([false, 'cancelled', 2]);
    expect(cancelled.stats.depth).toBeGreaterThan(0);
  });

  it('refuses bounds it cannot count, with a message', () => {
    const sc = scenario('global-plain');
    expect(() => explore(sc, resolveParams(sc, {}), { ...none, irqs: 16 })).toThrow(
      'Explore allows 0 to 15 irqs, not 16',
    );
  });

  it('an outcome reached through a state that broke an always-invariant carries it', () => {
    // torn-read-32 lo-hi: every read that is neither old nor new is a torn read.
    const sc = scenario('torn-read-32');
    const p = resolveParams(sc, { variant: 'lo-hi' });
    const r = explore(sc, p, { ...none, irqs: 1 });
    const old = 4294967280;
    const fresh = old + 32;
    const torn = r.outcomes.filter(
      (o) => o.observables.read !== old && o.observables.read !== fresh,
    );
    expect(torn.map((o) => o.observables.read).sort()).toEqual([16, 8589934576]);
    for (const o of torn) {
      const v = o.violations.find((x) => x.id === 'read-not-torn');
      expect(v && 'step' in v ? v.step : -1).toBeGreaterThan(0);
      // The step is where the read returned: replaying that far already breaks it.
      const { machine } = sc.build(p);
      const step = v && 'step' in v ? v.step : 0;
      const { states } = replay(machine, o.witness.events.slice(0, step));
      const at = states[states.length - 1] as Int32Array;
      const before = states[states.length - 2] as Int32Array;
      const inv = sc.invariants.find((i) => i.id === 'read-not-torn');
      // The reason names the torn value first.
      expect(inv?.always?.(machine, at, p)).toMatch(
        new RegExp(`does not hold: read = ${String(o.observables.read)}, OLD = ${old}`),
      );
      expect(inv?.always?.(machine, before, p)).toBeNull();
    }
    for (const o of r.outcomes.filter((x) => !torn.includes(x))) expect(o.violations).toEqual([]);
  });

  it('an end reachable with and without a broken always-invariant is two outcomes', () => {
    const sc = scenario('percpu-sum-fuzzy');
    const p = resolveParams(sc, { variant: 'seqcount' });
    const r = explore(sc, p, { ...sc.bounds, switches: Infinity });
    const byObservables = new Map<string, string[]>();
    for (const o of r.outcomes) {
      const k = JSON.stringify(jsonObservables(o.observables));
      byObservables.set(k, [...(byObservables.get(k) ?? []), o.violations.map((v) => v.id).join()]);
    }
    const both = [...byObservables.values()].filter(
      (vs) => vs.includes('') && vs.includes('sum-within-window'),
    );
    expect(both.length).toBeGreaterThan(0);
  });

  it('an IRQ or an NMI can still arrive after every task has finished, as replay allows', () => {
    // The handler's store lands after the task's: x = 2 is an end state replay reaches
    // ("0 irq0 0"), so Explore's every interleaving must include it.
    const irq = 'int x;\nP0() { WRITE_ONCE(x, 1); }\nIRQ0() { WRITE_ONCE(x, 2); }\n';
    expect(programOutcomes(`#pragma lab bounds irqs=1\n${irq}`)).toEqual(new Set(['x=1', 'x=2']));
    const nmi = 'int x;\nP0() { WRITE_ONCE(x, 1); }\nNMI0() { WRITE_ONCE(x, 2); }\n';
    expect(programOutcomes(`#pragma lab bounds nmis=1\n${nmi}`)).toEqual(new Set(['x=1', 'x=2']));
  });

  it('calls a spin on a value nobody will write "never finishes", and only a lock wait a deadlock', () => {
    const stuckOf = (source: string) => {
      const r = programScenario(source);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      const sc = r.scenario;
      const res = explore(sc, resolveParams(sc, {}), { ...sc.bounds, switches: Infinity });
      return res.outcomes.flatMap((o) => o.violations);
    };
    const spin = stuckOf(
      'int flag;\nint y;\nP0() { while (READ_ONCE(flag) == 0) cpu_relax(); }\nP1() { WRITE_ONCE(y, 1); }\n',
    );
    expect(spin.map((v) => v.id)).toEqual(['never-finishes']);
    expect(spin[0]?.reason).toBe(
      'P0 (line 3) spins forever: nothing left running can change what it waits for (no lock is held: a livelock, not a deadlock)',
    );
    const lock = stuckOf(
      'int x;\nDEFINE_SPINLOCK(l);\nP0() { spin_lock(&l); spin_lock(&l); WRITE_ONCE(x, 1); }\n',
    );
    expect(lock).toEqual([
      {
        id: 'deadlock',
        reason: 'no CPU can make progress: P0 (line 3) waits for a lock that is never released',
      },
    ]);
  });
});
