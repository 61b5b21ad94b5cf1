// The native yardstick (bench/native/counters.c), built and run in the same sitting as the lab's
// sweep, so a ratio between the two means something on this machine (another host, another
// ratio). Used by `npm run bench -- --native`; `npm run bench:native` prints its figures alone.
//
//   npm run bench:native -- [--cpus 1,2] [--seconds S] [--repeat R]

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Spread, SweepReport, SweepResult } from '../src/live/scaling/measure.ts';
import { TIERS, type Tier } from '../src/live/engine/engine.ts';

/** The lab's algorithms the yardstick has in C. */
export const NATIVE_ALGORITHMS = ['global-atomic', 'percpu-classic'] as const;
export type NativeAlgorithm = (typeof NATIVE_ALGORITHMS)[number];

export interface NativeResult {
  readonly algorithm: NativeAlgorithm;
  readonly threads: number;
  /** Adds per second over all threads, over the repetitions. */
  readonly opsPerSecond: Spread;
}

const SOURCE = fileURLToPath(new URL('./native/counters.c', import.meta.url));

/** The first C compiler that answers (cc, gcc, clang), or null. */
export function findCompiler(): string | null {
  for (const cc of ['cc', 'gcc', 'clang']) {
    if (spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0) return cc;
  }
  return null;
}

/** The kernel's batch for `cpus` CPUs, as the lab's kernel preset sets it: max(32, 2 × cpus). */
export function kernelBatch(cpus: number): number {
  return Math.max(32, 2 * cpus);
}

export function spread(xs: readonly number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? 0, min: s[0] ?? 0, max: s.at(-1) ?? 0 };
}

/** The yardstick built: its executable, in a temporary folder `dispose` removes. */
export interface Yardstick {
  readonly compiler: string;
  /** Adds per second, all threads, of one run of `seconds`. */
  run(algorithm: NativeAlgorithm, threads: number, seconds: number): number;
  dispose(): void;
}

/** Builds the yardstick into a temporary folder with `cc -O2 -pthread`. */
export function buildYardstick(cc: string): Yardstick {
  const dir = mkdtempSync(join(tmpdir(), 'percpu-lab-native-'));
  const exe = join(dir, 'counters');
  const built = spawnSync(cc, ['-O2', '-pthread', '-o', exe, SOURCE], { encoding: 'utf8' });
  if (built.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${cc} could not build the yardstick: ${built.stderr}`);
  }
  const version = spawnSync(cc, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? cc;
  return {
    compiler: `${version} -O2`,
    run(algorithm, threads, seconds) {
      const out = spawnSync(
        exe,
        [algorithm, String(threads), String(seconds), String(kernelBatch(threads))],
        { encoding: 'utf8' },
      );
      const ops = Number(out.stdout.trim().split(/\s+/)[2]);
      if (out.status !== 0 || !Number.isFinite(ops)) {
        throw new Error(`the yardstick failed: ${out.stderr || out.stdout}`);
      }
      return ops;
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs each algorithm with each thread count `repeat` times for `seconds`. */
export function runNative(
  yardstick: Yardstick,
  cpus: readonly number[],
  seconds: number,
  repeat: number,
): NativeResult[] {
  const results: NativeResult[] = [];
  for (const algorithm of NATIVE_ALGORITHMS) {
    for (const threads of cpus) {
      const runs = Array.from({ length: repeat }, () => yardstick.run(algorithm, threads, seconds));
      results.push({ algorithm, threads, opsPerSecond: spread(runs) });
    }
  }
  return results;
}

const fmt = (x: number) =>
  x >= 1e9 ? `${(x / 1e9).toFixed(2)} G` : x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : x.toFixed(0);
const band = (s: Spread) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;

/** The lab's median adds per second for one algorithm, CPU count and tier (padded, no summer). */
function labRate(
  report: SweepReport,
  algorithm: string,
  cpus: number,
  tier: Tier,
): SweepResult | null {
  return (
    report.results.find(
      (r) =>
        r.scenario === algorithm &&
        r.cpus === cpus &&
        r.engine === 'compiled' &&
        r.tier === tier &&
        r.layout === 'padded' &&
        r.summer === 'none',
    ) ?? null
  );
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');

/**
 * C ÷ lab of the medians, then of the best runs. This machine's host slows a core's IPC-bound
 * loop for seconds at a time (C's own per-CPU figure runs at about 1.0 G or 1.8 G adds a second
 * at one clock, 3.6 GHz, while its latency-bound atomic stays within 3 %), so the medians of two
 * programs measured a minute apart can fall on different sides of it. Each side's best run is
 * the one the host disturbed least: their ratio is the steadier comparison of the two programs.
 */
const ratios = (c: Spread, lab: Spread) =>
  `${ratio(c.median, lab.median)} (best ${ratio(c.max, lab.max)})`;

/**
 * The lab's compiled CPUs against C, per algorithm and CPU count the sweep and the yardstick
 * share, in each tier the sweep measured: adds per second (median, min–max) and C ÷ lab of the
 * medians and of the best runs. The lab's rows are its padded layout with no summer, as the
 * yardstick runs.
 */
export function nativeTable(report: SweepReport, native: readonly NativeResult[]): string {
  const tiers = TIERS.filter((t) => report.results.some((r) => r.tier === t));
  const rows = [
    `| algorithm | CPUs | ${tiers.map((t) => `lab, ${t}: adds/s`).join(' | ')} | C: adds/s | ${tiers.map((t) => `C ÷ lab ${t}`).join(' | ')} |`,
    `|---|---|${tiers.map(() => '---|').join('')}---|${tiers.map(() => '---|').join('')}`,
  ];
  for (const n of native) {
    const labs = tiers.map((t) => labRate(report, n.algorithm, n.threads, t));
    if (labs.every((l) => l === null)) continue;
    rows.push(
      `| ${n.algorithm} | ${String(n.threads)} | ${labs.map((l) => (l ? band(l.opsPerSecond) : '–')).join(' | ')} | ${band(n.opsPerSecond)} | ${labs.map((l) => (l ? ratios(n.opsPerSecond, l.opsPerSecond) : '–')).join(' | ')} |`,
    );
  }
  return rows.join('\n');
}

/**
 * Why per-CPU counters exist, as each side measures it: percpu-classic ÷ global-atomic adds per
 * second at each CPU count, for C and for each tier of the lab, and the lab's ratio ÷ C's; of the
 * medians, then of the best runs (see `ratios`).
 */
export function ratioTable(report: SweepReport, native: readonly NativeResult[]): string {
  const tiers = TIERS.filter((t) => report.results.some((r) => r.tier === t));
  const [percpu, atomic] = ['percpu-classic', 'global-atomic'] as const;
  const rows = [
    `| CPUs | C: per-CPU ÷ atomic | ${tiers.map((t) => `lab ${t}: per-CPU ÷ atomic | lab ${t} ÷ C`).join(' | ')} |`,
    `|---|---|${tiers.map(() => '---|---|').join('')}`,
  ];
  const counts = [...new Set(native.map((n) => n.threads))];
  const two = (a: number, b: number) =>
    Number.isFinite(a) ? `${a.toFixed(2)} (best ${b.toFixed(2)})` : '–';
  for (const cpus of counts) {
    const c = (a: string) =>
      native.find((n) => n.algorithm === a && n.threads === cpus)?.opsPerSecond;
    const cp = c(percpu);
    const ca = c(atomic);
    const cRatio = cp && ca && ca.median > 0 ? cp.median / ca.median : NaN;
    const cBest = cp && ca && ca.max > 0 ? cp.max / ca.max : NaN;
    const cells = tiers.map((t) => {
      const p = labRate(report, percpu, cpus, t)?.opsPerSecond;
      const a = labRate(report, atomic, cpus, t)?.opsPerSecond;
      if (!p || !a || p.median <= 0 || a.median <= 0) return '– | –';
      const lab = p.median / a.median;
      const labBest = p.max / a.max;
      return `${two(lab, labBest)} | ${two(lab / cRatio, labBest / cBest)}`;
    });
    rows.push(`| ${String(cpus)} | ${two(cRatio, cBest)} | ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}

/** The yardstick's own figures, as a table. */
export function nativeOnly(native: readonly NativeResult[]): string {
  return [
    '| algorithm | threads | C: adds/s |',
    '|---|---|---|',
    ...native.map((n) => `| ${n.algorithm} | ${String(n.threads)} | ${band(n.opsPerSecond)} |`),
  ].join('\n');
}

function main(): void {
  const { values } = parseArgs({
    options: {
      cpus: { type: 'string', default: '1,2' },
      seconds: { type: 'string', default: '1' },
      repeat: { type: 'string', default: '3' },
    },
  });
  const cc = findCompiler();
  if (!cc) {
    console.error('bench:native: no C compiler (cc, gcc or clang) on this machine');
    process.exitCode = 1;
    return;
  }
  const cpus = values.cpus.split(',').map(Number);
  if (cpus.some((c) => !Number.isInteger(c) || c < 1 || c > 64)) {
    console.error(`bench:native: --cpus takes counts from 1 to 64, got '${values.cpus}'`);
    process.exitCode = 2;
    return;
  }
  const yardstick = buildYardstick(cc);
  try {
    const results = runNative(yardstick, cpus, Number(values.seconds), Number(values.repeat));
    console.log(`${yardstick.compiler}; ${values.seconds} s a run, ${values.repeat} runs each\n`);
    console.log(nativeOnly(results));
  } finally {
    yardstick.dispose();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
