// Running a Scaling sweep: each combination runs live `repeat` times; each time the CPUs warm up,
// then two readings of shared memory `seconds` apart give the rates (from the CPUs' own clocks),
// then Stop judges the state they come to rest in: correct algorithms end exact, racy ones say
// what they lost. Platform-agnostic: the page, the CLI and the browser bench run this same code.

import { noInterference } from '../control.ts';
import type { EngineKind, Tier } from '../engine/engine.ts';
import type { LiveReading } from '../readout.ts';
import type { ProbeResult } from '../probe.ts';
import { type Platform, readRun, RunningCpus } from '../run.ts';
import { liveParams } from '../liveParams.ts';
import type { Params } from '../../scenarios/types.ts';
import { type SweepPlan, type SweepPoint, sweepPoints } from './plan.ts';

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** What one combination (a point of the plan) measured. */
export interface SweepResult extends SweepPoint {
  readonly params: Params;
  /** Adds per second over all CPUs (the adders' operations; sums are counted apart). */
  readonly opsPerSecond: Spread;
  /** Per CPU, medians over the repetitions: operations (adds or sums) per second. */
  readonly perCpuOpsPerSecond: readonly number[];
  readonly instructionsPerSecondPerCpu: readonly number[];
  /** Steps spent spinning on a held lock, per second, per CPU. */
  readonly spinsPerSecondPerCpu: readonly number[];
  /** sum() calls per second, when a summer ran. */
  readonly sumsPerSecond: number | null;
  /** Updates lost, over every repetition (exact: counted at rest). */
  readonly lost: number;
  /** Every repetition came to rest with the counter exact. */
  readonly exact: boolean;
  /** Invariants the runs broke (judged at rest, and every sum() as it returned). */
  readonly violations: readonly string[];
  /**
   * The cheap read's accuracy while the CPUs added (percpu_counter_read(), the tree's
   * approximate sum): the largest distance from the exact total seen in the samples taken
   * through the measured seconds, over every repetition, and the bound the program declares
   * (`error` in its counter); null for a counter without a read.
   */
  readonly readError: { readonly worst: number; readonly bound: number } | null;
  /** The tier the CPUs ran in, as they reported it (`tier` is the one asked for). */
  readonly tierRan: LiveReading['tier'];
}

/** How often a repetition samples the read's error while the CPUs run. */
export const READ_SAMPLE_MS = 10;

export interface SweepReport {
  readonly machine: { readonly cores: number; readonly runtime: string };
  readonly settings: {
    readonly seconds: number;
    readonly warmupSeconds: number;
    readonly repeat: number;
    readonly preset: SweepPlan['preset'];
  };
  readonly results: readonly SweepResult[];
  /** Cancelled before the end: `results` holds the combinations finished. */
  readonly cancelled: boolean;
}

export interface SweepHooks {
  /** Waits `ms` (resolving early once the signal aborts is fine). */
  sleep(ms: number): Promise<void>;
  /** Called before each repetition: `done` of `total` repetitions are finished. */
  progress?(done: number, total: number, point: SweepPoint): void;
  /** Called after each combination with its result. */
  measured?(result: SweepResult): void;
  /**
   * An AbortSignal (the core names only what it reads of one: it has no DOM library). Aborted:
   * the sweep stops after the repetition in progress, keeping what it measured.
   */
  readonly signal?: { readonly aborted: boolean };
}

/**
 * The Scaling store's port: sweeps on CPU workers (CpuBridge.scaling in src/workers/
 * cpuBridge.ts, or a test's fake). Declared beside the sweep, so the worker layer need not
 * import a store.
 */
export interface ScalingPort {
  readonly machine: SweepReport['machine'];
  /** Runs the plan on CPU workers; `hooks.sleep` is the runner's own. */
  sweep(plan: SweepPlan, hooks: Omit<SweepHooks, 'sleep'>): Promise<SweepReport>;
  /** The visibility probe: do one CPU's plain loads see another's stores (in `tier`)? */
  probe(engine: EngineKind, tier: Tier): Promise<ProbeResult>;
}

/** The parameters of one combination: the loop's, with the plan's preset. */
export function pointParams(plan: SweepPlan, p: SweepPoint): Params {
  return liveParams(
    p.scenario,
    p.cpus,
    {},
    { summer: p.summer !== 'none', preset: plan.preset === 'kernel' ? 'kernel' : undefined },
  );
}

interface Repetition {
  readonly ops: number;
  readonly perCpu: number[];
  readonly instructions: number[];
  readonly spins: number[];
  readonly sums: number;
  readonly lost: number;
  readonly exact: boolean;
  readonly violations: string[];
  /** The largest |read − exact| sampled, and the read's bound; null without a read. */
  readonly readError: { readonly worst: number; readonly bound: number } | null;
  readonly tierRan: LiveReading['tier'];
}

function rates(
  a: LiveReading,
  b: LiveReading,
): Omit<Repetition, 'lost' | 'exact' | 'violations' | 'readError' | 'tierRan'> {
  const dt = Math.max(1e-9, (b.ms - a.ms) / 1000);
  const per = (f: (k: number, r: LiveReading) => number) =>
    b.cpus.map((_, k) => (f(k, b) - f(k, a)) / dt);
  return {
    ops: (b.total.adds - a.total.adds) / dt,
    perCpu: per((k, r) => (r.cpus[k]?.adds ?? 0) + (r.cpus[k]?.calls ?? 0)),
    instructions: per((k, r) => r.cpus[k]?.steps ?? 0),
    spins: per((k, r) => r.cpus[k]?.spins ?? 0),
    sums: (b.total.calls - a.total.calls) / dt,
  };
}

async function repetition(
  platform: Platform,
  plan: SweepPlan,
  point: SweepPoint,
  params: Params,
  seed: number,
  hooks: SweepHooks,
): Promise<Repetition | null> {
  const periodUs = point.summer === 'busy' ? 0 : point.summer === 'none' ? 1000 : point.summer;
  // A worker that dies ends the repetition at once, not when its measuring time is up.
  let died: (e: Error) => void = () => undefined;
  const death = new Promise<never>((_, reject) => {
    died = reject;
  });
  death.catch(() => undefined); // heard through the waits that race it
  const cpus = await RunningCpus.start(
    platform,
    {
      scenario: point.scenario,
      params,
      settings: { ...noInterference, periodUs },
      seed,
      engine: point.engine,
      tier: point.tier,
      layout: point.layout,
    },
    (message) => {
      died(new Error(message));
    },
  );
  const wait = (ms: number) => Promise.race([hooks.sleep(ms), death]);
  try {
    await wait(plan.warmupSeconds * 1000);
    const before = readRun(cpus.run).reading;
    // Sample the read while the CPUs add: its worst distance from the exact total.
    let readError: Repetition['readError'] = null;
    const sampleRead = () => {
      const r = readRun(cpus.run).reading.read;
      if (r)
        readError = {
          worst: Math.max(readError?.worst ?? 0, Math.abs(r.error)),
          bound: r.bound,
        };
    };
    sampleRead();
    const started = Date.now();
    while (Date.now() - started < plan.seconds * 1000) {
      await wait(
        Math.min(READ_SAMPLE_MS, Math.max(1, plan.seconds * 1000 - (Date.now() - started))),
      );
      sampleRead();
    }
    const after = readRun(cpus.run).reading;
    const outcome = await cpus.stop(platform);
    if (outcome.kind === 'failed') throw new Error(outcome.message);
    if (hooks.signal?.aborted === true) return null;
    const rest = readRun(cpus.run);
    const lost = Number(rest.reading.lost);
    return {
      ...rates(before, after),
      lost,
      exact: outcome.kind === 'stopped' && rest.verdict.terminal && lost === 0,
      violations: rest.verdict.violations.map((v) => v.id),
      readError,
      tierRan: rest.reading.tier,
    };
  } finally {
    cpus.terminate();
  }
}

/** One tier for all repetitions, or mixed when they differ. */
function tierOver(tiers: readonly LiveReading['tier'][]): LiveReading['tier'] {
  const seen = new Set(tiers.filter((t) => t !== null));
  if (seen.size === 0) return null;
  return seen.size === 1 ? ([...seen][0] as LiveReading['tier']) : 'mixed';
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function perCpuMedian(reps: readonly Repetition[], pick: (r: Repetition) => number[]): number[] {
  const n = Math.max(0, ...reps.map((r) => pick(r).length));
  return Array.from({ length: n }, (_, k) => median(reps.map((r) => pick(r)[k] ?? 0)));
}

/** The worst read error over the repetitions, with the bound (null when none had a read). */
function worstRead(reps: readonly Repetition[]): SweepResult['readError'] {
  const withRead = reps.flatMap((r) => (r.readError ? [r.readError] : []));
  const first = withRead[0];
  if (!first) return null;
  return { worst: Math.max(...withRead.map((r) => r.worst)), bound: first.bound };
}

/** Runs every combination of the plan; resolves with what was measured (partial if cancelled). */
export async function runSweep(
  platform: Platform,
  plan: SweepPlan,
  machine: SweepReport['machine'],
  hooks: SweepHooks,
): Promise<SweepReport> {
  const points = sweepPoints(plan);
  const total = points.length * plan.repeat;
  const results: SweepResult[] = [];
  let done = 0;
  let cancelled = false;
  outer: for (const point of points) {
    const params = pointParams(plan, point);
    const reps: Repetition[] = [];
    for (let r = 0; r < plan.repeat; r++) {
      if (hooks.signal?.aborted === true) {
        cancelled = true;
        break outer;
      }
      hooks.progress?.(done, total, point);
      const rep = await repetition(platform, plan, point, params, 1 + done, hooks);
      if (!rep) {
        cancelled = true;
        break outer;
      }
      reps.push(rep);
      done++;
    }
    const ops = reps.map((r) => r.ops);
    const result: SweepResult = {
      ...point,
      params,
      opsPerSecond: { median: median(ops), min: Math.min(...ops), max: Math.max(...ops) },
      perCpuOpsPerSecond: perCpuMedian(reps, (r) => r.perCpu),
      instructionsPerSecondPerCpu: perCpuMedian(reps, (r) => r.instructions),
      spinsPerSecondPerCpu: perCpuMedian(reps, (r) => r.spins),
      sumsPerSecond: point.summer === 'none' ? null : median(reps.map((r) => r.sums)),
      lost: reps.reduce((n, r) => n + r.lost, 0),
      exact: reps.every((r) => r.exact),
      violations: [...new Set(reps.flatMap((r) => r.violations))],
      readError: worstRead(reps),
      tierRan: tierOver(reps.map((r) => r.tierRan)),
    };
    results.push(result);
    hooks.measured?.(result);
  }
  return {
    machine,
    settings: {
      seconds: plan.seconds,
      warmupSeconds: plan.warmupSeconds,
      repeat: plan.repeat,
      preset: plan.preset,
    },
    results,
    cancelled,
  };
}
