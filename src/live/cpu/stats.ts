// One live CPU's statistics: counted in plain fields as it runs (no shared write per step) and
// flushed to its own statistics line at each poll, where the page and the CLI read them; and the
// trace notes of notable steps, at most one of each kind per burst (millions of folds a second
// would flood the ring).

import type { Counters, EngineKind, Tier } from '../engine/engine.ts';
import {
  ENGINE_CODES,
  type LiveMemory,
  Note,
  note,
  STAT_SLOTS,
  Stat,
  TIER_BITS,
} from '../memory.ts';

export class CpuStats {
  steps = 0;
  /** Operations finished outside the engine (the engine counts its restarts in place). */
  adds = 0;
  calls = 0;
  moved = 0;
  retried = 0;
  maxRetries = 0;
  badCalls = 0;
  private readonly stat = new Float64Array(STAT_SLOTS);
  /** The engine's counters at the last trace note of each kind. */
  private notedFolds = 0;
  private notedBumps = 0;
  private notedRetries = 0;

  constructor(
    private readonly mem: LiveMemory,
    private readonly k: number,
    private readonly counters: Readonly<Counters>,
    engine: EngineKind,
  ) {
    this.stat[Stat.Engine] = ENGINE_CODES[engine];
  }

  /** A burst ran in `tier`. */
  ran(tier: Tier): void {
    this.stat[Stat.Tiers] = (this.stat[Stat.Tiers] as number) | TIER_BITS[tier];
  }

  /** An operation (an add, a sum) finished with `retries` sum retries. */
  operation(observer: boolean, retries: number): void {
    if (observer) this.calls++;
    else this.adds++;
    this.retried += retries;
    if (retries > this.maxRetries) this.maxRetries = retries;
  }

  /** Notes what a burst of context `ctx` did: a fold, a sequence bump, a sum retry. */
  noteBurst(ctx: number, retried: boolean, now: number): void {
    const c = this.counters;
    if (c.folds !== this.notedFolds) note(this.mem, this.k, Note.Fold, ctx, now);
    if (c.bumps !== this.notedBumps) note(this.mem, this.k, Note.SeqBump, ctx, now);
    if (retried || c.retried !== this.notedRetries) note(this.mem, this.k, Note.SumRetry, ctx, now);
    this.notedFolds = c.folds;
    this.notedBumps = c.bumps;
    this.notedRetries = c.retried;
  }

  /** Writes the statistics to this CPU's line, stamped with time t (ms since the start). */
  flush(t: number): void {
    const c = this.counters;
    const stat = this.stat;
    stat[Stat.Steps] = this.steps;
    stat[Stat.Adds] = this.adds + c.repeats;
    stat[Stat.Calls] = this.calls;
    stat[Stat.Folds] = c.folds;
    stat[Stat.SeqBumps] = c.bumps;
    stat[Stat.Spins] = c.spins;
    stat[Stat.Migrations] = this.moved;
    stat[Stat.MaxRetries] = Math.max(this.maxRetries, c.maxRetries);
    stat[Stat.Retries] = this.retried + c.retried;
    stat[Stat.BadCalls] = this.badCalls;
    stat[Stat.Time] = t;
    this.mem.stats.set(stat, this.mem.statLine(this.k));
  }
}
