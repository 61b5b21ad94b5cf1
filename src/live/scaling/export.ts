// A sweep's report as files and text people take elsewhere: JSON (the CLI's --json shape), CSV
// for spreadsheets, and a Markdown table for an issue or a lecture's notes.

import { formatRate } from '../format.ts';
import type { ProbeResult } from '../probe.ts';
import { headline } from './headline.ts';
import type { SweepReport, SweepResult } from './measure.ts';
import { summerText } from './plan.ts';

/** The report as `lab bench --json` prints it: with the headline and the visibility probe. */
export function reportDocument(report: SweepReport, probe: ProbeResult | null) {
  return { ...report, headline: headline(report.results), probe };
}

export function reportJson(report: SweepReport, probe: ProbeResult | null = null): string {
  return JSON.stringify(reportDocument(report, probe), null, 2);
}

const CSV_COLUMNS = [
  'scenario',
  'cpus',
  'layout',
  'summer',
  'engine',
  'tier',
  'ops_per_second_median',
  'ops_per_second_min',
  'ops_per_second_max',
  'per_cpu_ops_per_second',
  'instructions_per_second_per_cpu',
  'spins_per_second_per_cpu',
  'sums_per_second',
  'lost',
  'exact',
  'violations',
  'read_error_worst',
  'read_error_bound',
];

function csvCell(v: string | number | boolean | null): string {
  const t = v === null ? '' : String(v);
  return /[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

const round = (v: number) => Math.round(v);

export function reportCsv(report: SweepReport): string {
  const rows = report.results.map((r) =>
    [
      r.scenario,
      r.cpus,
      r.layout,
      summerText(r.summer),
      r.engine,
      r.tierRan ?? r.tier,
      round(r.opsPerSecond.median),
      round(r.opsPerSecond.min),
      round(r.opsPerSecond.max),
      r.perCpuOpsPerSecond.map(round).join(';'),
      r.instructionsPerSecondPerCpu.map(round).join(';'),
      r.spinsPerSecondPerCpu.map(round).join(';'),
      r.sumsPerSecond === null ? null : round(r.sumsPerSecond),
      r.lost,
      r.exact,
      r.violations.join(';'),
      r.readError?.worst ?? null,
      r.readError && Number.isFinite(r.readError.bound) ? r.readError.bound : null,
    ]
      .map(csvCell)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n';
}

function verdict(r: SweepResult): string {
  if (r.exact) return r.violations.length ? `exact; broke ${r.violations.join(', ')}` : 'exact';
  return `lost ${r.lost.toLocaleString('en-US')}${r.violations.length ? `; broke ${r.violations.join(', ')}` : ''}`;
}

/** The rows people read: one per combination, rates rounded for reading. */
export function reportRows(report: SweepReport): string[][] {
  return report.results.map((r) => [
    r.scenario,
    String(r.cpus),
    r.layout,
    summerText(r.summer),
    r.tierRan ?? r.tier,
    `${formatRate(r.opsPerSecond.median)} (${formatRate(r.opsPerSecond.min)}–${formatRate(r.opsPerSecond.max)})`,
    r.sumsPerSecond === null ? '–' : formatRate(r.sumsPerSecond),
    // The bare tier counts operations, not instructions.
    r.tierRan === 'bare' ? '–' : r.instructionsPerSecondPerCpu.map(formatRate).join(', '),
    readErrorText(r),
    verdict(r),
  ]);
}

/** "124 / 124": the read's worst sampled error and its bound; "–" without a read. */
function readErrorText(r: SweepResult): string {
  if (!r.readError) return '–';
  const bound = Number.isFinite(r.readError.bound) ? String(r.readError.bound) : 'none';
  return `${String(r.readError.worst)} / ${bound}`;
}

export const ROW_HEADINGS = [
  'Algorithm',
  'CPUs',
  'Slots',
  'Summer',
  'Tier',
  'Adds/s median (min–max)',
  'Sums/s',
  'Instructions/s per CPU',
  'Read error worst / bound',
  'Verdict',
];

export function reportMarkdown(report: SweepReport): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(ROW_HEADINGS),
    line(ROW_HEADINGS.map(() => '---')),
    ...reportRows(report).map(line),
  ].join('\n');
}
