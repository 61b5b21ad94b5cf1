// `npm run bench -- --native --pairs N`: the lab and C in turns, one row at a time, so that each
// ratio compares two runs a few seconds apart. This machine's host slows an IPC-bound loop by
// up to 2× for about a second at a time (C's per-CPU loop, at a steady 3.6 GHz, runs at about
// 1.0 G or 1.8 G adds a second from one second to the next; its latency-bound atomic stays within
// 3 %), so C ÷ lab from two medians measured a minute apart can land anywhere between the two
// phases. A round here measures each row (algorithm × CPUs × tier) as one lab run then one C run;
// each round gives a C ÷ lab per row and a per-CPU ÷ atomic ratio of ratios per CPU count, and the
// tables give their medians and ranges over the rounds.

import type { SweepPlan } from '../src/live/scaling/plan.ts';
import type { SweepReport } from '../src/live/scaling/measure.ts';
import type { Tier } from '../src/live/engine/engine.ts';
import { NATIVE_ALGORITHMS, type NativeAlgorithm, spread, type Yardstick } from './native.ts';

/** One row's runs over the rounds, in order: the lab's adds per second and C's. */
export interface PairedRow {
  readonly algorithm: NativeAlgorithm;
  readonly cpus: number;
  readonly tier: Tier;
  readonly lab: number[];
  readonly c: number[];
}

/**
 * Runs `rounds` rounds of every row the plan and the yardstick share: the lab's sweep of that one
 * row (one repetition, the plan's seconds after its warm-up), then C for the same seconds.
 */
export async function pairedRounds(
  sweep: (plan: SweepPlan) => Promise<SweepReport>,
  yardstick: Yardstick,
  plan: SweepPlan,
  rounds: number,
  told: (line: string) => void,
): Promise<PairedRow[]> {
  const rows: PairedRow[] = [];
  for (const algorithm of NATIVE_ALGORITHMS) {
    if (!plan.scenarios.includes(algorithm)) continue;
    for (const cpus of plan.cpus) {
      for (const tier of plan.tiers) rows.push({ algorithm, cpus, tier, lab: [], c: [] });
    }
  }
  for (let r = 0; r < rounds; r++) {
    told(`bench: paired round ${String(r + 1)} of ${String(rounds)}`);
    for (const row of rows) {
      const report = await sweep({
        ...plan,
        scenarios: [row.algorithm],
        cpus: [row.cpus],
        tiers: [row.tier],
        layouts: ['padded'],
        summers: ['none'],
        engines: ['compiled'],
        repeat: 1,
      });
      const lab = report.results.find((x) => x.scenario === row.algorithm);
      if (!lab) throw new Error(`the sweep measured no ${row.algorithm}`);
      row.lab.push(lab.opsPerSecond.median);
      row.c.push(yardstick.run(row.algorithm, row.cpus, plan.seconds));
    }
  }
  return rows;
}

/** The median, then the range: "1.26 (1.04–1.31)", with `unit` after the median. */
const range = (xs: readonly number[], unit = '') => {
  const s = spread(xs);
  return `${s.median.toFixed(2)}${unit} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
};

/** C ÷ lab per row: the median of the rounds' ratios, and their range. */
export function pairedTable(rows: readonly PairedRow[]): string {
  return [
    '| algorithm | CPUs | tier | C ÷ lab, median of rounds (range) |',
    '|---|---|---|---|',
    ...rows.map((row) => {
      const ratios = row.c.map((c, i) => c / (row.lab[i] as number));
      return `| ${row.algorithm} | ${String(row.cpus)} | ${row.tier} | ${range(ratios, '×')} |`;
    }),
  ].join('\n');
}

/**
 * Per-CPU ÷ atomic, the lab's ÷ C's, per CPU count and tier: each round's four runs give one
 * ratio of ratios; the median of the rounds and their range.
 */
export function pairedRatioTable(rows: readonly PairedRow[]): string {
  const lines = [
    "| CPUs | tier | lab's per-CPU ÷ atomic ÷ C's, median of rounds (range) |",
    '|---|---|---|',
  ];
  for (const p of rows.filter((x) => x.algorithm === 'percpu-classic')) {
    const a = rows.find(
      (x) => x.algorithm === 'global-atomic' && x.cpus === p.cpus && x.tier === p.tier,
    );
    if (!a) continue;
    const each = p.lab.map((lab, i) => {
      const labRatio = lab / (a.lab[i] as number);
      const cRatio = (p.c[i] as number) / (a.c[i] as number);
      return labRatio / cRatio;
    });
    lines.push(`| ${String(p.cpus)} | ${p.tier} | ${range(each)} |`);
  }
  return lines.join('\n');
}
