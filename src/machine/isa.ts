// The machine's instruction set, as plain data.
//
// Programs are arrays of `Instr` records rather than closures so that a state (pc + registers +
// memory) can be copied, hashed and shared, and so that the same program runs in the model, in
// Node tests and in live workers. Every record has the same shape, which keeps the interpreter's
// property loads monomorphic.
//
// Instructions are either *visible* (they touch memory or the CPU's scheduling state: one
// scheduler step each) or *local* (register arithmetic, branches, recording a result). Local
// instructions cannot be observed by any other context, so the interpreter runs them in the same
// step as the visible instruction before them; interleavings are therefore exactly those of the
// visible instructions, and `x++` on shared memory is two steps (load; store), as docs/machine.md says.

import { pairValue } from './int64.ts';

/** Opcodes. Visible ones are below `Op.FirstLocal`. */
export const Op = {
  /** dst = sign-extended 32-bit load. */
  Load: 0,
  /** 32-bit store of src's low word. */
  Store: 1,
  /** dst = 64-bit load in one step (64-bit machine). */
  Load64: 2,
  /** 64-bit store in one step (64-bit machine). */
  Store64: 3,
  /** dst.lo = low word of a 64-bit cell (one half of a torn 32-bit-machine access). */
  LoadLo: 4,
  /** dst.hi = high word of a 64-bit cell. */
  LoadHi: 5,
  /** Low word of src into a 64-bit cell. */
  StoreLo: 6,
  /** High word of src into a 64-bit cell. */
  StoreHi: 7,
  /** LOCK add (atomic_add / atomic64_add), one step; dst (if any) = the new value. */
  AtomicAdd: 8,
  /** LOCK xchg, one step; dst = old value. */
  Xchg: 9,
  /** LOCK cmpxchg, one step: if mem == src then mem = src2; dst = old value. */
  Cmpxchg: 10,
  /** LOCK or, one step; dst (if any) = the old value (atomic_fetch_or). */
  AtomicOr: 11,
  /** spin_lock: takes the lock word if 0 (and disables preemption), else spins (no change). */
  SpinLock: 12,
  /** spin_unlock: clears the lock word, re-enables preemption. */
  SpinUnlock: 13,
  PreemptDisable: 14,
  PreemptEnable: 15,
  /** local_irq_save: dst = interrupts-on flag; interrupts off. */
  IrqSave: 16,
  /** local_irq_restore: interrupts = src; a pending IRQ is delivered if they come back on. */
  IrqRestore: 17,
  IrqDisable: 18,
  IrqEnable: 19,
  /** this_cpu_ptr(): dst = base + cpu × stride for the CPU the context is on at this step. */
  AddrGen: 20,
  /** smp_processor_id(): dst = the CPU the context is on at this step. */
  CpuId: 21,
  /** spin_trylock: takes the lock word if 0 (preemption off) and dst = 1, else dst = 0. */
  SpinTrylock: 22,
  /**
   * A loop of a typed program reached its bound (`#pragma lab loop_bound`): the context can go
   * no further. Never a legal step; Explore reports the paths it cuts as incomplete.
   */
  Halt: 23,
  /**
   * smp_mb(): a full barrier. Under x86-TSO it drains the CPU's store buffer, one step; on the
   * sequentially consistent machine there is nothing to drain, and `compile` turns it into
   * NoFence, which takes no step (docs/machine.md, "Store buffers").
   */
  Fence: 24,
  /** LOCK and, one step; dst (if any) = the old value (atomic_fetch_and). */
  AtomicAnd: 25,
  /** LOCK xor, one step; dst (if any) = the old value (atomic_fetch_xor). */
  AtomicXor: 26,
  /**
   * atomic_add_unless, one step: unless mem == src2, mem += src (or the immediate); dst = the old
   * value. The kernel's cmpxchg loop, seen from outside: it adds once or not at all.
   */
  AddUnless: 27,

  /** First local opcode: the ones below never count as a step of their own. */
  FirstLocal: 32,
  /** dst = src (or the immediate). */
  Mov: 32,
  /** dst = src + (src2 or immediate). */
  Add: 33,
  /** dst = src − (src2 or immediate). */
  Sub: 34,
  /** dst = src & (src2 or immediate), bitwise on both words. */
  And: 35,
  /** dst = src | (src2 or immediate), bitwise on both words. */
  Or: 36,
  /** if cond(src, src2 or immediate) goto target. */
  Branch: 37,
  /** goto target. */
  Jump: 38,
  /** results[base + (areg ≥ 0 ? reg(areg) : 0)] = src: what a sum() or read() returned. */
  Record: 39,
  /** No-op in the model; a short wait on live workers (lets a task loop forever politely). */
  Pause: 40,
  /**
   * Appends the sum of every context's tally (what all tasks and handlers have added so far) to
   * a result slot: the exact total at that moment, so an invariant can compare a sum() with the
   * truth when it started and when it returned.
   */
  RecordTotal: 41,
  /** dst = src × (src2 or immediate), 64-bit, wrapping. */
  Mul: 42,
  /** dst = src ÷ (src2 or immediate), truncated toward zero (C's /). */
  Div: 43,
  /** dst = src mod (src2 or immediate), with the sign of src (C's %). */
  Mod: 44,
  /** dst = src ^ (src2 or immediate), bitwise on both words. */
  Xor: 45,
  /** dst = src << (src2 or immediate), 64-bit. */
  Shl: 46,
  /** dst = src >> (src2 or immediate), arithmetic, 64-bit. */
  Shr: 47,
  /** dst = cond(src, src2 or immediate) ? 1 : 0. */
  SetCond: 48,
  /**
   * Adds (src2 or immediate) to the context's tally: an add completes here, at its call's
   * return, where no single store completes it (a typed program's add, docs/language.md).
   */
  Tally: 49,
  /** smp_mb() on a machine without store buffers: nothing to drain, no step. */
  NoFence: 50,
} as const;

/** Branch conditions (signed 64-bit comparisons). */
export const Cond = {
  Eq: 0,
  Ne: 1,
  Lt: 2,
  Le: 3,
  Gt: 4,
  Ge: 5,
  /** |src| >= operand, as in `if (abs(count) >= batch)`. */
  AbsGe: 6,
  /** |src| < operand. */
  AbsLt: 7,
  /** (src & operand) != 0, for flag bits such as the sequence's low bit. */
  BitSet: 8,
  /** (src & operand) == 0. */
  BitClear: 9,
} as const;

/**
 * Whether condition `cond` holds of two exact values: the machine's signed comparisons, for
 * code that reasons about values rather than stepping a state (the compiler's constant folding,
 * the axiomatic engine's runs). The interpreter compares word pairs itself, for speed.
 */
export function condHolds(cond: number, a: bigint, b: bigint): boolean {
  switch (cond) {
    case Cond.Eq:
      return a === b;
    case Cond.Ne:
      return a !== b;
    case Cond.Lt:
      return a < b;
    case Cond.Le:
      return a <= b;
    case Cond.Gt:
      return a > b;
    case Cond.Ge:
      return a >= b;
    case Cond.AbsGe:
      return (a < 0n ? -a : a) >= b;
    case Cond.AbsLt:
      return (a < 0n ? -a : a) < b;
    case Cond.BitSet:
      return (a & b) !== 0n;
    default:
      return (a & b) === 0n;
  }
}

/**
 * What a pointer holds: the word address plus this base. Pointers and numbers live in the same
 * registers and cells, and a litmus test compares them (`1:r1=x`, `r1 == 0`), so no address may
 * equal a small number: with the base, `&a` is never 0 even when `a` is word 0, as herd7's
 * symbolic locations are never integers. Addressing through a register subtracts it again.
 */
export const POINTER_BASE = 0x4000_0000;

/** The word address a pointer value stands for (any value: the interpreter checks bounds). */
export function pointerAddress(v: number): number {
  return (v - POINTER_BASE) | 0;
}

/** How a memory operand's word address is formed. */
export const Mode = {
  None: 0,
  /** A fixed address (a global cell). */
  Abs: 1,
  /** base + cpu × stride: "this CPU's" element, for the CPU the context is on at that step. */
  ThisCpu: 2,
  /** The address held in register `areg` as a pointer (made by AddrGen, `&x` or a load). */
  Reg: 3,
  /** base + reg(areg) × stride: per_cpu_ptr(p, i) for an explicit CPU i. */
  Indexed: 4,
} as const;

/**
 * What a step means, for the charts and the narration. Set by the scenario on the instructions
 * where it matters; events (IRQ, NMI, migration) get their own kinds.
 */
export const Kind = {
  Plain: 0,
  /** A per-CPU delta poured into the global count. */
  Fold: 1,
  /** A sequence counter bump. */
  SeqBump: 2,
  /** A sum starting over. */
  SumRetry: 3,
  /** A lock that was not free: the CPU spins. Set by the interpreter, not by programs. */
  LockSpin: 4,
  LockAcquire: 5,
  LockRelease: 6,
  /** Half of a 64-bit access on a 32-bit machine. */
  TornAccess: 7,
  IrqEntry: 8,
  IrqExit: 9,
  NmiEntry: 10,
  NmiExit: 11,
  Preempt: 12,
  Migration: 13,
  /** A per-CPU delta crossing its batch (the decision to fold). */
  Overflow: 14,
  /** A value returned to the caller (sum(), read()). */
  Result: 15,
  /** An IRQ raised while interrupts are off: held pending. */
  IrqPending: 16,
  /** Under TSO: the oldest entry of a CPU's store buffer reaches memory. */
  Flush: 17,
  /** CPU hotplug: a CPU goes offline or comes back online. */
  Hotplug: 18,
} as const;

export const kindNames: Readonly<Record<number, string>> = {
  [Kind.Plain]: 'plain',
  [Kind.Fold]: 'fold',
  [Kind.SeqBump]: 'sequence-bump',
  [Kind.SumRetry]: 'sum-retry',
  [Kind.LockSpin]: 'lock-spin',
  [Kind.LockAcquire]: 'lock-acquire',
  [Kind.LockRelease]: 'lock-release',
  [Kind.TornAccess]: 'torn-access',
  [Kind.IrqEntry]: 'irq-entry',
  [Kind.IrqExit]: 'irq-exit',
  [Kind.NmiEntry]: 'nmi-entry',
  [Kind.NmiExit]: 'nmi-exit',
  [Kind.Preempt]: 'preempt',
  [Kind.Migration]: 'migration',
  [Kind.Overflow]: 'overflow',
  [Kind.Result]: 'result',
  [Kind.IrqPending]: 'irq-pending',
  [Kind.Flush]: 'flush',
  [Kind.Hotplug]: 'hotplug',
};

/** One instruction. Every field is always present so all records share one hidden class. */
export interface Instr {
  readonly op: number;
  /** Register written, or −1. */
  readonly dst: number;
  /** First register read, or −1. */
  readonly src: number;
  /** Second register read (Cmpxchg's new value, a binary op's right operand), or −1. */
  readonly src2: number;
  /** True when the right operand is the immediate (immLo, immHi) instead of src2. */
  readonly useImm: boolean;
  readonly immLo: number;
  readonly immHi: number;
  /** 32 or 64: the width of a memory access. */
  readonly width: number;
  readonly mode: number;
  readonly base: number;
  readonly stride: number;
  /** Address or index register for Mode.Reg / Mode.Indexed / Record, or −1. */
  readonly areg: number;
  readonly cond: number;
  /** Jump target (an index into the program), or −1. */
  readonly target: number;
  /** Line of the scenario's listing this instruction implements (1-based), or 0. */
  readonly line: number;
  /** Column of that line where the statement starts (1-based), or 0 when not known. */
  readonly col: number;
  readonly kind: number;
  /**
   * The second half of a local-atomic (non-LOCK single x86 instruction): no IRQ, NMI or
   * preemption may come between it and the instruction before it, but other CPUs may step.
   */
  readonly tail: boolean;
  /** Amount added to the context's tally (what it contributed) when this executes. */
  readonly tally: number;
  /**
   * The kernel memory model's tags (src/machine/tags.ts): READ_ONCE's `Once`, a release, an
   * acquire, a fully ordered RMW, a fence's kind. 0 for a plain C access; ignored by the machine.
   */
  readonly tag: number;
  /** Narration template ('' for the default sentence); see narrate.ts for the placeholders. */
  readonly say: string;
  /** For spin_lock: why the CPU needs the lock, told when it has to spin ('' for nothing). */
  readonly saySpin: string;
}

/** Where an instruction came from in a typed program's text: a half-open range of offsets. */
export interface Site {
  readonly start: number;
  readonly end: number;
}

/**
 * A call the compiler inlined, or one turn of a CPU walk it unrolled (`for_each_online_cpu`), in
 * a typed program: an execution graph boxes the events of one together. The instructions of one
 * are contiguous.
 */
export interface Scope {
  /** Tells inlinings apart: the same for every instruction of one call, or one walk's turns. */
  readonly id: number;
  /** The function's name, or the walk's macro ("for_each_online_cpu"). */
  readonly name: string;
  /** The call's text (`f(&x, 1)`), or the walk's statement. */
  readonly site: Site;
  /** For a walk: the CPU this turn takes (0, 1…); −1 for a call. */
  readonly turn: number;
}

/** A program: instructions plus the names of its registers (for narration and debugging). */
export interface Program {
  readonly name: string;
  readonly instrs: readonly Instr[];
  readonly regNames: readonly string[];
  /**
   * Programs compiled from text (src/lang): the text, and for each instruction the statement it
   * belongs to, so the narration can quote it and the listing can mark it, and the calls and
   * walks it is inside, outermost first (the thread's body itself is none).
   */
  readonly source?: {
    readonly text: string;
    readonly sites: readonly Site[];
    readonly scopes?: readonly (readonly Scope[])[];
  };
}

export function isLocal(op: number): boolean {
  return op >= Op.FirstLocal;
}

/** Whether a (visible) instruction reads or writes its memory operand. */
export function touchesMemory(op: number): boolean {
  return op <= Op.SpinUnlock || op === Op.SpinTrylock || (op >= Op.AtomicAnd && op <= Op.AddUnless);
}

/** Whether an instruction writes its memory operand (a lock's word aside). */
export function writesMemory(op: number): boolean {
  return (
    op === Op.Store ||
    op === Op.Store64 ||
    op === Op.StoreLo ||
    op === Op.StoreHi ||
    isAtomicRmw(op)
  );
}

/** Whether an instruction is a LOCK-prefixed read-modify-write of its memory operand. */
export function isAtomicRmw(op: number): boolean {
  return (
    op === Op.AtomicAdd ||
    op === Op.AtomicOr ||
    op === Op.AtomicAnd ||
    op === Op.AtomicXor ||
    op === Op.AddUnless ||
    op === Op.Xchg ||
    op === Op.Cmpxchg
  );
}

/**
 * What an instruction adds to its context's tally: a memory step's own `tally`, or a Tally
 * instruction's immediate (an add that completes at its call's return). A Tally from a register
 * is not known here: 0.
 */
export function tallyOf(ins: Instr): number {
  if (ins.tally !== 0) return ins.tally;
  if (ins.op !== Op.Tally || !ins.useImm) return 0;
  return Number(pairValue(ins.immLo, ins.immHi));
}

/**
 * An instruction that does nothing yet, every field at its neutral value: what the builder and
 * the language's emitter start each record from, so every record has the same shape (which keeps
 * the interpreter's property loads monomorphic).
 */
export const BLANK_INSTR: Instr = {
  op: Op.Pause,
  dst: -1,
  src: -1,
  src2: -1,
  useImm: false,
  immLo: 0,
  immHi: 0,
  width: 32,
  mode: Mode.None,
  base: 0,
  stride: 0,
  areg: -1,
  cond: Cond.Eq,
  target: -1,
  line: 0,
  col: 0,
  kind: Kind.Plain,
  tail: false,
  tally: 0,
  tag: 0,
  say: '',
  saySpin: '',
};

/** A memory operand as the builder and the language's emitter describe one. */
export interface OperandSpec {
  readonly mode: number;
  readonly base: number;
  readonly stride: number;
  /** Address or index register (Mode.Reg, Mode.Indexed), or null. */
  readonly reg: { readonly index: number } | null;
  readonly width: 32 | 64;
}

/** The instruction fields that name a memory operand. */
export function operandFields(
  a: OperandSpec,
): Pick<Instr, 'mode' | 'base' | 'stride' | 'areg' | 'width'> {
  return {
    mode: a.mode,
    base: a.base,
    stride: a.stride,
    areg: a.reg ? a.reg.index : -1,
    width: a.width,
  };
}
