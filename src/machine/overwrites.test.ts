// The lost update found step by step: which store overwrote which write, and whose add it
// wiped out. The race-word chart and the room's "whose add is lost?" question both read it.

import { describe, expect, it } from 'vitest';
import type { Run } from './executed.ts';
import { counterWords, type WordStep, wordSteps } from './overwrites.ts';
import { parseSchedule } from './schedule.ts';
import { startTimeline, takeEvents } from './timeline.ts';
import { scenarioNamed } from '../scenarios/index.ts';
import { TWO_OPENS_FROM_100 } from '../scenarios/nrFiles.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Params } from '../scenarios/types.ts';

function runOf(id: string, params: Params, schedule: string, cursor?: number): Run {
  const sc = scenarioNamed(id);
  const m = sc.build(resolveParams(sc, params)).machine;
  const t = takeEvents(startTimeline(m), parseSchedule(schedule));
  return { m, states: t.states, events: t.events, cursor: cursor ?? t.events.length };
}

const stepsOf = (run: Run) => {
  const words = counterWords(run.m, run.states[0] as Int32Array);
  if (!words) throw new Error('no counter word');
  return wordSteps(run, words);
};

const overwrites = (run: Run) =>
  stepsOf(run).steps.filter((x): x is WordStep => x !== null && x !== 'flush' && x.overwrote);

describe('counterWords', () => {
  it("is nr_files for global-plain, each CPU's c for irq-local-rmw", () => {
    const plain = runOf('global-plain', TWO_OPENS_FROM_100, '');
    expect(counterWords(plain.m, plain.states[0] as Int32Array)).toMatchObject([
      { label: 'nr_files', wide: false, value: 100 },
    ]);
    const irq = runOf('irq-local-rmw', { variant: 'none' }, '');
    expect(counterWords(irq.m, irq.states[0] as Int32Array)?.map((w) => [w.label, w.wide])).toEqual(
      [["CPU0's c", true]],
    );
  });

  it('is null for a counter with a global count and per-CPU deltas', () => {
    const classic = runOf('percpu-classic', {}, '');
    expect(counterWords(classic.m, classic.states[0] as Int32Array)).toBeNull();
  });
});

describe('wordSteps', () => {
  it("global-plain 0 1 0 1: CPU1's store overwrites CPU0's add", () => {
    const { steps, held } = stepsOf(runOf('global-plain', TWO_OPENS_FROM_100, '0 1 0 1'));
    expect(steps.map((x) => (x === null || x === 'flush' ? x : [x.kind, x.ctx]))).toEqual([
      ['load', 0],
      ['load', 1],
      ['store', 0],
      ['store', 1],
    ]);
    expect(steps[2]).toMatchObject({ before: 100, after: 101, overwrote: false, wiped: [] });
    expect(steps[3]).toMatchObject({ before: 101, after: 101, overwrote: true, wiped: [0] });
    expect(held.size).toBe(0);
  });

  it('stops at the cursor: two loads in, both CPUs hold 100', () => {
    const { steps, held } = stepsOf(runOf('global-plain', TWO_OPENS_FROM_100, '0 1 0 1', 2));
    expect(steps).toHaveLength(2);
    expect([...held]).toEqual([
      [0, { word: 0, value: 100, at: 0 }],
      [1, { word: 0, value: 100, at: 1 }],
    ]);
  });

  it('one after the other overwrites nothing', () => {
    expect(overwrites(runOf('global-plain', TWO_OPENS_FROM_100, '0 0 1 1'))).toEqual([]);
  });

  it("irq-local-rmw none: the task's store overwrites its own IRQ handler's add", () => {
    const run = runOf('irq-local-rmw', { variant: 'none' }, '0 0 irq0 0*4 0 0');
    const [lost, ...more] = overwrites(run);
    expect(more).toEqual([]);
    // The handler is the context after the task (CPU0's only one).
    expect(lost).toMatchObject({ at: 7, kind: 'store', ctx: 0, before: 15, after: 11 });
    expect(lost?.wiped).toEqual([1]);
    expect(run.m.ctxKind[1]).not.toBe(run.m.ctxKind[0]);
  });

  it('names every context whose add one late store wipes out, in the order they wrote', () => {
    // CPU0 loads 100; CPU2 then CPU1 add; CPU0 stores 101 over 102.
    const run = runOf('global-plain', { cpus: 3, iterations: 1, initial: 100 }, '0 2 2 1 1 0');
    expect(overwrites(run).map((x) => [x.at, x.before, x.after, x.wiped])).toEqual([
      [5, 102, 101, [2, 1]],
    ]);
  });
});
