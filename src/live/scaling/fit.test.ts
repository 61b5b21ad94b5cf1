// Whether a sweep can show scaling here, judged from the cores, the load check and what the sweep
// measured: made-up figures (the review's 2-core machine's among them), no CPU worker.

import { describe, expect, it } from 'vitest';
import type { SweepReport, SweepResult } from './measure.ts';
import { defaultPlan } from './plan.ts';
import { loadCheckOf, loadCheckPlan, planFit, remedies, sweepFit, type LoadCheck } from './fit.ts';

/** A measured point: `median` adds/s over all CPUs, the runs from `min` to `max`. */
function point(
  scenario: string,
  cpus: number,
  median: number,
  min = median,
  max = median,
): SweepResult {
  return {
    scenario,
    cpus,
    layout: 'padded',
    summer: 'none',
    engine: 'compiled',
    tier: 'bare',
    params: {},
    opsPerSecond: { median, min, max },
    perCpuOpsPerSecond: [],
    instructionsPerSecondPerCpu: [],
    spinsPerSecondPerCpu: [],
    sumsPerSecond: null,
    lost: 0,
    exact: true,
    violations: [],
    readError: null,
    tierRan: 'bare',
  };
}

const M = 1e6;
const load = (share: number): LoadCheck => ({
  cpus: 2,
  alone: 120 * M,
  each: 120 * M * share,
  share,
  at: 0,
});

describe('before a sweep', () => {
  it('marks CPU counts beyond the cores as time-sharing, and offers the counts that fit', () => {
    const fit = planFit({ ...defaultPlan(2), cpus: [1, 2, 4] }, 2, null);
    expect(fit.oversubscribed).toEqual([4]);
    expect(fit.withinCores).toEqual([1, 2]);
    expect(fit.reasons[0]).toBe(
      '4 CPUs is more than this machine’s 2 cores: there the CPUs take turns on the cores, so that point measures time-sharing, not scaling (marked on the charts).',
    );
    expect(fit.reasons[1]).toMatch(/^With 2 cores the sweep has one step to show \(1 → 2 CPUs\)/);
    expect(remedies(fit)[0]).toBe(
      'CPU counts no higher than the cores (2 here): every CPU then has a core of its own.',
    );
  });

  it('says a busy machine cannot show scaling, with the load check’s figures', () => {
    const fit = planFit(defaultPlan(2), 2, load(0.375));
    expect(fit.cannotShow).toBe(true);
    expect(fit.reasons.at(-1)).toBe(
      'The load check found the cores busy: one per-CPU counter alone ran 120.00 M adds/s; 2 at once ran 45.00 M each (38 % of alone). This machine does not run 2 CPUs side by side at full speed (other work on it, or cores that share hardware), so per-CPU counters cannot look as if they scale here, and a shared atomic can look better than it is.',
    );
    const offered = remedies(fit);
    expect(offered[0]).toMatch(/^A quiet machine: /);
    // No recorded sweep from a larger machine comes with the lab: it says how to record one.
    expect(offered[1]).toMatch(
      /^A machine with more cores\. The lab comes with no sweep measured on a larger machine; to record one there, build the lab and run /,
    );
  });

  it('has nothing to hold against a quiet machine of eight cores asked for 1 to 8 CPUs', () => {
    const fit = planFit({ ...defaultPlan(8), cpus: [1, 2, 4, 8] }, 8, { ...load(0.95), cpus: 8 });
    expect(fit).toMatchObject({ cannotShow: false, reasons: [], oversubscribed: [] });
    expect(remedies(fit)).toEqual([]);
  });

  it('says one core can show no scaling at all', () => {
    const fit = planFit(defaultPlan(1), 1, null);
    expect(fit.cannotShow).toBe(true);
    expect(fit.reasons[0]).toMatch(/^This machine reports 1 core: /);
    expect(loadCheckPlan(1)).toBeNull();
  });
});

describe('the load check', () => {
  it('runs a per-CPU counter alone and on every core at once, and compares each with alone', () => {
    expect(loadCheckPlan(2)?.cpus).toEqual([1, 2]);
    expect(loadCheckPlan(64)?.cpus).toEqual([1, 8]);
    const report: SweepReport = {
      machine: { cores: 2, runtime: 'a test' },
      settings: { seconds: 0.25, warmupSeconds: 0.1, repeat: 2, preset: 'kernel' },
      results: [point('percpu-classic', 1, 100 * M), point('percpu-classic', 2, 90 * M)],
      cancelled: false,
    };
    expect(loadCheckOf(report, 7)).toEqual({
      cpus: 2,
      alone: 100 * M,
      each: 45 * M,
      share: 0.45,
      at: 7,
    });
  });
});

describe('after a sweep', () => {
  // The review's sweep on a busy 2-core machine: the atomic rose from 1 to 2 CPUs, the per-CPU
  // counters fell (medians of 3 runs).
  const busy = [
    point('global-atomic', 1, 48.1 * M),
    point('global-atomic', 2, 59.6 * M),
    point('lazy-nr-files', 1, 53.5 * M),
    point('lazy-nr-files', 2, 46.6 * M),
    point('percpu-classic', 1, 120.8 * M),
    point('percpu-classic', 2, 91.2 * M),
    point('percpu-tree', 1, 127.1 * M),
    point('percpu-tree', 2, 53.9 * M),
  ];

  it('says the per-CPU counters did not scale, so the charts show the machine, not the algorithms', () => {
    const fit = sweepFit(busy, 2, null);
    expect(fit.cannotShow).toBe(true);
    expect(fit.reasons.at(-1)).toBe(
      'Even the per-CPU counters, whose CPUs share almost nothing, did not scale here: the best, lazy-nr-files, kept 44 % of one CPU’s rate per CPU with 2 CPUs. The cores did not run the CPUs side by side, so the charts show this machine’s limits, not the algorithms’: per-CPU counters fall, and a shared atomic can rank as the most efficient.',
    );
    expect(remedies(fit).map((r) => r.split(':')[0])).toEqual([
      'A quiet machine',
      'A machine with more cores. The lab comes with no sweep measured on a larger machine; to record one there, build the lab and run npm run -s bench -- --cpus 1,2,4,8 --json > sweep.json (or Run sweep on this page and Export JSON)',
    ]);
  });

  it('says so when repeated runs of one point disagree', () => {
    const fit = sweepFit(
      [
        point('percpu-classic', 1, 100 * M, 95 * M, 105 * M),
        point('percpu-classic', 2, 190 * M, 60 * M, 200 * M),
      ],
      2,
      null,
    );
    expect(fit.cannotShow).toBe(true);
    expect(fit.reasons.at(-1)).toBe(
      'Repeated runs disagreed: percpu-classic on 2 CPUs ran from 60.00 M to 200.00 M adds/s, a spread of 74 % of its median. The machine’s load moved under the sweep.',
    );
  });

  it('finds nothing to hold against a sweep whose per-CPU counters scaled, within the cores', () => {
    const fit = sweepFit(
      [
        point('global-atomic', 1, 170 * M),
        point('global-atomic', 4, 60 * M),
        point('percpu-classic', 1, 300 * M),
        point('percpu-classic', 4, 1100 * M),
      ],
      8,
      null,
    );
    expect(fit).toMatchObject({ cannotShow: false, reasons: [] });
  });

  it('judges efficiency at the most CPUs within the cores, not at oversubscribed points', () => {
    const fit = sweepFit(
      [
        point('percpu-classic', 1, 300 * M),
        point('percpu-classic', 2, 560 * M),
        point('percpu-classic', 4, 500 * M),
      ],
      2,
      null,
    );
    expect(fit.cannotShow).toBe(false);
    expect(fit.oversubscribed).toEqual([4]);
  });
});
