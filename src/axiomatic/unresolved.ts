// The values herd7 leaves unresolved. herd7 runs each thread with symbolic reads, follows both
// ways of every branch, and solves each candidate's equations (a read's value is its write's):
// a candidate whose values only justify one another through copies (`r1 = *x; *y = r1;` both
// ways round) solves to one unknown, which herd7 keeps and prints as a name (`S8`); one whose
// unknown would also be compared, computed with or used as an address leaves an equation
// unsolved, and herd7 drops it. The engine runs threads on concrete values, so it mimics both:
//
// - a read that a branch tests is also offered the constants the thread compares with (and one
//   either side), so every way of the branch is run and what each way writes is known, as herd7
//   knows it with the value still symbolic;
// - a read whose value a write copies is also offered a token, a word no program computes,
//   standing for herd7's unknown: thread t's token for location x. A candidate whose tokens go
//   round a cycle of copies, and nowhere else, is herd7's unresolved candidate.
//
// Runs that read an offered value no other run writes are dropped before the threads' runs are
// combined, so the extra values cost runs of single threads, not combinations.

import { symbolWord } from '../lang/herdAnswer.ts';
import { Cond, type Instr, isAtomicRmw, Op } from '../machine/isa.ts';
import { Tag } from './events.ts';
import type { Execution } from './execution.ts';
import type { Skeleton } from './candidates.ts';
import { atWidth, isLockEvent, type ThreadRun } from './threads.ts';

/** The first token, and how far apart they are (so that a token plus a little is none). */
const TOKEN_BASE = -0x6000_0000n;
const TOKEN_SPACING = 0x1_0000n;
/** At most this many tokens (thread and location pairs) a program. */
const MAX_TOKENS = 1024;

/** The tokens of a program: one per thread and location whose read a write copies. */
export class Tokens {
  private readonly index = new Map<string, number>();
  readonly owners: { readonly thread: number; readonly loc: number }[] = [];

  /** Thread `thread`'s unknown for location `loc`. */
  of(thread: number, loc: number): bigint {
    const key = `${String(thread)}:${String(loc)}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.owners.length;
      if (i >= MAX_TOKENS) return TOKEN_BASE;
      this.index.set(key, i);
      this.owners.push({ thread, loc });
    }
    return TOKEN_BASE - BigInt(i) * TOKEN_SPACING;
  }

  /** Whose token v is, or null when it is none. */
  owner(v: bigint): { readonly thread: number; readonly loc: number } | null {
    const d = TOKEN_BASE - v;
    if (d < 0n || d % TOKEN_SPACING !== 0n) return null;
    return this.owners[Number(d / TOKEN_SPACING)] ?? null;
  }

  /** Whether v is a token moved by a little: a value computed from an unknown. */
  derived(v: bigint): boolean {
    if (this.owners.length === 0) return false;
    const d = TOKEN_BASE - v;
    const last = BigInt(this.owners.length - 1) * TOKEN_SPACING;
    if (d < -TOKEN_SPACING / 2n || d > last + TOKEN_SPACING / 2n) return false;
    return d % TOKEN_SPACING !== 0n;
  }
}

/**
 * What a read a thread's code may test is offered so that each comparison goes both ways: the
 * constant of an equality (and the thread's token, which equals no constant, for the other way),
 * the constant and its neighbours for an ordering.
 */
export interface Comparands {
  readonly values: readonly bigint[];
  /** Some comparison is an equality: offer the read's token for its other way. */
  readonly other: boolean;
}

/** The comparands of a thread's code (see Comparands). */
export function comparands(code: readonly Instr[]): Comparands {
  const out = new Set<bigint>();
  let other = false;
  for (const ins of code) {
    if ((ins.op !== Op.Branch && ins.op !== Op.SetCond) || !ins.useImm) continue;
    const c = BigInt.asIntN(64, (BigInt(ins.immHi) << 32n) | BigInt(ins.immLo >>> 0));
    out.add(c);
    if (ins.cond === Cond.Eq || ins.cond === Cond.Ne) other = true;
    else if (ins.cond === Cond.AbsGe || ins.cond === Cond.AbsLt)
      for (const v of [c - 1n, c + 1n, -c, -c - 1n, 1n - c]) out.add(v);
    else out.add(c - 1n).add(c + 1n);
  }
  return { values: [...out], other };
}

/**
 * The loads (by pc) whose value may reach a comparison: the register they load, and every
 * register computed from it, followed forward through the code whatever the branches do.
 */
export function testedLoads(code: readonly Instr[]): Set<number> {
  const out = new Set<number>();
  code.forEach((ins, pc) => {
    if (ins.op !== Op.Load && ins.op !== Op.Load64 && !isAtomicRmw(ins.op)) return;
    if (ins.dst < 0) return;
    const tainted = new Set<number>([ins.dst]);
    for (let q = pc + 1; q < code.length; q++) {
      const c = code[q] as Instr;
      const reads = tainted.has(c.src) || (!c.useImm && tainted.has(c.src2));
      if ((c.op === Op.Branch || c.op === Op.SetCond) && reads) {
        out.add(pc);
        return;
      }
      if (reads && c.dst >= 0) tainted.add(c.dst);
    }
  });
  return out;
}

/** What a thread's reads are offered beyond what is written: by location, the extra values. */
export type Extras = Map<number, Set<bigint>>;

/**
 * The extra values each thread's reads are offered, from the runs found so far: a read a branch
 * may test (its pc in `tested`) gets the thread's comparands; a read a write copies gets the
 * thread's token for its location. Returns whether anything was added.
 */
export function addExtras(
  extras: readonly Extras[],
  runs: readonly (readonly ThreadRun[])[],
  constants: readonly Comparands[],
  tested: readonly ReadonlySet<number>[],
  tokens: Tokens,
): boolean {
  let grew = false;
  const add = (t: number, loc: number, v: bigint) => {
    const at = extras[t] as Extras;
    const set = at.get(loc) ?? new Set<bigint>();
    at.set(loc, set);
    if (!set.has(v)) {
      set.add(v);
      grew = true;
    }
  };
  runs.forEach((rs, t) => {
    for (const r of rs) {
      const copied = new Set<number>();
      for (const e of r.events) if (e.dir === 'W') for (const d of e.data) copied.add(d);
      r.events.forEach((e, i) => {
        if (e.dir !== 'R' || isLockEvent(e.tags)) return;
        const c = constants[t];
        const test = c !== undefined && tested[t]?.has(e.pc) === true;
        if (test) for (const v of c.values) add(t, e.loc, v);
        if (copied.has(i) || (test && c.other)) add(t, e.loc, tokens.of(t, e.loc));
      });
    }
  });
  return grew;
}

/**
 * The runs that can be part of a candidate: every read returns the initial value, the run's own
 * earlier write there, or a value some kept run of another thread writes there. Dropping a run
 * can strand another's read, so this repeats until nothing changes.
 */
export function supportedRuns(
  runs: readonly (readonly ThreadRun[])[],
  initial: (loc: number, width: number) => bigint,
): ThreadRun[][] {
  let kept = runs.map((rs) => rs.slice());
  for (let changed = true; changed;) {
    changed = false;
    const written = kept.map((rs) => {
      const byLoc = new Map<number, bigint[]>();
      for (const r of rs)
        for (const e of r.events)
          if (e.dir === 'W' && !isLockEvent(e.tags)) {
            const at = byLoc.get(e.loc);
            if (at) at.push(e.value);
            else byLoc.set(e.loc, [e.value]);
          }
      return byLoc;
    });
    kept = kept.map((rs, t) => {
      const out = rs.filter((r) =>
        r.events.every((e, i) => {
          if (e.dir !== 'R' || isLockEvent(e.tags)) return true;
          if (initial(e.loc, e.width) === e.value) return true;
          for (let j = 0; j < i; j++) {
            const w = r.events[j];
            if (w?.dir === 'W' && w.loc === e.loc && atWidth(w.value, e.width) === e.value)
              return true;
          }
          return written.some(
            (byLoc, u) =>
              u !== t && (byLoc.get(e.loc) ?? []).some((v) => atWidth(v, e.width) === e.value),
          );
        }),
      );
      if (out.length !== rs.length) changed = true;
      return out;
    });
  }
  return kept;
}

/** How a candidate's values resolve, as herd7's solver leaves them. */
export interface Resolution {
  /** Whether herd7 keeps the candidate: every value solved, or unknown only through copies. */
  readonly kept: boolean;
  /**
   * The unknowns the candidate keeps: for each token its values carry, the reads (event ids)
   * that return it, in program order thread by thread.
   */
  readonly unknowns: ReadonlyMap<bigint, readonly number[]>;
}

const DROPPED: Resolution = { kept: false, unknowns: new Map() };

/**
 * Whether herd7 keeps a candidate, and its unknowns. A value is solved when it comes from the
 * initial state or the program's constants through rf and the dependencies (a read is solved
 * when its write is; a write when the reads its value and address come from are). What is left
 * must be herd7's unknown: each such read returns a token, each such write copies one of its
 * reads' tokens unchanged, no branch tests one and no address is computed from one; and each
 * unknown appears once, under the token of the first read it reaches (the same candidate with
 * another read's token is the same herd7 candidate, counted once). `rmwKept(id)` says whether an
 * unsolved RMW read leaves no equation (an exchange does; a compare-and-exchange or an add does).
 */
export function resolve(
  sk: Skeleton,
  x: Execution,
  tokens: Tokens,
  rmwKept: (id: number) => boolean,
): Resolution {
  const n = sk.events.length;
  const known = new Uint8Array(n);
  const src = new Int32Array(n).fill(-1);
  x.rf.forEach((w, r) => {
    src[r] = w;
  });
  for (let changed = true; changed;) {
    changed = false;
    for (const e of sk.events) {
      if (known[e.id]) continue;
      const o = sk.origin[e.id];
      let ok: boolean;
      if (!o || isLockEvent(e.tags) || e.dir === 'F') ok = true;
      else {
        const base = e.id - e.po;
        ok =
          o.addr.every((d) => known[base + d]) &&
          (e.dir !== 'W' || o.data.every((d) => known[base + d]));
        const from = src[e.id] as number;
        if (ok && e.dir === 'R') ok = from >= 0 && known[from] === 1;
      }
      if (ok) {
        known[e.id] = 1;
        changed = true;
      }
    }
  }
  if (known.every((k) => k === 1)) return { kept: true, unknowns: new Map() };
  if (tokens.owners.length === 0) return DROPPED;
  const unknowns = new Map<bigint, number[]>();
  for (const e of sk.events) {
    const o = sk.origin[e.id];
    if (!o) continue;
    const base = e.id - e.po;
    // No branch tests an unknown, and no address comes from one.
    if (o.ctrl.some((d) => !known[base + d]) || o.addr.some((d) => !known[base + d]))
      return DROPPED;
    if (known[e.id]) continue;
    if (tokens.owner(e.value) === null) return DROPPED;
    if (e.dir === 'R') {
      if ((e.tags & Tag.Rmw) !== 0 && !rmwKept(e.id)) return DROPPED;
      const at = unknowns.get(e.value);
      if (at) at.push(e.id);
      else unknowns.set(e.value, [e.id]);
    } else if (e.dir === 'W') {
      // A copy of one of its reads' unknowns, unchanged.
      if (!o.data.some((d) => !known[base + d] && sk.events[base + d]?.value === e.value))
        return DROPPED;
    }
  }
  for (const [token, reads] of unknowns) {
    const first = sk.events[reads[0] as number];
    const owner = tokens.owner(token);
    if (!first || !owner || owner.thread !== first.thread || owner.loc !== first.loc)
      return DROPPED;
  }
  // A value computed from an unknown (herd7 leaves its equation unsolved) that no write shows.
  for (const r of sk.runs) {
    if (r.regs.some((v) => tokens.derived(v))) return DROPPED;
    if (r.records.some(([, , v]) => tokens.derived(v))) return DROPPED;
  }
  return { kept: true, unknowns };
}

/**
 * An end state with each unknown's token (in memory, registers and records) replaced by the word
 * for herd7's name of it, `names` (token to herd7's number), so that it prints as herd7 prints it.
 */
export function nameUnknowns(state: Int32Array, names: ReadonlyMap<bigint, number>): Int32Array {
  if (names.size === 0) return state;
  const words = new Map<number, number>();
  for (const [token, n] of names) words.set(Number(BigInt.asIntN(32, token)), symbolWord(n));
  const out = state.slice();
  for (let i = 0; i < out.length; i++) {
    const w = words.get(out[i] as number);
    if (w !== undefined) out[i] = w;
  }
  return out;
}
