import { describe, expect, it } from 'vitest';
import { batchFate, sumSweeps, type SumSweep } from './sumSweep.ts';
import { foldShort, sweepShort } from './sweepText.ts';
import { scheduleRun, witnessRun } from './testRun.ts';
import { executedAt } from '../machine/executed.ts';
import { counterCells } from './history.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';

const sweepAt = (id: string, w: string, at?: number): SumSweep => {
  const [s] = sumSweeps(witnessRun(id, w, at));
  if (!s) throw new Error('no sweep');
  return s;
};

describe('batchFate', () => {
  it('counts a batch once when exactly one read saw it', () => {
    expect(batchFate({ foldAt: 5, resetAt: 6, globalAt: 2, slotAt: 4 })).toBe('counted');
    expect(batchFate({ foldAt: 5, resetAt: 6, globalAt: 8, slotAt: 9 })).toBe('counted');
  });
  it('misses a batch folded after the global read and reset before the delta read', () => {
    expect(batchFate({ foldAt: 3, resetAt: 4, globalAt: 0, slotAt: 6 })).toBe('missed');
  });
  it('counts twice a batch folded before the global read and reset after the delta read', () => {
    expect(batchFate({ foldAt: 2, resetAt: 5, globalAt: 3, slotAt: 4 })).toBe('twice');
    expect(batchFate({ foldAt: 2, resetAt: -1, globalAt: 3, slotAt: 4 })).toBe('twice');
  });
  it('warns while the batch is behind the sweep and the delta is not read yet', () => {
    expect(batchFate({ foldAt: 3, resetAt: 4, globalAt: 0, slotAt: -1 })).toBe('at-risk');
    expect(batchFate({ foldAt: 3, resetAt: -1, globalAt: 0, slotAt: -1 })).toBe('counted');
  });
});

describe('sumSweeps', () => {
  it('percpu-atomic64 sum-misses-a-batch: the sweep has read fbc->count, then misses CPU0’s 32', () => {
    const early = sweepAt('percpu-atomic64', 'sum-misses-a-batch', 1);
    expect(early.position).toBe(1);
    expect(early.reads).toEqual([]);
    expect(early.global?.value).toBe(1000);

    const risk = sweepAt('percpu-atomic64', 'sum-misses-a-batch', 5);
    expect(risk.folds.map((f) => [f.cpu, f.amount, f.fate])).toEqual([[0, 32, 'at-risk']]);

    const end = sweepAt('percpu-atomic64', 'sum-misses-a-batch');
    expect(end.reads.map((r) => [r.cpu, r.value])).toEqual([
      [0, 0],
      [1, 0],
      [2, 5],
      [3, 0],
    ]);
    expect(end.position).toBe(5);
    expect(end.running).toBe(1005);
    expect(end.returned).toBe(1005);
    expect(end.folds.map((f) => [f.cpu, f.amount, f.fate])).toEqual([[0, 32, 'missed']]);
    expect(foldShort(end.folds[0] as never)).toBe("MISSED: CPU0's 32 moved behind the sweep");
  });

  it('percpu-atomic64 sum-counts-a-batch-twice: CPU0’s 31 is in fbc->count and in its delta', () => {
    const end = sweepAt('percpu-atomic64', 'sum-counts-a-batch-twice');
    expect(end.returned).toBe(1068);
    expect(end.folds.map((f) => [f.cpu, f.fate, f.slotValue])).toEqual([[0, 'twice', 31]]);
  });

  it('percpu-seq retry-once: pass 1 misses the batch, the retry sends the sweep back, pass 2 is exact', () => {
    const before = sweepAt('percpu-seq', 'retry-once', 26);
    expect(before.pass).toBe(1);
    expect(before.position).toBe(5);
    expect(before.folds.map((f) => f.fate)).toEqual(['missed']);

    const after = sweepAt('percpu-seq', 'retry-once', 28);
    expect(after.pass).toBe(2);
    expect(after.retries).toBe(1);
    expect(after.position).toBe(0);
    expect(after.reads).toEqual([]);
    expect(after.folds).toEqual([]);
    expect(sweepShort(after)).toBe("CPU3's sum starts over");

    const end = sweepAt('percpu-seq', 'retry-once');
    expect(end.retries).toBe(1);
    expect(end.returned).toBe(1044);
    expect(end.folds).toEqual([]);
  });

  it('percpu-classic sum-holds-the-lock: the locked sum never sees a batch half moved', () => {
    const run = witnessRun('percpu-classic', 'sum-holds-the-lock');
    for (let at = 0; at <= run.events.length; at++) {
      for (const s of sumSweeps({ ...run, cursor: at })) expect(s.folds).toEqual([]);
    }
    expect(sweepAt('percpu-classic', 'sum-holds-the-lock').returned).toBe(1036);
  });

  it('percpu-sum-fuzzy delta-keeps-retrying: each retry starts the sweep over, with the count', () => {
    const s = sweepAt('percpu-sum-fuzzy', 'delta-keeps-retrying');
    expect(s.retries).toBe(4);
    expect(s.pass).toBe(5);
    expect(s.returned).toBe(80);
  });

  it('a sum inside percpu_counter_compare() has returned once compare() has', () => {
    const sc = findScenario('percpu-classic') as Scenario;
    const params = resolveParams(sc, {
      cpus: 4,
      batch: 32,
      summer: -1,
      adds: [31],
      comparer: 0,
      rhs: 100,
    });
    const [sweep] = sumSweeps(scheduleRun(sc, params, '1*124 2*124 3*124 0*132'));
    expect(sweep?.returned).toBe(124);
    expect(sweepShort(sweep as SumSweep)).toBe("CPU0's sum returned 124");
  });

  it('has no sweep where nothing sums', () => {
    expect(sumSweeps(witnessRun('global-plain', 'lost-update'))).toEqual([]);
    expect(sumSweeps(witnessRun('percpu-classic', 'read-error-124'))).toEqual([]);
  });

  it('limited_add’s limit test reads fbc->count, then adds: not a sum, no sweep drawn', () => {
    // Step 3 of the overshoot: CPU1's fast path has read fbc->count (930) for its limit test.
    const run = witnessRun('percpu-limited-add', 'overshoot', 3);
    expect(executedAt(run, 2)).toMatchObject({ ctx: 1, addr: counterCells(run.m)?.global.addr });
    expect(sumSweeps(run)).toEqual([]);
  });
});
