// The explorer's caches (transitions.ts) must answer as the interpreter does. A cached successor
// is read from the ids of the components an event reads, so the tests check what a key leaves
// out (another CPU's task) and keeps (memory, every context under RecordTotal), and then explore
// the whole catalogue with every cached answer recomputed by the interpreter ('check') and
// again without the caches ('off'): the answers, witnesses and counts must be the same.

import { describe, expect, it } from 'vitest';
import { apply, enabledEvents, Ev, isTerminal, makeEvent } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import { ctxBase, CTX_DONE } from '../machine/machine.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { explore, type ExploreResult } from './explore.ts';
import { catalogueCases } from './testkit.ts';
import { CpuCache, eventsOf, finished, legalOf, readsOf } from './transitions.ts';
import { Visited } from './visited.ts';

const byId = (id: string) => findScenario(id) as Scenario;

describe('CpuCache', () => {
  const sc = byId('global-plain');
  const m = sc.build(resolveParams(sc, { cpus: '3', iterations: '2' })).machine;
  const none = [0, 0, 0, 0, 0];

  it('gives the successor the interpreter gives, whatever the other CPUs are doing', () => {
    const v = new Visited(m);
    const cache = CpuCache.for(m, v.segments, none) as CpuCache;
    const n = v.width - 1;
    const s = initialState(m);
    const ids = new Int32Array(v.width);
    v.components(s, ids);
    expect(cache.find(0, ids)).toBe(-1);
    const e = cache.add(0, ids, legalOf(m, s, 0));
    const out = new Int32Array(v.width);
    expect(cache.successor(e, 0, Ev.Step, ids, out, 0, n)).toBe(-1);
    const next = s.slice();
    apply(m, next, makeEvent(Ev.Step, 0));
    const nextIds = new Int32Array(v.width);
    v.components(next, nextIds);
    cache.learn(e, 0, Ev.Step, nextIds, true);

    // CPU 2 has taken a step: CPU 0's step reads nothing of it, and the entry still answers.
    const other = s.slice();
    apply(m, other, makeEvent(Ev.Step, 2));
    const otherIds = new Int32Array(v.width);
    v.components(other, otherIds);
    expect(cache.find(0, otherIds)).toBe(e);
    expect(cache.successor(e, 0, Ev.Step, otherIds, out, 0, n)).toBe(1);
    const truth = other.slice();
    apply(m, truth, makeEvent(Ev.Step, 0));
    const truthIds = new Int32Array(v.width);
    v.components(truth, truthIds);
    expect([...out.subarray(0, n)]).toEqual([...truthIds.subarray(0, n)]);

    // Another value in memory, or another CPU: not the same entry.
    const mem = s.slice();
    mem[0] = 41;
    v.components(mem, otherIds);
    expect(cache.find(0, otherIds)).toBe(-1);
    expect(cache.find(1, ids)).toBe(-1);
  });

  it('is not used where tasks can move between CPUs', () => {
    const v = new Visited(m);
    expect(CpuCache.for(m, v.segments, [0, 0, 0, 1, 0])).toBeNull();
    expect(CpuCache.for(m, v.segments, [0, 0, 0, 0, 1])).toBeNull();
  });

  it('keys a CPU on its own contexts, and on every context when it adds up the tallies', () => {
    const v = new Visited(m);
    const ctxSegments = (k: number) =>
      [...(readsOf(m, v.segments)[k] as Int32Array)].filter(
        (i) => (v.segments[i] as { off: number }).off >= m.ctxOff,
      );
    // global-plain: one task per CPU, and CPU k's events read its record alone.
    for (let k = 0; k < 3; k++) expect(ctxSegments(k)).toHaveLength(1);

    // percpu-classic's summer records the exact total (RecordTotal) as it sums.
    const pc = byId('percpu-classic');
    const pm = pc.build(resolveParams(pc, { cpus: '2' })).machine;
    expect(pm.code.some((c) => c.some((ins) => ins.op === Op.RecordTotal))).toBe(true);
    const pv = new Visited(pm);
    const reads = readsOf(pm, pv.segments);
    expect(reads.some((r) => r.length === pv.segments.length)).toBe(true);
    // The summer's CPU, whose events are interpreted, not looked up; the adders' are.
    const cache = CpuCache.for(pm, pv.segments, none) as CpuCache;
    const summers = [...Array(pm.cpus).keys()].map((k) =>
      pm.code.some(
        (code, c) => pm.ctxHome[c] === k && code.some((ins) => ins.op === Op.RecordTotal),
      ),
    );
    expect(summers).toContain(true);
    expect(summers).toContain(false);
    expect(summers.map((_, k) => cache.readsAll(k))).toEqual(summers);
  });

  it("gives each CPU's events and whether it has finished, as the state does", () => {
    const m2 = sc.build(resolveParams(sc, { cpus: '2', iterations: '1' })).machine;
    const v = new Visited(m2);
    const cache = CpuCache.for(m2, v.segments, none) as CpuCache;
    const ids = new Int32Array(v.width);
    // Run CPU 0, then CPU 1, to the end, checking the events at every state.
    const s = initialState(m2);
    for (;;) {
      v.components(s, ids);
      const evs: number[] = [];
      let n = 0;
      let done = true;
      for (let k = 0; k < m2.cpus; k++) {
        const e = cache.find(k, ids);
        const value = e >= 0 ? cache.legal(e) : cache.legal(cache.add(k, ids, legalOf(m2, s, k)));
        expect(cache.legal(cache.find(k, ids))).toBe(value);
        if (!finished(value)) done = false;
        n = eventsOf(m2, k, value, evs, n);
      }
      const truth: number[] = [];
      expect(n).toBe(enabledEvents(m2, s, truth));
      expect(evs.slice(0, n)).toEqual(truth);
      expect(done).toBe(isTerminal(m2, s));
      if (done) break;
      apply(m2, s, makeEvent(Ev.Step, s[ctxBase(m2, 0) + CTX_DONE] === 0 ? 0 : 1));
    }
  });
});

/** Everything an exploration answers, but its timing and memory. */
function answer(r: ExploreResult) {
  const { ms: _ms, bytes: _bytes, ...stats } = r.stats;
  return { ...r, stats };
}

// The cache runs where tasks stay on their CPUs: no migrations, no hotplug.
const cases = catalogueCases(
  (sc) => [{ ...sc.bounds, migrations: 0, hotplugs: 0, switches: Infinity }],
  true,
);

describe('explored with the caches, every entry answers as without them', () => {
  it.each(
    cases.map(
      (c) => [`${c.sc.id} ${JSON.stringify(c.set)} ${JSON.stringify(c.bounds)}`, c] as const,
    ),
  )('%s', (_, { sc, set, bounds }) => {
    const p = resolveParams(sc, set);
    // Bounded so that the whole catalogue stays quick: both runs stop at the same node.
    const options = { maxStates: 20_000 };
    const checked = explore(sc, p, bounds, { ...options, caches: 'check' });
    const plain = explore(sc, p, bounds, { ...options, caches: 'off' });
    expect(answer(checked)).toEqual(answer(plain));
  });
});
