// What a Scaling sweep measures: every combination of algorithm, CPU count, slot layout and
// summer, each with a warm-up and several repetitions. The page, `lab bench` and `npm run bench`
// build the same plan from their own controls and flags, and this module checks it.

import { findScenario } from '../../scenarios/index.ts';
import type { EngineKind, Tier } from '../engine/engine.ts';
import type { SlotLayout } from '../memory.ts';
import { liveSpecOf, liveSpecs, MAX_LIVE_CPUS } from '../specs.ts';

/**
 * A "one or both" choice (slot layouts, engines), as the page, links and CLI name it: "both" is
 * every option, else the one named; a name that is not an option gives none.
 */
export function pickedBy<T extends string>(choice: string, all: readonly T[]): T[] {
  return choice === 'both' ? [...all] : all.filter((x) => x === choice);
}

/** The "one or both" choice that names `picked`: "both" for two, else the one, or `fallback`. */
export function choiceOf<T extends string>(picked: readonly T[], fallback: T): T | 'both' {
  return picked.length === 2 ? 'both' : (picked[0] ?? fallback);
}

/** No summer, a busy one (0 µs between calls), or one that sums every `n` µs. */
export type Summer = 'none' | 'busy' | number;

export interface SweepPlan {
  readonly scenarios: readonly string[];
  readonly cpus: readonly number[];
  readonly layouts: readonly SlotLayout[];
  readonly summers: readonly Summer[];
  /** Measured seconds per repetition, after `warmupSeconds` unmeasured. */
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly repeat: number;
  /** Compiled (the default), interpreted, or both, to compare them in one sweep. */
  readonly engines: readonly EngineKind[];
  /**
   * bare (the default: the algorithm's own instructions, as no event can fall due in a sweep),
   * exact (the tier Live runs with events), or both, to see what the exactness costs. The
   * interpreter has only the exact tier.
   */
  readonly tiers: readonly Tier[];
  /** kernel: the kernel's batch, max(32, 2 × CPUs), and threshold 16; teaching: the lab's small defaults. */
  readonly preset: 'kernel' | 'teaching';
}

/** One combination: the unit of work, repeated `repeat` times. */
export interface SweepPoint {
  readonly scenario: string;
  readonly cpus: number;
  readonly layout: SlotLayout;
  readonly summer: Summer;
  readonly engine: EngineKind;
  readonly tier: Tier;
}

/** Scenarios a sweep can take: counters whose CPU count can vary. */
export function scalingScenarios(): string[] {
  return liveSpecs.filter((s) => s.fixedCpus === null).map((s) => s.id);
}

/** The counters a sweep takes unless told otherwise: the five classic designs and the tree. */
export const DEFAULT_SCENARIOS: readonly string[] = [
  'global-atomic',
  'global-spinlock',
  'lazy-nr-files',
  'percpu-classic',
  'percpu-seq',
  'percpu-tree',
];

/** The default plan for a machine with `cores` cores. */
export function defaultPlan(cores: number): SweepPlan {
  return {
    scenarios: DEFAULT_SCENARIOS,
    cpus: Array.from({ length: Math.max(1, Math.min(cores, MAX_LIVE_CPUS)) }, (_, i) => i + 1),
    layouts: ['padded'],
    summers: ['none'],
    seconds: 1,
    warmupSeconds: 0.25,
    repeat: 3,
    engines: ['compiled'],
    tiers: ['bare'],
    preset: 'kernel',
  };
}

/**
 * The CPU counts typed in a field ("1,2,4"), and what is wrong with them, naming every bad entry
 * as it was typed: "CPU counts are whole numbers from 1 to 64, not 0, abc, 99".
 */
export function parseCpuCounts(text: string): { counts: number[]; problem: string | null } {
  const tokens = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const ok = (t: string) => /^\d+$/.test(t) && Number(t) >= 1 && Number(t) <= MAX_LIVE_CPUS;
  const bad = tokens.filter((t) => !ok(t));
  const problem =
    tokens.length === 0
      ? 'pick at least one CPU count'
      : bad.length > 0
        ? `CPU counts are whole numbers from 1 to ${String(MAX_LIVE_CPUS)}, not ${bad.join(', ')}`
        : null;
  return { counts: tokens.filter(ok).map(Number), problem };
}

/** Why a plan cannot run, for people (its first reason); null when it can. */
export function planProblem(p: SweepPlan): string | null {
  return planProblems(p)[0] ?? null;
}

/**
 * Every reason a plan cannot run, one per field, in the form's order: a user who got three
 * fields wrong is told of all three at once, not one per attempt. Empty when it can run.
 */
export function planProblems(p: SweepPlan): string[] {
  const out: string[] = [];
  const algorithms = (): string | null => {
    if (p.scenarios.length === 0) return 'pick at least one algorithm';
    for (const id of p.scenarios) {
      const spec = liveSpecOf(id);
      if (!spec)
        return findScenario(id)
          ? `${id} does not run live; algorithms: ${scalingScenarios().join(', ')}`
          : `there is no scenario '${id}'; algorithms: ${scalingScenarios().join(', ')}`;
      if (spec.fixedCpus !== null) return `${id} runs on a fixed number of CPUs: it cannot scale`;
    }
    return null;
  };
  const push = (why: string | null) => {
    if (why !== null) out.push(why);
  };
  push(algorithms());
  push(
    p.cpus.length === 0 ? 'pick at least one CPU count' : parseCpuCounts(p.cpus.join(',')).problem,
  );
  if (p.layouts.length === 0) out.push('pick padded slots, packed slots, or both');
  if (p.summers.length === 0) out.push('pick at least one summer');
  if (p.engines.length === 0) out.push('pick the compiled engine, the interpreter, or both');
  if (p.tiers.length === 0) out.push('pick the bare tier, the exact one, or both');
  const period = p.summers.find(
    (s) => typeof s === 'number' && (!Number.isInteger(s) || s < 1 || s > 10_000_000),
  );
  if (period !== undefined)
    out.push(`a summer's period is 1 to 10000000 µs, not ${String(period)}`);
  if (!(p.seconds > 0 && p.seconds <= 60)) out.push('a run lasts more than 0 and at most 60 s');
  if (!(p.warmupSeconds >= 0 && p.warmupSeconds <= 10)) out.push('the warm-up lasts 0 to 10 s');
  if (!Number.isInteger(p.repeat) || p.repeat < 1 || p.repeat > 20)
    out.push('repeat each run 1 to 20 times');
  return out;
}

/**
 * Every combination, in the order they run (by algorithm, then CPUs, layout, summer, engine,
 * tier); the interpreter runs once, in the exact tier, whatever tiers the plan names.
 */
export function sweepPoints(p: SweepPlan): SweepPoint[] {
  const out: SweepPoint[] = [];
  for (const scenario of p.scenarios)
    for (const cpus of p.cpus)
      for (const layout of p.layouts)
        for (const summer of p.summers)
          for (const engine of p.engines) {
            // A summer needs a second CPU, and a scenario with a sum().
            if (summer !== 'none' && (cpus < 2 || !liveSpecOf(scenario)?.hasSummer)) continue;
            const tiers: readonly Tier[] = engine === 'compiled' ? p.tiers : ['exact'];
            for (const tier of tiers) out.push({ scenario, cpus, layout, summer, engine, tier });
          }
  return out;
}

/** Seconds each repetition costs beyond what it measures: starting and stopping workers. */
export const RUN_OVERHEAD_SECONDS = 0.15;

/** How long a plan takes, roughly, in seconds. */
export function planSeconds(p: SweepPlan): number {
  return sweepPoints(p).length * p.repeat * (p.warmupSeconds + p.seconds + RUN_OVERHEAD_SECONDS);
}

/** "none", "busy", "1000 µs". */
export function summerText(s: Summer): string {
  return typeof s === 'number' ? `${String(s)} µs` : s;
}

/** A summer as flags and links write it: "none", "busy", "1000" (parseSummer reads it back). */
export function summerArg(s: Summer): string {
  return typeof s === 'number' ? String(s) : s;
}

/** Parses "none", "busy" or a period in µs; null if it is none of these. */
export function parseSummer(text: string): Summer | null {
  const t = text.trim();
  if (t === 'none' || t === 'busy') return t;
  return /^\d+$/.test(t) ? Number(t) : null;
}
