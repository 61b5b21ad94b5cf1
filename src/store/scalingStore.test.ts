// The Scaling store over a fake port: the sweep's life as the Scaling view shows it (progress,
// results as they are measured, done, cancelled, failed), without CPU workers (the real bridge's
// sweeps are covered end to end, e2e/scaling.spec.ts).

import { describe, expect, it } from 'vitest';
import type { ScalingPort, SweepReport, SweepResult } from '../live/scaling/measure.ts';
import { loadCheckPlan } from '../live/scaling/fit.ts';
import { type SweepPlan, type SweepPoint, sweepPoints } from '../live/scaling/plan.ts';
import { createScalingStore } from './scalingStore.ts';

const machine = { cores: 4, runtime: 'a fake' };

/** What a combination measured: made up, the store only carries it. */
function measured(plan: SweepPlan, p: SweepPoint): SweepResult {
  const ops = 1000 * p.cpus;
  return {
    ...p,
    params: {},
    opsPerSecond: { median: ops, min: ops, max: ops },
    perCpuOpsPerSecond: Array.from({ length: p.cpus }, () => 1000),
    instructionsPerSecondPerCpu: Array.from({ length: p.cpus }, () => 5000),
    spinsPerSecondPerCpu: Array.from({ length: p.cpus }, () => 0),
    sumsPerSecond: null,
    lost: p.scenario === 'global-plain' ? plan.repeat : 0,
    exact: p.scenario !== 'global-plain',
    violations: [],
    readError: null,
    tierRan: p.tier,
  };
}

/** The load check's report at once: each CPU of several at `share` of one alone. */
function loadReport(plan: SweepPlan, share: number): SweepReport {
  return {
    machine,
    settings: { seconds: plan.seconds, warmupSeconds: 0, repeat: plan.repeat, preset: 'kernel' },
    results: sweepPoints(plan).map((p) => {
      const r = measured(plan, p);
      const ops = p.cpus === 1 ? 1000 : 1000 * p.cpus * share;
      return { ...r, opsPerSecond: { median: ops, min: ops, max: ops } };
    }),
    cancelled: false,
  };
}

/**
 * A port that measures each combination when the test says so (`next()`), stops at an aborted
 * signal after the combination in progress, and fails where it is told to. The load check
 * answers at once, each CPU at `loadShare` of one alone.
 */
function fakePort(fail?: { probe?: string; at?: number }, loadShare = 1) {
  const waiting: (() => void)[] = [];
  const port: ScalingPort = {
    machine,
    probe: (engine) =>
      fail?.probe !== undefined
        ? Promise.reject(new Error(fail.probe))
        : Promise.resolve({ writes: 100, seen: 100, engine }),
    async sweep(plan, hooks) {
      if (JSON.stringify(plan) === JSON.stringify(loadCheckPlan(machine.cores)))
        return Promise.resolve(loadReport(plan, loadShare));
      const points = sweepPoints(plan);
      const results: SweepResult[] = [];
      for (const [i, p] of points.entries()) {
        if (hooks.signal?.aborted) break;
        hooks.progress?.(i * plan.repeat, points.length * plan.repeat, p);
        await new Promise<void>((go) => waiting.push(go));
        if (fail?.at === i) throw new Error('CPU1 stopped the run: a fake fault');
        const r = measured(plan, p);
        results.push(r);
        hooks.measured?.(r);
      }
      const report: SweepReport = {
        machine,
        settings: {
          seconds: plan.seconds,
          warmupSeconds: 0,
          repeat: plan.repeat,
          preset: plan.preset,
        },
        results,
        cancelled: results.length < points.length,
      };
      return report;
    },
  };
  /** Lets the combination in progress finish; resolves once the store has heard of it. */
  const next = async () => {
    while (waiting.length === 0) await Promise.resolve();
    (waiting.shift() as () => void)();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { port, next };
}

const PLAN: Partial<SweepPlan> = { scenarios: ['global-plain', 'percpu-classic'], cpus: [1, 2] };

describe('the Scaling store', () => {
  it('runs the plan on its port: progress, each result as it comes, then done', async () => {
    let t = 0;
    const { port, next } = fakePort();
    const store = createScalingStore(port, () => (t += 1000));
    store.getState().planChanged(PLAN);
    const run = store.getState().runRequested();
    await next();
    let s = store.getState();
    expect(s.phase).toBe('running');
    expect(s.probe?.seen).toBe(100);
    expect(s.results.map((r) => [r.scenario, r.cpus])).toEqual([['global-plain', 1]]);
    expect(s.progress?.point).toMatchObject({ scenario: 'global-plain', cpus: 2 });
    expect(s.message).toBe('Measuring global-plain on 2 CPUs…');
    await next();
    await next();
    await next();
    await run;
    s = store.getState();
    expect(s.phase).toBe('done');
    expect(s.results).toHaveLength(4);
    expect(s.report?.cancelled).toBe(false);
    expect(s.progress).toBeNull();
    expect(s.message).toMatch(/^Done: 4 combinations measured in \d+ s\.$/);
  });

  it('Cancel stops after the combination in progress and keeps what was measured', async () => {
    const { port, next } = fakePort();
    const store = createScalingStore(port);
    store.getState().planChanged(PLAN);
    const run = store.getState().runRequested();
    await next();
    store.getState().cancelRequested();
    expect(store.getState().message).toBe('Cancelling: the run in progress stops…');
    await next();
    await run;
    const s = store.getState();
    expect(s.phase).toBe('cancelled');
    expect(s.results).toHaveLength(2);
    expect(s.message).toBe('Cancelled: 2 combinations measured before the stop are shown.');
  });

  it('says why a sweep failed, and runs again when asked', async () => {
    const { port, next } = fakePort({ at: 1 });
    const store = createScalingStore(port);
    store.getState().planChanged(PLAN);
    const run = store.getState().runRequested();
    await next();
    await next();
    await run;
    expect(store.getState().phase).toBe('failed');
    expect(store.getState().message).toBe(
      'The sweep failed: CPU1 stopped the run: a fake fault. Press Run sweep to try again.',
    );
    const probeFails = createScalingStore(fakePort({ probe: 'no shared memory' }).port);
    await probeFails.getState().runRequested();
    expect(probeFails.getState().message).toBe(
      'The sweep failed: no shared memory. Press Run sweep to try again.',
    );
  });

  it('refuses a plan it cannot run, saying why, and plans for the port’s cores', async () => {
    const { port } = fakePort();
    const store = createScalingStore(port);
    expect(store.getState().plan.cpus).toEqual([1, 2, 3, 4]);
    store.getState().cpusTyped('1, x');
    expect(store.getState().planError).not.toBeNull();
    await store.getState().runRequested();
    expect(store.getState().phase).toBe('idle');
    expect(store.getState().message).toMatch(/^Cannot run: /);
  });

  it('names every bad field at once, and the status says it is not ready', () => {
    const store = createScalingStore(fakePort().port);
    store.getState().cpusTyped('0,999,abc');
    store.getState().planChanged({ seconds: -5 });
    store.getState().planChanged({ repeat: 100000 });
    expect(store.getState().planErrors).toEqual([
      'CPU counts are whole numbers from 1 to 64, not 0, 999, abc',
      'a run lasts more than 0 and at most 60 s',
      'repeat each run 1 to 20 times',
    ]);
    expect(store.getState().message).toBe(
      'Cannot run yet: CPU counts are whole numbers from 1 to 64, not 0, 999, abc; a run lasts more than 0 and at most 60 s; repeat each run 1 to 20 times.',
    );
    // Fixed, one by one: the status is Ready again.
    store.getState().cpusTyped('1,2');
    store.getState().planChanged({ seconds: 1, repeat: 3 });
    expect(store.getState().planErrors).toEqual([]);
    expect(store.getState().message).toBe('Ready: choose what to measure and press Run sweep.');
  });

  it('checks the load before a sweep, and keeps what it found for the page to judge by', async () => {
    const { port, next } = fakePort(undefined, 0.4);
    const store = createScalingStore(port);
    store.getState().planChanged(PLAN);
    const run = store.getState().runRequested();
    for (let i = 0; i < 4; i++) await next();
    await run;
    expect(store.getState().phase).toBe('done');
    expect(store.getState().load).toMatchObject({ cpus: 4, alone: 1000, each: 400, share: 0.4 });
  });

  it('Check the load runs the check alone and says what it found', async () => {
    const store = createScalingStore(fakePort(undefined, 0.4).port);
    const check = store.getState().loadCheckRequested();
    expect(store.getState().checkingLoad).toBe(true);
    expect(store.getState().message).toBe('Checking how busy the cores are…');
    await check;
    expect(store.getState().checkingLoad).toBe(false);
    expect(store.getState().phase).toBe('idle');
    expect(store.getState().message).toBe(
      'Load checked: one per-CPU counter alone ran 1000 adds/s; 4 at once ran 400 each (40 % of alone).',
    );
  });
});
