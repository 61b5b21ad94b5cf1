// The sweep of a lockless sum across the counter: what percpu_counter_sum() has read so far (the
// global count, then CPU0's delta, CPU1's…), what it has not read yet, its running total, its
// retries, and the batches a fold moved behind its back. This is the picture that explains why
// a lockless sum misses (or counts twice) a whole batch, Tejun Heo's "@batch deviations"
// (<20110426121011.GD878@htj.dyndns.org>). Pure: derived from a Run, so it is tested in Node.

import { actorName } from '../machine/narrate.ts';
import { minus, pairValue, plus } from '../machine/int64.ts';
import { type Instr, Kind, Mode, Op, writesMemory } from '../machine/isa.ts';
import { ctxBase, CTX_DONE, CTX_RETRIES, type Machine } from '../machine/machine.ts';
import { cellValue, elementAddr, globalCell } from '../machine/read.ts';
import { executedAt, type Run } from '../machine/executed.ts';
import { counterCells } from './history.ts';

/** One delta the sum has read in this pass. */
export interface SlotRead {
  readonly cpu: number;
  readonly value: number;
  /** Event index of the read. */
  readonly at: number;
}

/** What a batch moved by a fold amounts to for the sum (see `batchFate`). */
export type Fate = 'counted' | 'missed' | 'twice' | 'at-risk';

/** A fold the sweep did not count exactly once. */
export interface FoldSeen {
  readonly cpu: number;
  /** What the fold added to the global count. */
  readonly amount: number | bigint;
  /** The delta the sum read from that CPU (a double count adds this, not the whole batch). */
  readonly slotValue: number | null;
  readonly foldAt: number;
  /** Event index of the delta's reset, or −1 while it has not happened. */
  readonly resetAt: number;
  readonly fate: Exclude<Fate, 'counted'>;
}

export interface SumSweep {
  /** The summing context, and who it is ("CPU3"). */
  readonly ctx: number;
  readonly who: string;
  /** 1 for the first pass of this sum, 2 after one retry… */
  readonly pass: number;
  /** Retries of this sum so far (the context's CTX_RETRIES since the sum began). */
  readonly retries: number;
  /** Event index of the last retry, or −1. */
  readonly retriedAt: number;
  /** The global count as this pass read it (null: not read yet). */
  readonly global: { readonly value: number | bigint; readonly at: number } | null;
  /** fbc->slowcount as this pass read it, where the scenario has one. */
  readonly slowcount: number | bigint | null;
  /** Deltas read this pass, in the order read. */
  readonly reads: readonly SlotRead[];
  /** Position of the sweep: 0 before the global count, 1 + k before CPU k's delta, 1 + cpus after. */
  readonly position: number;
  /** What the pass has added up so far: global + slowcount + every delta read. */
  readonly running: number | bigint;
  /** What the sum returned (null while it runs). */
  readonly returned: number | bigint | null;
  readonly folds: readonly FoldSeen[];
}

/**
 * The fate, for one pass of a sum, of a batch that a fold moved from CPU k's delta into the
 * global count: the fold added it at `foldAt` and the reset removed it from the delta at
 * `resetAt` (−1: not yet). The sum read the global at `globalAt` and the delta at `slotAt` (−1:
 * not yet). Counted once when exactly one of the two reads saw it: the global read after the
 * fold, or the delta read before the reset.
 */
export function batchFate(t: {
  foldAt: number;
  resetAt: number;
  globalAt: number;
  slotAt: number;
}): Fate {
  const inGlobal = t.globalAt > t.foldAt;
  if (t.slotAt < 0) {
    // Not read yet: once the fold has landed behind the sweep and the delta is cleared, the
    // batch is nowhere this pass will look.
    return !inGlobal && t.resetAt >= 0 ? 'at-risk' : 'counted';
  }
  const inSlot = t.resetAt < 0 || t.slotAt < t.resetAt;
  if (inGlobal && inSlot) return 'twice';
  if (!inGlobal && !inSlot) return 'missed';
  return 'counted';
}

/** Contexts that read every CPU's delta: the summers (and compare(), which sums). */
export function summers(m: Machine): number[] {
  const cells = counterCells(m);
  if (!cells) return [];
  const out: number[] = [];
  m.code.forEach((code, ctx) => {
    if (
      code.some((i) => i.op === Op.Load && i.mode === Mode.Indexed && i.base === cells.slots.base)
    )
      out.push(ctx);
  });
  return out;
}

/**
 * Whether the read `ins` of the global count begins a sum: along the code that follows it, the
 * context's next memory access reads a CPU's delta (not a store, an atomic or a lock).
 */
function sumFollows(m: Machine, ctx: number, ins: Instr, slotsBase: number): boolean {
  const code = m.code[ctx] ?? [];
  for (let pc = code.indexOf(ins) + 1; pc > 0 && pc < code.length; pc++) {
    const next = code[pc] as Instr;
    if (next.op === Op.Load && next.mode === Mode.Indexed && next.base === slotsBase) return true;
    if (writesMemory(next.op)) return false;
  }
  return false;
}

interface Pass {
  global: { value: number | bigint; at: number } | null;
  slowcount: number | bigint | null;
  reads: SlotRead[];
  pass: number;
  retriesAtStart: number;
  retriedAt: number;
  returned: number | bigint | null;
  started: boolean;
}

function fresh(retries: number): Pass {
  return {
    global: null,
    slowcount: null,
    reads: [],
    pass: 1,
    retriesAtStart: retries,
    retriedAt: -1,
    returned: null,
    started: false,
  };
}

/** Result slots of sums ("sum", "sum2"): offset → name. */
function sumSlots(m: Machine): { offset: number; name: string }[] {
  return m.layout.results.filter((r) => /^sum\d*$/.test(r.name));
}

function resultCount(m: Machine, s: Int32Array, offset: number): number {
  return s[m.resOff + offset] as number;
}

function lastResult(m: Machine, s: Int32Array, offset: number): number | bigint {
  const at = m.resOff + offset;
  const n = s[at] as number;
  return pairValue(s[at + 2 * n - 1] as number, s[at + 2 * n] as number);
}

function isDone(m: Machine, s: Int32Array, ctx: number): boolean {
  return s[ctxBase(m, ctx) + CTX_DONE] !== 0;
}

/**
 * Every sum's sweep at the cursor: the sums that have begun (or just returned), one per summing
 * context. Empty for scenarios without per-CPU deltas or without a sum.
 */
export function sumSweeps(run: Run): SumSweep[] {
  const { m } = run;
  const cells = counterCells(m);
  const who = summers(m);
  if (!cells || who.length === 0) return [];
  // A part of the value beside the count and the deltas (slowcount), which the sum also reads.
  const part = m.layout.counter?.parts[0];
  const slow = part === undefined ? null : globalCell(m, part);
  const results = sumSlots(m);
  const retriesOf = (s: Int32Array, ctx: number) => s[ctxBase(m, ctx) + CTX_RETRIES] as number;
  const start = run.states[0] as Int32Array;
  const passes = new Map<number, Pass>(who.map((c) => [c, fresh(retriesOf(start, c))]));

  // Folds, and when each one's delta was reset: the folding context's next write to its delta
  // (the write may leave the word unchanged, when the add alone reached the batch).
  const folds: {
    ctx: number;
    cpu: number;
    amount: number | bigint;
    foldAt: number;
    resetAt: number;
  }[] = [];
  for (let i = 0; i < run.cursor; i++) {
    const before = run.states[i] as Int32Array;
    const after = run.states[i + 1] as Int32Array;
    const x = executedAt(run, i);
    if (!x) continue;
    for (const f of folds) {
      if (
        f.resetAt < 0 &&
        f.ctx === x.ctx &&
        x.addr === elementAddr(cells.slots, f.cpu) &&
        writesMemory(x.ins.op)
      )
        f.resetAt = i;
    }
    if (x.ins.kind === Kind.Fold) {
      const amount = minus(cellValue(after, cells.global), cellValue(before, cells.global));
      // A fold that clears the delta in the same step (one cmpxchg) resets it at once.
      const a = elementAddr(cells.slots, x.cpu);
      folds.push({
        ctx: x.ctx,
        cpu: x.cpu,
        amount,
        foldAt: i,
        resetAt: before[a] !== after[a] ? i : -1,
      });
    }
    const p = passes.get(x.ctx);
    if (!p) continue;
    const retries = retriesOf(after, x.ctx);
    // The previous sum returned: its next read of the global count begins the next sum.
    if (p.returned !== null && x.addr === cells.global.addr) {
      passes.set(x.ctx, fresh(retriesOf(before, x.ctx)));
    }
    const q = passes.get(x.ctx) as Pass;
    if (x.ins.op === Op.Load || x.ins.op === Op.Load64) {
      if (x.addr === cells.global.addr) {
        q.global = { value: cellValue(before, cells.global), at: i };
        // A fast path reads the count too (limited_add's limit test), then writes its own
        // delta: a sum only when a CPU's delta is the next thing it reads.
        if (sumFollows(m, x.ctx, x.ins, cells.slots.base)) q.started = true;
      } else if (slow && x.addr === slow.addr) {
        q.slowcount = cellValue(before, slow);
      } else if (x.ins.mode === Mode.Indexed && x.ins.base === cells.slots.base) {
        const cpu = (x.addr - cells.slots.base) / cells.slots.stride;
        q.reads.push({ cpu, value: before[x.addr] as number, at: i });
        q.started = true;
      }
    }
    if (retries !== retriesOf(before, x.ctx)) {
      q.pass += 1;
      q.global = null;
      q.slowcount = null;
      q.reads = [];
      q.retriedAt = i;
    }
    for (const r of results) {
      if (resultCount(m, after, r.offset) > resultCount(m, before, r.offset) && q.started) {
        q.returned = lastResult(m, after, r.offset);
      }
    }
  }

  const now = run.states[run.cursor] as Int32Array;
  const out: SumSweep[] = [];
  for (const [ctx, p] of passes) {
    if (!p.started && p.retriedAt < 0) continue;
    const last = p.reads[p.reads.length - 1];
    const position = last ? last.cpu + 2 : p.global ? 1 : 0;
    let running: number | bigint = p.global?.value ?? 0;
    if (p.slowcount !== null) running = plus(running, p.slowcount);
    for (const r of p.reads) running = plus(running, r.value);
    const seen: FoldSeen[] = [];
    if (p.global) {
      for (const f of folds) {
        const read = p.reads.find((r) => r.cpu === f.cpu);
        const fate = batchFate({
          foldAt: f.foldAt,
          resetAt: f.resetAt,
          globalAt: p.global.at,
          slotAt: read ? read.at : -1,
        });
        // Only folds of this pass: older ones were settled before the sweep began.
        if (fate !== 'counted' && f.foldAt > (p.retriedAt >= 0 ? p.retriedAt : -1)) {
          seen.push({
            cpu: f.cpu,
            amount: f.amount,
            foldAt: f.foldAt,
            resetAt: f.resetAt,
            slotValue: read ? read.value : null,
            fate,
          });
        }
      }
    }
    out.push({
      ctx,
      who: actorName(m, now, ctx),
      pass: p.pass,
      retries: retriesOf(now, ctx) - p.retriesAtStart,
      retriedAt: p.retriedAt,
      global: p.global,
      slowcount: p.slowcount,
      reads: p.reads,
      position,
      running,
      // A sum inside another function (percpu_counter_compare) records no result of its own:
      // once its context has finished, what it added up is what it returned.
      returned: p.returned ?? (isDone(m, now, ctx) ? running : null),
      folds: seen,
    });
  }
  return out;
}
