// Reading a live run for the page: one sample per animation frame (copies of the shared state
// and statistics), turned into the numbers the charts and tables show. Pure: the tests build
// samples by hand.

import { cpuBase, ctxBase, CPU_IRQS, CPU_NMIS, CTX_DONE, CTX_RETRIES } from '../machine/machine.ts';
import { online } from '../machine/hotplug.ts';
import { Kind, Op } from '../machine/isa.ts';
import type { Machine } from '../machine/machine.ts';
import { readPerCpu, readResults, totalTally } from '../machine/read.ts';
import { minus, plus } from '../machine/int64.ts';
import { observe } from '../scenarios/outcome.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';
import type { EngineKind, Tier } from './engine/engine.ts';
import { C_EXITED, ENGINE_CODES, type LiveMemory, STAT_SLOTS, Stat, TIER_BITS } from './memory.ts';
import { inFlightSlack } from './slack.ts';
import type { LiveCounter } from './counter.ts';

/** A copy of the shared memory at one moment, bracketed by the exact total before and after. */
export interface Sample {
  readonly state: Int32Array;
  readonly stats: Float64Array;
  /** Total of every tally just before and just after the copy (adds keep landing meanwhile). */
  readonly talliesBefore: number | bigint;
  readonly talliesAfter: number | bigint;
  /** Every CPU had stopped: nothing was in flight, the copy is exact. */
  readonly atRest: boolean;
}

/** Copies the shared state and statistics (the workers keep running). */
export function takeSample(mem: LiveMemory, m: Machine): Sample {
  const atRest = Atomics.load(mem.words, C_EXITED) >= mem.cpus;
  const talliesBefore = totalTally(m, mem.state);
  const state = mem.state.slice();
  const talliesAfter = totalTally(m, mem.state);
  const stats = new Float64Array(mem.cpus * STAT_SLOTS);
  for (let k = 0; k < mem.cpus; k++) {
    const at = mem.statLine(k);
    stats.set(mem.stats.subarray(at, at + STAT_SLOTS), k * STAT_SLOTS);
  }
  return { state, stats, talliesBefore, talliesAfter, atRest };
}

export interface CpuReading {
  readonly steps: number;
  readonly adds: number;
  readonly calls: number;
  readonly folds: number;
  readonly bumps: number;
  readonly spins: number;
  readonly migrations: number;
  readonly irqs: number;
  readonly nmis: number;
}

export interface LiveReading {
  /** Milliseconds since the start (the furthest CPU's clock at its last flush). */
  readonly ms: number;
  /** What ran the CPUs' programs (null before they start; "mixed" should never be). */
  readonly engine: EngineKind | 'mixed' | null;
  /**
   * Which tier the CPUs ran in (wasm/codegen.ts): bare (no event could fall due), exact, or
   * mixed (bare until the first event was asked for); null before they start.
   */
  readonly tier: Tier | 'mixed' | null;
  readonly cpus: readonly CpuReading[];
  /** Totals over the CPUs. */
  readonly total: CpuReading;
  /** Sum retries so far: calls finished plus calls in flight. */
  readonly retries: number;
  /** The most retries a single finished call took. */
  readonly maxRetriesPerCall: number;
  /** sum() calls that returned a value outside the exact totals while they ran. */
  readonly badSums: number;
  /** The per-CPU slots drawn as bars, or null. */
  readonly slots: readonly number[] | null;
  readonly batch: number | null;
  readonly observables: Observables;
  /** The exact total (initial + every tally) and the counter's full value in memory. */
  readonly exact: number | bigint;
  readonly value: number | bigint;
  /** Everything the tasks and handlers added (the exact total minus the initial value). */
  readonly added: number | bigint;
  /** exact − value: lost updates (exact at rest; while running, adds in flight blur it). */
  readonly lost: number | bigint;
  /** The cheap read: its value, how far it is from the exact total, and the bound. */
  readonly read: {
    readonly value: number | bigint;
    readonly error: number;
    readonly bound: number;
  } | null;
  /** The latest finished sum(): its value and how far it lies outside its window. */
  readonly sum: { readonly value: number | bigint; readonly error: number } | null;
  /**
   * CPU hotplug events taken (offlines and onlines, the model's count in memory), or null on a
   * machine without hotplug.
   */
  readonly hotplugs: number | null;
  /** The CPUs offline in this copy (on a machine with hotplug; else none). */
  readonly offline: readonly number[];
}

function cpuReading(m: Machine, sample: Sample, k: number): CpuReading {
  const at = k * STAT_SLOTS;
  const st = (i: number) => sample.stats[at + i] ?? 0;
  const b = cpuBase(m, k);
  return {
    steps: st(Stat.Steps),
    adds: st(Stat.Adds),
    calls: st(Stat.Calls),
    folds: st(Stat.Folds),
    bumps: st(Stat.SeqBumps),
    spins: st(Stat.Spins),
    migrations: st(Stat.Migrations),
    irqs: sample.state[b + CPU_IRQS] ?? 0,
    nmis: sample.state[b + CPU_NMIS] ?? 0,
  };
}

function sumOf(list: readonly CpuReading[]): CpuReading {
  const out = {
    steps: 0,
    adds: 0,
    calls: 0,
    folds: 0,
    bumps: 0,
    spins: 0,
    migrations: 0,
    irqs: 0,
    nmis: 0,
  };
  for (const c of list)
    for (const key of Object.keys(out) as (keyof CpuReading)[]) out[key] += c[key];
  return out;
}

/** A value as the readings carry it: a number where it is exact as one, else a bigint. */
const num = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
/** a − b as a number (errors are small; a huge one only needs to look huge). */
const signed = (a: number | bigint, b: number | bigint): number => Number(minus(a, b));

/** Which counts a machine can produce at all, so the page shows only those that can move. */
export interface Relevant {
  readonly folds: boolean;
  readonly bumps: boolean;
  readonly retries: boolean;
  readonly spins: boolean;
}

export function relevantCounts(m: Machine): Relevant {
  const all = m.code.flat();
  return {
    folds: all.some((i) => i.kind === Kind.Fold),
    bumps: all.some((i) => i.kind === Kind.SeqBump),
    retries: all.some((i) => i.kind === Kind.SumRetry),
    spins: all.some((i) => i.op === Op.SpinLock),
  };
}

/**
 * Retries of the finished calls (the CPUs' statistics) plus those of calls in flight (a task's
 * retry count restarts with each call; a finished task's was already added to the statistics).
 */
function retriesSoFar(m: Machine, sample: Sample): number {
  let n = 0;
  for (let k = 0; k < m.cpus; k++) n += sample.stats[k * STAT_SLOTS + Stat.Retries] ?? 0;
  for (let c = 0; c < m.contexts; c++) {
    const cb = ctxBase(m, c);
    if (c < m.tasks && sample.state[cb + CTX_DONE] !== 0) continue;
    n += sample.state[cb + CTX_RETRIES] ?? 0;
  }
  return n;
}

/** What ran the CPUs, from their statistics. */
function engineOf(sample: Sample, cpus: number): LiveReading['engine'] {
  const kinds = new Set<EngineKind>();
  for (let k = 0; k < cpus; k++) {
    const code = sample.stats[k * STAT_SLOTS + Stat.Engine];
    if (code === ENGINE_CODES.compiled) kinds.add('compiled');
    else if (code === ENGINE_CODES.interpreted) kinds.add('interpreted');
  }
  if (kinds.size === 0) return null;
  return kinds.size === 1 ? ([...kinds][0] as EngineKind) : 'mixed';
}

/** Which tiers ran, from the CPUs' statistics. */
function tierOf(sample: Sample, cpus: number): LiveReading['tier'] {
  let bits = 0;
  for (let k = 0; k < cpus; k++) bits |= sample.stats[k * STAT_SLOTS + Stat.Tiers] ?? 0;
  if (bits === 0) return null;
  if (bits === TIER_BITS.bare) return 'bare';
  return bits === TIER_BITS.exact ? 'exact' : 'mixed';
}

/** What one sample shows. */
export function readSample(
  sc: Scenario,
  counter: LiveCounter,
  m: Machine,
  p: Params,
  sample: Sample,
): LiveReading {
  const s = sample.state;
  const cpus = Array.from({ length: m.cpus }, (_, k) => cpuReading(m, sample, k));
  const o = observe(sc, m, s, p);
  const exact = num(counter.exact(m, s));
  const value = num(counter.value(m, s));
  // The initial value: the exact total minus what the tallies in this copy add up to.
  const initial = minus(exact, totalTally(m, s));
  // Adds in flight may be in memory before the totals count them (see slack.ts).
  const inFlight = inFlightSlack(m);
  /** How far v lies outside [lo − slack, hi + slack] (signed; 0 inside). */
  const outside = (v: number | bigint, a: number | bigint, b: number | bigint, slack: number) => {
    const lo = minus(a < b ? a : b, slack);
    const hi = plus(a < b ? b : a, slack);
    return v < lo ? signed(v, lo) : v > hi ? signed(v, hi) : 0;
  };
  let read: LiveReading['read'] = null;
  const r = counter.read;
  const rv = r ? r.value(m, s) : null;
  if (r && rv !== null) {
    const v = num(rv);
    // Against the exact totals just before and just after the copy; at rest nothing is in
    // flight, so the error is exactly read() − exact.
    const error = outside(
      v,
      plus(initial, sample.talliesBefore),
      plus(initial, sample.talliesAfter),
      sample.atRest ? 0 : inFlight,
    );
    read = { value: v, error, bound: r.bound === null ? Infinity : Number(r.bound) };
  }
  let sum: LiveReading['sum'] = null;
  // The first summer's latest call (no summer on one CPU, say).
  const summer = counter.summers[0];
  if (summer) {
    const got = readResults(m, s, summer.sum);
    const window = readResults(m, s, summer.window);
    if (got.length > 0 && window.length >= 2) {
      const v = got[0] as number | bigint;
      const error = outside(
        v,
        plus(initial, window[0] as number | bigint),
        plus(initial, window[1] as number | bigint),
        // The sum ran while the CPUs did, whenever it is read.
        inFlight,
      );
      sum = { value: v, error };
    }
  }
  const slots = counter.deltas ? readPerCpu(m, s, counter.deltas).map((v) => Number(v)) : null;
  return {
    ms: Math.max(0, ...cpus.map((_, k) => sample.stats[k * STAT_SLOTS + Stat.Time] ?? 0)),
    engine: engineOf(sample, m.cpus),
    tier: tierOf(sample, m.cpus),
    cpus,
    total: sumOf(cpus),
    retries: retriesSoFar(m, sample),
    badSums: cpus.reduce((n, _, k) => n + (sample.stats[k * STAT_SLOTS + Stat.BadCalls] ?? 0), 0),
    maxRetriesPerCall: Math.max(
      0,
      ...cpus.map((_, k) => sample.stats[k * STAT_SLOTS + Stat.MaxRetries] ?? 0),
    ),
    slots,
    batch: counter.batch,
    observables: o,
    exact,
    value,
    added: totalTally(m, s),
    lost: minus(exact, value),
    read,
    sum,
    hotplugs: m.hotplug === null ? null : (s[m.hotplug.count] as number),
    offline: cpus.map((_, k) => k).filter((k) => !online(m, s, k)),
  };
}
