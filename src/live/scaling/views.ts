// What each Scaling chart shows, from a sweep's results: plain data (charts/ draws it). Each view
// compares like with like, so no chart mixes layouts, summers, engines or tiers by accident.

import type { SweepResult } from './measure.ts';
import { summerText, type Summer } from './plan.ts';

export interface ViewPoint {
  readonly x: number;
  readonly y: number;
  readonly lo: number;
  readonly hi: number;
}

export interface ViewSeries {
  /** The scenario id (and the engine and tier, when more than one was measured). */
  readonly key: string;
  readonly scenario: string;
  readonly label: string;
  readonly points: readonly ViewPoint[];
}

/**
 * Results one chart can compare: one layout and one summer (padded and none where they were
 * measured) and, with `oneEngine`, one engine and tier (compiled and bare where measured).
 */
export function comparable(results: readonly SweepResult[], oneEngine = false): SweepResult[] {
  const pick = <K extends 'layout' | 'summer' | 'engine' | 'tier'>(
    key: K,
    wanted: SweepResult[K],
    among: readonly SweepResult[] = results,
  ) => (among.some((r) => r[key] === wanted) ? wanted : among[0]?.[key]);
  const layout = pick('layout', 'padded');
  const summer = pick('summer', 'none');
  const engine = pick('engine', 'compiled');
  const tier = pick(
    'tier',
    'bare',
    results.filter((r) => r.engine === engine),
  );
  return results.filter(
    (r) =>
      r.layout === layout &&
      r.summer === summer &&
      (!oneEngine || (r.engine === engine && r.tier === tier)),
  );
}

/** What ran a result: the engine, and the tier of a compiled one ("compiled, bare"). */
export function runnerOf(r: Pick<SweepResult, 'engine' | 'tier'>): string {
  return r.engine === 'compiled' ? `${r.engine}, ${r.tier}` : r.engine;
}

function seriesOf(
  results: readonly SweepResult[],
  y: (r: SweepResult, all: readonly SweepResult[]) => ViewPoint | null,
): ViewSeries[] {
  const both = new Set(results.map(runnerOf)).size > 1;
  const keys = [...new Set(results.map((r) => `${r.scenario}|${runnerOf(r)}`))];
  return keys.map((key) => {
    const [scenario = '', runner = ''] = key.split('|');
    const mine = results.filter((r) => r.scenario === scenario && runnerOf(r) === runner);
    return {
      key: both ? `${scenario} (${runner})` : scenario,
      scenario,
      label: both ? `${scenario} (${runner})` : scenario,
      points: mine.map((r) => y(r, mine)).filter((p): p is ViewPoint => p !== null),
    };
  });
}

/** Adds per second of all CPUs against CPUs: medians, with the min–max band. */
export function throughputView(results: readonly SweepResult[]): ViewSeries[] {
  return seriesOf(comparable(results), (r) => ({
    x: r.cpus,
    y: r.opsPerSecond.median,
    lo: r.opsPerSecond.min,
    hi: r.opsPerSecond.max,
  }));
}

/**
 * Per-CPU efficiency: adds/s per CPU with n CPUs as a share of what one CPU does alone (1: every
 * CPU adds as fast as a lone one; 0.25: a shared line costs three quarters). Needs 1 CPU measured.
 */
export function efficiencyView(results: readonly SweepResult[]): ViewSeries[] {
  return seriesOf(comparable(results), (r, mine) => {
    const one = mine.find((x) => x.cpus === 1)?.opsPerSecond.median;
    if (!one) return null;
    const e = (v: number) => v / (r.cpus * one);
    return {
      x: r.cpus,
      y: e(r.opsPerSecond.median),
      lo: e(r.opsPerSecond.min),
      hi: e(r.opsPerSecond.max),
    };
  }).filter((s) => s.points.length > 0);
}

export interface GroupView {
  readonly cpus: number;
  readonly series: readonly string[];
  readonly groups: readonly {
    readonly category: string;
    readonly values: readonly (number | null)[];
  }[];
}

/** Padded against packed slots, per algorithm, at the most CPUs measured with both. */
export function layoutView(results: readonly SweepResult[]): GroupView | null {
  const first = results[0];
  const compiled = results.filter(
    (r) => first && runnerOf(r) === runnerOf(first) && r.summer === 'none',
  );
  const withBoth = compiled.filter(
    (r) =>
      r.layout === 'padded' &&
      compiled.some((x) => x.layout === 'packed' && x.scenario === r.scenario && x.cpus === r.cpus),
  );
  if (withBoth.length === 0) return null;
  const cpus = Math.max(...withBoth.map((r) => r.cpus));
  const at = (scenario: string, layout: string) =>
    compiled.find((r) => r.scenario === scenario && r.cpus === cpus && r.layout === layout)
      ?.opsPerSecond.median ?? null;
  const scenarios = [...new Set(withBoth.filter((r) => r.cpus === cpus).map((r) => r.scenario))];
  return {
    cpus,
    series: ['padded slots', 'packed slots'],
    groups: scenarios.map((s) => ({ category: s, values: [at(s, 'padded'), at(s, 'packed')] })),
  };
}

/**
 * Who blocks whom: the adders' throughput with no summer and with each summer measured, and the
 * summer's sums per second, per algorithm, at the most CPUs where a summer ran.
 */
export function summerView(results: readonly SweepResult[]):
  | (GroupView & {
      readonly sums: readonly {
        readonly category: string;
        readonly values: readonly (number | null)[];
      }[];
    })
  | null {
  const layout = results.some((r) => r.layout === 'padded') ? 'padded' : results[0]?.layout;
  const first = results[0];
  const mine = results.filter(
    (r) => r.layout === layout && first !== undefined && runnerOf(r) === runnerOf(first),
  );
  const summed = mine.filter((r) => r.summer !== 'none');
  if (summed.length === 0) return null;
  const cpus = Math.max(...summed.map((r) => r.cpus));
  const summers = [...new Set(summed.map((r) => r.summer))];
  const scenarios = [...new Set(summed.filter((r) => r.cpus === cpus).map((r) => r.scenario))];
  const find = (s: string, summer: Summer) =>
    mine.find((r) => r.scenario === s && r.cpus === cpus && r.summer === summer);
  return {
    cpus,
    series: ['no summer', ...summers.map((s) => `${summerText(s)} summer`)],
    groups: scenarios.map((s) => ({
      category: s,
      values: [find(s, 'none'), ...summers.map((x) => find(s, x))].map(
        (r) => r?.opsPerSecond.median ?? null,
      ),
    })),
    sums: scenarios.map((s) => ({
      category: s,
      values: summers.map((x) => find(s, x)?.sumsPerSecond ?? null),
    })),
  };
}

/** The counters whose cheap read the accuracy chart compares: percpu_counter_read() and the tree's. */
export const ACCURACY_SCENARIOS = ['percpu-classic', 'percpu-tree'];

export interface AccuracySeries {
  readonly scenario: string;
  /** What is drawn: the worst error measured, or the bound the program declares. */
  readonly kind: 'measured' | 'bound';
  readonly label: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

/**
 * The accuracy of the cheap read against CPUs: per counter of ACCURACY_SCENARIOS measured, the
 * worst distance from the exact total sampled while the CPUs added, and the bound its program
 * declares (percpu_counter_read()'s (batch − 1) × CPUs, the tree's UNDER). One engine, layout
 * and summer, as the throughput chart.
 */
export function accuracyView(results: readonly SweepResult[]): AccuracySeries[] {
  const mine = comparable(results, true).filter(
    (r) => ACCURACY_SCENARIOS.includes(r.scenario) && r.readError !== null,
  );
  return ACCURACY_SCENARIOS.flatMap((scenario): AccuracySeries[] => {
    const rs = mine.filter((r) => r.scenario === scenario).sort((a, b) => a.cpus - b.cpus);
    if (rs.length === 0) return [];
    const at = (pick: (e: { worst: number; bound: number }) => number) =>
      rs.flatMap((r) =>
        r.readError && Number.isFinite(pick(r.readError))
          ? [{ x: r.cpus, y: pick(r.readError) }]
          : [],
      );
    return [
      {
        scenario,
        kind: 'measured',
        label: `${scenario}: worst error measured`,
        points: at((e) => e.worst),
      },
      { scenario, kind: 'bound', label: `${scenario}: bound`, points: at((e) => e.bound) },
    ];
  });
}
