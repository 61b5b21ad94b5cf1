// Which loops need a bound. A loop whose turns carry nothing from one to the next in registers
// (a retry that reloads what it tests, a spin on a flag, a cmpxchg loop that takes the value it
// found) returns to a state already met, so Explore terminates on it without help; a loop that
// carries a register across turns (a counter, an accumulator: i = i + 1) could make every turn a
// new state, so it gets a hidden counter and stops at the program's loop bound. Decided on the
// first pass's instructions: a loop carries state when a register live at its head may still
// depend, at a back edge, on the value it had at the head (a value just loaded from memory does
// not).

import { Mode, Op } from '../machine/isa.ts';
import type { Draft } from './emit.ts';

/** Registers an instruction reads. */
function uses(d: Draft): number[] {
  const out: number[] = [];
  if (d.src >= 0) out.push(d.src);
  if (!d.useImm && d.src2 >= 0) out.push(d.src2);
  if ((d.mode === Mode.Reg || d.mode === Mode.Indexed) && d.areg >= 0) out.push(d.areg);
  // A half load writes one word of its register and keeps the other.
  if ((d.op === Op.LoadLo || d.op === Op.LoadHi) && d.dst >= 0) out.push(d.dst);
  return out;
}

/** The register an instruction overwrites whole, or −1. */
function kills(d: Draft): number {
  if (d.dst < 0 || d.op === Op.LoadLo || d.op === Op.LoadHi) return -1;
  return d.dst;
}

/** Whether the register an instruction writes takes its value from memory (not from registers). */
function fromMemory(d: Draft): boolean {
  switch (d.op) {
    case Op.Load:
    case Op.Load64:
    case Op.Xchg:
    case Op.Cmpxchg:
    case Op.AtomicAdd:
    case Op.AtomicOr:
    case Op.AtomicAnd:
    case Op.AtomicXor:
    case Op.AddUnless:
    case Op.SpinTrylock:
    case Op.CpuId:
    case Op.AddrGen:
    case Op.IrqSave:
      return true;
    case Op.Mov:
      return d.useImm;
    default:
      return false;
  }
}

/** The instructions that can run after instruction `pc` of a program being emitted. */
export function successors(drafts: readonly Draft[], pc: number): number[] {
  const d = drafts[pc] as Draft;
  const target = d.to ? d.to.pc : -1;
  if (d.op === Op.Jump) return [target];
  if (d.op === Op.Halt) return [];
  if (d.op === Op.Branch) return [pc + 1, target];
  return [pc + 1];
}

/** The registers live before each instruction (backward dataflow to a fixed point). */
function liveness(drafts: readonly Draft[]): Set<number>[] {
  const n = drafts.length;
  const live: Set<number>[] = Array.from({ length: n + 1 }, () => new Set());
  let changed = true;
  while (changed) {
    changed = false;
    for (let pc = n - 1; pc >= 0; pc--) {
      const d = drafts[pc] as Draft;
      const out = new Set<number>();
      for (const s of successors(drafts, pc)) for (const r of live[s] ?? []) out.add(r);
      const k = kills(d);
      if (k >= 0) out.delete(k);
      for (const r of uses(d)) out.add(r);
      const cur = live[pc] as Set<number>;
      if (out.size !== cur.size || [...out].some((r) => !cur.has(r))) {
        live[pc] = out;
        changed = true;
      }
    }
  }
  return live;
}

const immediate = (d: Draft) => BigInt(d.immLo >>> 0) + (BigInt(d.immHi) << 32n);

/** A branch condition on two known values (the comparisons a flag is tested with). */
function branchHolds(cond: number, a: bigint, b: bigint): boolean | null {
  switch (cond) {
    case 0:
      return a === b;
    case 1:
      return a !== b;
    case 2:
      return a < b;
    case 3:
      return a <= b;
    case 4:
      return a > b;
    case 5:
      return a >= b;
    default:
      return null;
  }
}

/**
 * Whether a register live at the loop's head may still hold, at a back edge, a value that depends
 * on what it held at the head: a forward walk over the loop's paths, carrying the set of such
 * registers and the registers known to hold constants (a branch on one goes one way only, as a
 * try_cmpxchg's success flag decides its loop's exit).
 */
function carriesState(
  drafts: readonly Draft[],
  header: number,
  end: number,
  atHead: ReadonlySet<number>,
): boolean {
  type Path = [pc: number, taint: Set<number>, changed: Set<number>, known: Map<number, bigint>];
  const seen = new Set<string>();
  // taint: registers whose value depends on the head's; changed: those the turn recomputed so.
  const todo: Path[] = [[header, new Set(atHead), new Set(), new Map()]];
  const sorted = (x: Set<number>) => [...x].sort((a, b) => a - b).join(',');
  while (todo.length > 0) {
    const [pc, taint, changed, known] = todo.pop() as Path;
    const key = `${pc}|${sorted(taint)}|${sorted(changed)}|${[...known].join(';')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Too many paths to follow: say it carries state, which only adds a bound.
    if (seen.size > 20_000) return true;
    const d = drafts[pc] as Draft;
    const t = new Set(taint);
    const c = new Set(changed);
    const k2 = new Map(known);
    const k = kills(d);
    if (k >= 0) {
      if (!fromMemory(d) && uses(d).some((r) => taint.has(r))) {
        t.add(k);
        c.add(k);
      } else {
        t.delete(k);
        c.delete(k);
      }
      if (d.op === Op.Mov && d.useImm) k2.set(k, immediate(d));
      else k2.delete(k);
    }
    let succs = successors(drafts, pc);
    if (d.op === Op.Branch) {
      const a = known.get(d.src);
      const b = d.useImm ? immediate(d) : known.get(d.src2);
      const holds = a !== undefined && b !== undefined ? branchHolds(d.cond, a, b) : null;
      if (holds !== null) succs = [holds ? (d.to?.pc ?? -1) : pc + 1];
    }
    for (const s of succs) {
      if (s === header) {
        if ([...atHead].some((r) => c.has(r))) return true;
        continue;
      }
      if (s > header && s < end) todo.push([s, t, c, k2]);
    }
  }
  return false;
}

/**
 * The loops among `loops` that need a hidden counter, by key: `stepless` for a loop that takes
 * no step (bounded even when it counts to a constant: a million turns of local arithmetic are
 * one step that never ends), `carries` for one that carries state. `fenceSteps`: smp_mb() is a
 * step (under tso; elsewhere the machine makes it a no-op).
 */
export function loopsNeedingBounds(
  drafts: readonly Draft[],
  loops: readonly { key: string; start: number; end: number; header: number }[],
  fenceSteps = true,
): Map<string, 'stepless' | 'carries'> {
  const out = new Map<string, 'stepless' | 'carries'>();
  if (loops.length === 0) return out;
  const live = liveness(drafts);
  for (const l of loops) {
    let visible = false;
    for (let pc = l.start; pc < l.end; pc++) {
      const op = (drafts[pc] as Draft).op;
      if (op < Op.FirstLocal && (fenceSteps || op !== Op.Fence)) visible = true;
    }
    // A loop of register arithmetic alone takes no step: bound it, or one step never ends.
    if (!visible) {
      out.set(l.key, 'stepless');
      continue;
    }
    const atHead = live[l.header] ?? new Set<number>();
    if (carriesState(drafts, l.header, l.end, atHead)) out.set(l.key, 'carries');
  }
  return out;
}
