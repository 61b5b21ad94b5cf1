import { describe, expect, it } from 'vitest';
import { initialState } from '../machine/interpreter.ts';
import { findScenario } from '../scenarios/index.ts';
import { allocateLive, C_EXITED, Stat } from './memory.ts';
import { readSample, relevantCounts, takeSample } from './readout.ts';
import { liveCounter } from './counter.ts';
import { liveMachine } from './job.ts';
import { liveParams } from './liveParams.ts';
import { liveSpecs } from './specs.ts';

describe('live readings', () => {
  it.each(liveSpecs.flatMap((s) => [1, 3].map((cpus) => ({ id: s.id, cpus }))))(
    '$id on $cpus CPU(s) reads at rest: nothing lost, read() within its band',
    ({ id, cpus }) => {
      const sc = findScenario(id);
      if (!sc) throw new Error(id);
      const p = liveParams(id, cpus);
      const m = liveMachine(id, p);
      // Every scenario that runs live declares the counter its charts read.
      const counter = liveCounter(sc, p, m);
      if (!counter) throw new Error(`${id} declares no counter`);
      const mem = allocateLive(m, initialState(m));
      mem.stats[mem.statLine(0) + Stat.Adds] = 7;
      const r = readSample(sc, counter, m, p, takeSample(mem, m));
      expect(r.lost).toBe(0);
      expect(r.total.adds).toBe(7);
      if (r.read) expect(Math.abs(r.read.error)).toBeLessThanOrEqual(r.read.bound);
      expect(r.sum).toBeNull(); // no sum has returned yet
      expect(r.cpus).toHaveLength(m.cpus);
    },
  );

  it('shows only the counts a machine can move', () => {
    const plain = findScenario('global-plain');
    const seq = findScenario('percpu-seq');
    if (!plain || !seq) throw new Error('missing');
    expect(relevantCounts(plain.build(liveParams('global-plain', 2)).machine)).toEqual({
      folds: false,
      bumps: false,
      retries: false,
      spins: false,
    });
    expect(relevantCounts(seq.build(liveParams('percpu-seq', 2)).machine)).toMatchObject({
      folds: true,
      bumps: true,
      retries: true,
    });
  });

  it("at rest, read()'s error is exactly read() − exact; while running it allows for adds in flight", () => {
    const sc = findScenario('percpu-classic');
    if (!sc) throw new Error('missing');
    // fbc->count 0 and slots 3 + 2: the exact total is 5, percpu_counter_read() says 0.
    const p = liveParams('percpu-classic', 3, { slots: '3,2' });
    const m = liveMachine('percpu-classic', p);
    const counter = liveCounter(sc, p, m);
    if (!counter) throw new Error('no counter');
    const mem = allocateLive(m, initialState(m));
    const running = readSample(sc, counter, m, p, takeSample(mem, m));
    expect(running.read?.value).toBe(0);
    // Two adders each may have an add in memory that the totals do not count yet.
    expect(running.read?.error).toBe(-3);
    mem.words[C_EXITED] = m.cpus;
    const rest = readSample(sc, counter, m, p, takeSample(mem, m));
    expect(rest.read?.error).toBe(-5);
  });
});
