// The Scaling sweep's plan, headline and exports, on hand-made results (measuring is tested on
// real threads in src/cli/cli.live.test.ts and in the browser end to end).

import { describe, expect, it } from 'vitest';
import { reportCsv, reportJson, reportMarkdown } from './export.ts';
import { headline } from './headline.ts';
import type { SweepReport, SweepResult } from './measure.ts';
import { median } from './measure.ts';
import {
  defaultPlan,
  parseSummer,
  parseCpuCounts,
  planProblem,
  planSeconds,
  scalingScenarios,
  sweepPoints,
} from './plan.ts';
import { accuracyView } from './views.ts';

function result(
  scenario: string,
  cpus: number,
  ops: number,
  more: Partial<SweepResult> = {},
): SweepResult {
  return {
    scenario,
    params: { cpus },
    cpus,
    layout: 'padded',
    summer: 'none',
    engine: 'compiled',
    tier: 'exact',
    tierRan: 'exact',
    opsPerSecond: { median: ops, min: ops * 0.9, max: ops * 1.1 },
    perCpuOpsPerSecond: Array.from({ length: cpus }, () => ops / cpus),
    instructionsPerSecondPerCpu: Array.from({ length: cpus }, () => 2 * (ops / cpus)),
    spinsPerSecondPerCpu: Array.from({ length: cpus }, () => 0),
    sumsPerSecond: null,
    lost: 0,
    exact: true,
    violations: [],
    readError: null,
    ...more,
  };
}

describe('a Scaling plan', () => {
  it('by default sweeps the five classic counters and the tree over 1 to the core count, padded, no summer', () => {
    const p = defaultPlan(4);
    expect(p.scenarios.join(' ')).toBe(
      'global-atomic global-spinlock lazy-nr-files percpu-classic percpu-seq percpu-tree',
    );
    expect(p.cpus).toEqual([1, 2, 3, 4]);
    expect(planProblem(p)).toBeNull();
    expect(sweepPoints(p)).toHaveLength(24);
    expect(planSeconds(p)).toBeCloseTo(24 * 3 * (0.25 + 1 + 0.15));
  });

  it('offers every counter whose CPU count can vary, not the fixed-CPU scenarios', () => {
    expect(scalingScenarios()).toContain('percpu-modern');
    expect(scalingScenarios()).toContain('percpu-upgrade');
    expect(scalingScenarios()).not.toContain('irq-local-rmw');
    expect(scalingScenarios()).not.toContain('this-cpu-ops');
  });

  it('runs a summer only where there is a sum() and a second CPU', () => {
    const p = {
      ...defaultPlan(2),
      scenarios: ['global-atomic', 'percpu-seq'],
      summers: ['none', 'busy'] as const,
    };
    expect(
      sweepPoints(p).map((x) => `${x.scenario}@${String(x.cpus)}:${String(x.summer)}`),
    ).toEqual([
      'global-atomic@1:none',
      'global-atomic@2:none',
      'percpu-seq@1:none',
      'percpu-seq@2:none',
      'percpu-seq@2:busy',
    ]);
  });

  it('says what is wrong with a bad plan', () => {
    const p = defaultPlan(2);
    expect(planProblem({ ...p, scenarios: [] })).toMatch(/at least one algorithm/);
    expect(planProblem({ ...p, scenarios: ['nope'] })).toMatch(/no scenario 'nope'/);
    expect(planProblem({ ...p, scenarios: ['this-cpu-ops'] })).toMatch(/fixed number of CPUs/);
    expect(planProblem({ ...p, cpus: [0] })).toMatch(/1 to 64/);
    expect(planProblem({ ...p, layouts: [] })).toMatch(/padded slots, packed slots, or both/);
    expect(planProblem({ ...p, seconds: 0 })).toMatch(/more than 0/);
    expect(planProblem({ ...p, repeat: 1.5 })).toMatch(/1 to 20/);
    expect(planProblem({ ...p, summers: [0] })).toMatch(/period is 1 to/);
  });

  it('reads a summer as none, busy or a period in µs', () => {
    expect(parseSummer('none')).toBe('none');
    expect(parseSummer(' busy ')).toBe('busy');
    expect(parseSummer('1000')).toBe(1000);
    expect(parseSummer('soon')).toBeNull();
  });

  it('takes the median of an odd or even number of runs', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('the headline', () => {
  it('compares the fastest algorithm with atomic_inc on one shared word at the most CPUs', () => {
    const h = headline([
      result('global-atomic', 1, 160e6),
      result('global-atomic', 2, 80e6),
      result('percpu-classic', 2, 500e6),
      result('lazy-nr-files', 2, 400e6),
    ]);
    expect(h).toBe(
      'With 2 CPUs, percpu_counter_add (2.6.39) ran 6.3× the adds per second of atomic_inc on one shared word.',
    );
  });

  it('compares with the slowest when atomic_inc was not measured, and says when the fastest lost updates', () => {
    const h = headline([
      result('global-plain', 2, 600e6, { exact: false, lost: 5, violations: ['no-lost-update'] }),
      result('global-spinlock', 2, 20e6),
    ]);
    expect(h).toBe(
      'With 2 CPUs, nr_files++ on one shared word (racy) ran 30× the adds per second of nr_files++ under one spinlock (but it lost updates).',
    );
  });

  it('compares like with like: padded slots, no summer and the compiled engine', () => {
    const h = headline([
      result('global-atomic', 2, 80e6),
      result('percpu-classic', 2, 160e6),
      result('percpu-classic', 2, 999e6, { layout: 'packed' }),
      result('percpu-classic', 2, 999e6, { engine: 'interpreted' }),
    ]);
    expect(h).toMatch(/ran 2\.0× /);
  });

  it('has nothing to say about one algorithm', () => {
    expect(headline([result('global-atomic', 2, 80e6)])).toBeNull();
    expect(headline([])).toBeNull();
  });
});

describe('exports', () => {
  const report: SweepReport = {
    machine: { cores: 2, runtime: 'Node v20' },
    settings: { seconds: 1, warmupSeconds: 0.25, repeat: 3, preset: 'kernel' },
    results: [
      result('global-atomic', 2, 80e6),
      result('percpu-seq', 2, 300e6, { summer: 'busy', sumsPerSecond: 1.5e6, violations: ['x,y'] }),
    ],
    cancelled: false,
  };

  it('JSON has the documented shape', () => {
    const doc = JSON.parse(reportJson(report)) as SweepReport;
    expect(Object.keys(doc)).toEqual([
      'machine',
      'settings',
      'results',
      'cancelled',
      'headline',
      'probe',
    ]);
    expect(doc.results[0]).toMatchObject({ scenario: 'global-atomic', cpus: 2, layout: 'padded' });
  });

  it('CSV has one row per combination, quoting what needs quotes', () => {
    const lines = reportCsv(report).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^scenario,cpus,layout,summer,engine,tier,ops_per_second_median/);
    expect(lines[1]).toMatch(
      /^global-atomic,2,padded,none,compiled,exact,80000000,72000000,88000000,/,
    );
    expect(lines[2]).toContain(',busy,');
    expect(lines[2]).toContain(',1500000,');
    expect(lines[2]).toContain('"x,y"');
  });

  it('Markdown is a table people can paste', () => {
    const md = reportMarkdown(report).split('\n');
    expect(md[0]).toBe(
      '| Algorithm | CPUs | Slots | Summer | Tier | Adds/s median (min–max) | Sums/s | Instructions/s per CPU | Read error worst / bound | Verdict |',
    );
    expect(md[2]).toBe(
      '| global-atomic | 2 | padded | none | exact | 80.00 M (72.00 M–88.00 M) | – | 80.00 M, 80.00 M | – | exact |',
    );
    expect(md[3]).toContain('| 1.50 M |');
  });
});

describe('CPU counts as typed', () => {
  it('names every bad entry as it was typed, and keeps the good ones', () => {
    expect(parseCpuCounts('0,abc,99')).toEqual({
      counts: [],
      problem: 'CPU counts are whole numbers from 1 to 64, not 0, abc, 99',
    });
    expect(parseCpuCounts(' 1, 2 ,x,4')).toEqual({
      counts: [1, 2, 4],
      problem: 'CPU counts are whole numbers from 1 to 64, not x',
    });
    expect(parseCpuCounts('1,2,4')).toEqual({ counts: [1, 2, 4], problem: null });
    expect(parseCpuCounts(' , ').problem).toBe('pick at least one CPU count');
  });
});

describe("the read's accuracy", () => {
  it('compares percpu_counter_read() with the tree, measured and bound, one engine', () => {
    const mk = (scenario: string, cpus: number, worst: number, bound: number) =>
      result(scenario, cpus, 1e6, { readError: { worst, bound } });
    const view = accuracyView([
      mk('percpu-classic', 1, 30, 31),
      mk('percpu-classic', 2, 58, 62),
      mk('percpu-tree', 2, 60, 64),
      mk('percpu-tree', 1, 0, 0),
      mk('percpu-seq', 2, 40, 62),
      result('global-atomic', 2, 1e6),
    ]);
    expect(view.map((s) => `${s.scenario} ${s.kind}`)).toEqual([
      'percpu-classic measured',
      'percpu-classic bound',
      'percpu-tree measured',
      'percpu-tree bound',
    ]);
    expect(view[2]?.points).toEqual([
      { x: 1, y: 0 },
      { x: 2, y: 60 },
    ]);
    expect(view[3]?.points.map((p) => p.y)).toEqual([0, 64]);
    expect(accuracyView([result('global-atomic', 2, 1e6)])).toEqual([]);
  });
});
