// Whether a Scaling sweep can show scaling on this machine, and what would. A sweep measures
// the machine as much as the algorithms: CPUs beyond the cores take turns on them, and on a busy
// machine (or one whose cores share hardware) two CPUs never run side by side at full speed, so
// per-CPU counters fall from 1 to 2 CPUs and a shared atomic can look the most efficient. The page
// says so before a sweep (from the plan, the cores and a short load check) and after it (from
// what the sweep itself measured), and offers what would show scaling instead.

import { count } from '../../machine/count.ts';
import { formatRate } from '../format.ts';
import { MAX_LIVE_CPUS } from '../specs.ts';
import type { SweepReport, SweepResult } from './measure.ts';
import type { SweepPlan } from './plan.ts';
import { comparable } from './views.ts';

/**
 * Below this share of one CPU's rate alone, CPUs that share (almost) nothing did not run side by
 * side: the machine is busy, or its cores share hardware. Quiet, a per-CPU counter keeps about
 * 0.8 of its lone rate per CPU on the development machine's two cores (docs/modes.md).
 */
export const SIDE_BY_SIDE = 0.7;

/** Repetitions of one point that differ by more than this share of their median disagree. */
export const DISAGREE = 0.5;

/** What the load check runs: a per-CPU counter, whose CPUs share a line only when they fold. */
export const LOAD_CHECK_SCENARIO = 'percpu-classic';

/** The most CPUs the load check starts at once (it asks whether the cores are free, briefly). */
const LOAD_CHECK_MAX_CPUS = 8;

/** The CPUs the load check runs side by side on a machine of `cores`: all of them, up to 8. */
export function loadCheckCpus(cores: number): number {
  return Math.max(1, Math.min(cores, LOAD_CHECK_MAX_CPUS, MAX_LIVE_CPUS));
}

/**
 * The load check: a per-CPU counter on one CPU, then on every core at once, briefly (about two
 * seconds). Null on a machine of one core (there is nothing to run side by side).
 */
export function loadCheckPlan(cores: number): SweepPlan | null {
  const n = loadCheckCpus(cores);
  if (n < 2) return null;
  return {
    scenarios: [LOAD_CHECK_SCENARIO],
    cpus: [1, n],
    layouts: ['padded'],
    summers: ['none'],
    seconds: 0.25,
    warmupSeconds: 0.1,
    repeat: 2,
    engines: ['compiled'],
    tiers: ['bare'],
    preset: 'kernel',
  };
}

/** What the load check measured: one CPU alone, and each of `cpus` running at once. */
export interface LoadCheck {
  readonly cpus: number;
  /** Adds per second of one CPU alone. */
  readonly alone: number;
  /** Adds per second of each CPU, with `cpus` running at once. */
  readonly each: number;
  /** each ÷ alone: 1 when every CPU ran as fast as one alone. */
  readonly share: number;
  /** When it ran (ms since the epoch). */
  readonly at: number;
}

/** The load check's figures from its report; null if it did not measure both points. */
export function loadCheckOf(report: SweepReport, at: number): LoadCheck | null {
  const one = report.results.find((r) => r.cpus === 1)?.opsPerSecond.median ?? 0;
  const many = report.results.find((r) => r.cpus > 1);
  if (!many || one <= 0) return null;
  const each = many.opsPerSecond.median / many.cpus;
  return { cpus: many.cpus, alone: one, each, share: each / one, at };
}

/** The load check in words: "one CPU alone 120.00 M adds/s; 2 at once 45.00 M each (38 %)". */
export function loadCheckText(load: LoadCheck): string {
  return `one per-CPU counter alone ran ${formatRate(load.alone)} adds/s; ${String(load.cpus)} at once ran ${formatRate(load.each)} each (${percent(load.share)} of alone)`;
}

const percent = (v: number) => `${String(Math.round(v * 100))} %`;

/** "1, 2 and 4". */
function listed(xs: readonly number[]): string {
  const s = xs.map(String);
  return s.length < 2 ? (s[0] ?? '') : `${s.slice(0, -1).join(', ')} and ${s[s.length - 1] ?? ''}`;
}

/** Why a sweep cannot show scaling, or what to bear in mind when it can; one sentence each. */
export interface Fit {
  readonly cores: number;
  /** The sweep cannot show how the algorithms scale on this machine. */
  readonly cannotShow: boolean;
  /** Why not (or, when it can, what limits it), in sentences. */
  readonly reasons: readonly string[];
  /** CPU counts asked for that are more than the cores (marked on the charts). */
  readonly oversubscribed: readonly number[];
  /** The CPU counts asked for that fit the cores: the counts to offer instead, if any. */
  readonly withinCores: readonly number[];
  /** Say that a quiet machine would show what this one cannot. */
  readonly quieter: boolean;
}

/** What the cores and the CPU counts alone say, before anything is measured. */
function coreReasons(cpus: readonly number[], cores: number): Fit {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const over = sorted.filter((n) => n > cores);
  const within = sorted.filter((n) => n <= cores);
  const reasons: string[] = [];
  let cannotShow = false;
  if (cores < 2) {
    cannotShow = true;
    reasons.push(
      `This machine reports ${count(cores, 'core')}: every CPU count above 1 takes turns on it, so no sweep here can show scaling.`,
    );
  } else if (over.length > 0) {
    reasons.push(
      `${listed(over)} CPUs ${over.length === 1 ? 'is' : 'are'} more than this machine’s ${String(cores)} cores: there the CPUs take turns on the cores, so ${over.length === 1 ? 'that point measures' : 'those points measure'} time-sharing, not scaling (marked on the charts).`,
    );
  }
  if (cores >= 2 && within.filter((n) => n >= 2).length === 0 && sorted.length > 0) {
    cannotShow = true;
    reasons.push(
      `No CPU count asked for is between 2 and ${String(cores)}: scaling needs at least two CPUs, each on a core of its own.`,
    );
  }
  if (cores === 2 && within.includes(2))
    reasons.push(
      'With 2 cores the sweep has one step to show (1 → 2 CPUs), and the browser, this page and whatever else runs here share those two cores with the CPUs.',
    );
  return {
    cores,
    cannotShow,
    reasons,
    oversubscribed: over,
    withinCores: within,
    quieter: false,
  };
}

/** What the load check adds: CPUs that share nothing did not run side by side. */
function loadReason(load: LoadCheck): string {
  return `The load check found the cores busy: ${loadCheckText(load)}. This machine does not run ${String(load.cpus)} CPUs side by side at full speed (other work on it, or cores that share hardware), so per-CPU counters cannot look as if they scale here, and a shared atomic can look better than it is.`;
}

/** Before a sweep: the plan against the cores, and the load check if one ran. */
export function planFit(plan: SweepPlan, cores: number, load: LoadCheck | null): Fit {
  const fit = coreReasons(plan.cpus, cores);
  if (!load || load.share >= SIDE_BY_SIDE) return fit;
  return { ...fit, cannotShow: true, quieter: true, reasons: [...fit.reasons, loadReason(load)] };
}

/** Counters whose CPUs share a line only now and then (a fold): they scale where anything does. */
function perCpu(id: string): boolean {
  return id === 'lazy-nr-files' || id.startsWith('percpu-');
}

/**
 * After a sweep: the plan's reasons, the load check's, and what the sweep measured itself: the
 * per-CPU counters' efficiency (each CPU's rate as a share of one alone) at the most CPUs within
 * the cores, and how far repeated runs of one point disagreed.
 */
export function sweepFit(
  results: readonly SweepResult[],
  cores: number,
  load: LoadCheck | null,
): Fit {
  const cpus = results.map((r) => r.cpus);
  const fit = coreReasons(cpus, cores);
  const reasons = [...fit.reasons];
  let cannotShow = fit.cannotShow;
  let quieter = false;
  if (load && load.share < SIDE_BY_SIDE) {
    cannotShow = true;
    quieter = true;
    reasons.push(loadReason(load));
  }
  const like = comparable(results, true);
  const n = Math.max(0, ...like.filter((r) => r.cpus <= cores).map((r) => r.cpus));
  const efficiencies = like
    .filter((r) => perCpu(r.scenario) && r.cpus === n && n >= 2)
    .flatMap((r) => {
      const one = like.find((x) => x.scenario === r.scenario && x.cpus === 1)?.opsPerSecond.median;
      return one ? [{ r, e: r.opsPerSecond.median / (n * one) }] : [];
    })
    .sort((a, b) => b.e - a.e);
  const best = efficiencies[0];
  if (best && best.e < SIDE_BY_SIDE) {
    cannotShow = true;
    quieter = true;
    reasons.push(
      `Even the per-CPU counters, whose CPUs share almost nothing, did not scale here: the best, ${best.r.scenario}, kept ${percent(best.e)} of one CPU’s rate per CPU with ${String(n)} CPUs. The cores did not run the CPUs side by side, so the charts show this machine’s limits, not the algorithms’: per-CPU counters fall, and a shared atomic can rank as the most efficient.`,
    );
  }
  const spread = like
    .filter((r) => r.opsPerSecond.median > 0 && r.opsPerSecond.max > r.opsPerSecond.min)
    .map((r) => ({ r, s: (r.opsPerSecond.max - r.opsPerSecond.min) / r.opsPerSecond.median }))
    .sort((a, b) => b.s - a.s)[0];
  if (spread && spread.s > DISAGREE) {
    cannotShow = true;
    quieter = true;
    const { r } = spread;
    reasons.push(
      `Repeated runs disagreed: ${r.scenario} on ${count(r.cpus, 'CPU')} ran from ${formatRate(r.opsPerSecond.min)} to ${formatRate(r.opsPerSecond.max)} adds/s, a spread of ${percent(spread.s)} of its median. The machine’s load moved under the sweep.`,
    );
  }
  return { ...fit, cannotShow, quieter, reasons };
}

/**
 * What would show scaling instead, one sentence each: CPU counts within the cores, a quiet
 * machine, a machine with more cores (no sweep recorded on one comes with the lab: how to
 * record one). Empty when the sweep can show scaling and asks for nothing beyond the cores.
 */
export function remedies(fit: Fit): string[] {
  const out: string[] = [];
  if (fit.oversubscribed.length > 0 && fit.cores >= 2)
    out.push(
      `CPU counts no higher than the cores (${String(fit.cores)} here): every CPU then has a core of its own.`,
    );
  if (fit.quieter)
    out.push(
      'A quiet machine: close other programs, tabs, builds and tests (on a shared machine, wait for a quiet hour), then Check the load again before a sweep.',
    );
  if (fit.cannotShow || fit.cores <= 2)
    out.push(
      'A machine with more cores. The lab comes with no sweep measured on a larger machine; to record one there, build the lab and run npm run -s bench -- --cpus 1,2,4,8 --json > sweep.json (or Run sweep on this page and Export JSON): the file names the machine’s cores, its browser and the settings; note where and when you ran it.',
    );
  return out;
}
