// A small builder that turns readable TypeScript into machine programs.
//
//   const p = new ProgramBuilder('add', { wordBits: 64 });
//   const r = p.reg('r');
//   p.line(3).load(r, abs(nr)).add(r, r, 1).store(abs(nr), r, { tally: 1 });
//
// Each instruction carries the listing line set by `line()` (sticky) or by its options, so the
// UI can put a cursor on the pseudo-C line a CPU is about to run.

import { hiOf, loOf } from './int64.ts';
import {
  BLANK_INSTR,
  Cond,
  type Instr,
  Kind,
  Mode,
  Op,
  operandFields,
  type OperandSpec,
  type Program,
} from './isa.ts';
import type { Cell, PerCpuCell, ResultSlot } from './layout.ts';

export class Reg {
  constructor(
    readonly index: number,
    readonly name: string,
  ) {}
}

export class Label {
  pc = -1;
}

/** A memory operand: how the word address is formed at the step that uses it. */
export interface Addr extends OperandSpec {
  readonly reg: Reg | null;
}

function widthOf(type: Cell['type']): 32 | 64 {
  return type === 's64' ? 64 : 32;
}

/** A global cell. */
export function abs(cell: Cell): Addr {
  return { mode: Mode.Abs, base: cell.addr, stride: 0, reg: null, width: widthOf(cell.type) };
}

/** This CPU's element of a per-CPU variable (the CPU the context is on at that step). */
export function thisCpu(v: PerCpuCell): Addr {
  return { mode: Mode.ThisCpu, base: v.base, stride: v.stride, reg: null, width: widthOf(v.type) };
}

/** CPU `i`'s element of a per-CPU variable, `i` held in a register (per_cpu_ptr(p, i)). */
export function cpuOf(v: PerCpuCell, i: Reg): Addr {
  return { mode: Mode.Indexed, base: v.base, stride: v.stride, reg: i, width: widthOf(v.type) };
}

/** The address held in a register (made by addrGen), of the given width. */
export function deref(r: Reg, width: 32 | 64 = 32): Addr {
  return { mode: Mode.Reg, base: 0, stride: 0, reg: r, width };
}

export type Operand = Reg | number | bigint;

export interface InstrOptions {
  line?: number;
  kind?: number;
  tally?: number;
  /**
   * Narration template. On a local instruction it is told when that instruction runs (a taken
   * branch, a jump). On a two-step local-atomic instruction it goes on the completing store.
   */
  say?: string;
  /** For local-atomic instructions: the template of the first (load) half. */
  sayHead?: string;
  /** For spin_lock: why the lock is needed, added when the CPU has to spin. */
  saySpin?: string;
}

export interface BuilderOptions {
  /** 32: 64-bit plain loads and stores take two steps (and can tear). */
  wordBits?: 32 | 64;
  /** Order of the two halves of a plain 64-bit load on a 32-bit machine. */
  loadOrder?: 'lo-hi' | 'hi-lo';
  /** Order of the two halves of a plain 64-bit store on a 32-bit machine. */
  storeOrder?: 'lo-hi' | 'hi-lo';
}

type Draft = { -readonly [K in keyof Instr]: Instr[K] } & { targetLabel: Label | null };

const blank: Omit<Draft, 'targetLabel'> = BLANK_INSTR;

export class ProgramBuilder {
  private readonly drafts: Draft[] = [];
  private readonly regs: Reg[] = [];
  private currentLine = 0;
  private readonly wordBits: 32 | 64;
  private readonly loadOrder: 'lo-hi' | 'hi-lo';
  private readonly storeOrder: 'lo-hi' | 'hi-lo';

  constructor(
    readonly name: string,
    options: BuilderOptions = {},
  ) {
    this.wordBits = options.wordBits ?? 64;
    this.loadOrder = options.loadOrder ?? 'lo-hi';
    this.storeOrder = options.storeOrder ?? 'lo-hi';
  }

  /** A new register, named for narration. */
  reg(name: string): Reg {
    const r = new Reg(this.regs.length, name);
    this.regs.push(r);
    return r;
  }

  /** Sets the listing line for the instructions that follow. */
  line(n: number): this {
    this.currentLine = n;
    return this;
  }

  label(): Label {
    return new Label();
  }

  /** Places a label at the next instruction. */
  bind(l: Label): this {
    if (l.pc >= 0) throw new Error(`${this.name}: label bound twice`);
    l.pc = this.drafts.length;
    return this;
  }

  private emit(fields: Partial<Omit<Draft, 'targetLabel'>>, o: InstrOptions = {}, to?: Label) {
    this.drafts.push({
      ...blank,
      line: o.line ?? this.currentLine,
      kind: o.kind ?? Kind.Plain,
      tally: o.tally ?? 0,
      say: o.say ?? '',
      saySpin: o.saySpin ?? '',
      ...fields,
      targetLabel: to ?? null,
    });
    return this;
  }

  private operand(b: Operand): Partial<Draft> {
    if (b instanceof Reg) return { src2: b.index, useImm: false };
    return { useImm: true, immLo: loOf(b), immHi: hiOf(b) };
  }

  private addr(a: Addr): Partial<Draft> {
    return operandFields(a);
  }

  // ---- visible instructions: one step each -------------------------------------------------

  /** Plain load. A 64-bit cell takes two steps on a 32-bit machine (torn access). */
  load(dst: Reg, a: Addr, o: InstrOptions = {}): this {
    if (a.width === 32) return this.emit({ op: Op.Load, dst: dst.index, ...this.addr(a) }, o);
    if (this.wordBits === 64) {
      return this.emit({ op: Op.Load64, dst: dst.index, ...this.addr(a) }, o);
    }
    const halves = this.loadOrder === 'lo-hi' ? [Op.LoadLo, Op.LoadHi] : [Op.LoadHi, Op.LoadLo];
    const torn = { ...o, kind: o.kind ?? Kind.TornAccess };
    for (const op of halves) this.emit({ op, dst: dst.index, ...this.addr(a) }, torn);
    return this;
  }

  /** Plain store. A 64-bit cell takes two steps on a 32-bit machine; the tally goes on the last. */
  store(a: Addr, src: Reg, o: InstrOptions = {}): this {
    if (a.width === 32) return this.emit({ op: Op.Store, src: src.index, ...this.addr(a) }, o);
    if (this.wordBits === 64) {
      return this.emit({ op: Op.Store64, src: src.index, ...this.addr(a) }, o);
    }
    const halves =
      this.storeOrder === 'lo-hi' ? [Op.StoreLo, Op.StoreHi] : [Op.StoreHi, Op.StoreLo];
    const kind = o.kind ?? Kind.TornAccess;
    this.emit({ op: halves[0], src: src.index, ...this.addr(a) }, { ...o, kind, tally: 0 });
    return this.emit({ op: halves[1], src: src.index, ...this.addr(a) }, { ...o, kind });
  }

  /** LOCK add (atomic_inc, atomic64_add): one step on any machine. `dst` gets the new value. */
  atomicAdd(a: Addr, v: Operand, o: InstrOptions & { dst?: Reg } = {}): this {
    return this.emit(
      { op: Op.AtomicAdd, dst: o.dst ? o.dst.index : -1, ...this.addr(a), ...this.src1(v) },
      o,
    );
  }

  /** LOCK or (atomic_or): one step. */
  atomicOr(a: Addr, v: Operand, o: InstrOptions & { dst?: Reg } = {}): this {
    return this.emit(
      { op: Op.AtomicOr, dst: o.dst ? o.dst.index : -1, ...this.addr(a), ...this.src1(v) },
      o,
    );
  }

  /** LOCK xchg: one step; dst = old value. */
  xchg(dst: Reg, a: Addr, v: Reg, o: InstrOptions = {}): this {
    return this.emit({ op: Op.Xchg, dst: dst.index, src: v.index, ...this.addr(a) }, o);
  }

  /** LOCK cmpxchg: one step; if *a == expected then *a = next; dst = old value. */
  cmpxchg(dst: Reg, a: Addr, expected: Reg, next: Reg, o: InstrOptions = {}): this {
    return this.emit(
      { op: Op.Cmpxchg, dst: dst.index, src: expected.index, src2: next.index, ...this.addr(a) },
      o,
    );
  }

  /**
   * spin_lock: one step that takes the lock if free (disabling preemption), else spins. A lock
   * is a global cell or an address (e.g. `thisCpu(locks)` for an lglock's per-CPU lock).
   */
  spinLock(lock: Cell | Addr, o: InstrOptions = {}): this {
    const a = 'mode' in lock ? lock : abs(lock);
    return this.emit({ op: Op.SpinLock, ...this.addr(a) }, { kind: Kind.LockAcquire, ...o });
  }

  spinUnlock(lock: Cell | Addr, o: InstrOptions = {}): this {
    const a = 'mode' in lock ? lock : abs(lock);
    return this.emit({ op: Op.SpinUnlock, ...this.addr(a) }, { kind: Kind.LockRelease, ...o });
  }

  preemptDisable(o: InstrOptions = {}): this {
    return this.emit({ op: Op.PreemptDisable }, o);
  }

  preemptEnable(o: InstrOptions = {}): this {
    return this.emit({ op: Op.PreemptEnable }, o);
  }

  /** local_irq_save(flags): flags = interrupts-on; interrupts off. */
  irqSave(flags: Reg, o: InstrOptions = {}): this {
    return this.emit({ op: Op.IrqSave, dst: flags.index }, o);
  }

  /** local_irq_restore(flags): a pending IRQ is delivered if interrupts come back on. */
  irqRestore(flags: Reg, o: InstrOptions = {}): this {
    return this.emit({ op: Op.IrqRestore, src: flags.index }, o);
  }

  irqDisable(o: InstrOptions = {}): this {
    return this.emit({ op: Op.IrqDisable }, o);
  }

  irqEnable(o: InstrOptions = {}): this {
    return this.emit({ op: Op.IrqEnable }, o);
  }

  /** this_cpu_ptr(v): dst = the address of this CPU's element, fixed at this step. */
  addrGen(dst: Reg, v: PerCpuCell, o: InstrOptions = {}): this {
    return this.emit(
      { op: Op.AddrGen, dst: dst.index, mode: Mode.ThisCpu, base: v.base, stride: v.stride },
      o,
    );
  }

  /** smp_processor_id(). */
  cpuId(dst: Reg, o: InstrOptions = {}): this {
    return this.emit({ op: Op.CpuId, dst: dst.index }, o);
  }

  // ---- local-atomic instructions: two steps that no IRQ, NMI or preemption can split ---------

  /**
   * x86 `this_cpu_add` / `add %gs:`: one non-LOCK instruction. Its load and store are separate
   * steps (another CPU can write in between) but nothing on this CPU can interrupt it.
   */
  localAdd(a: Addr, v: Operand, tmp: Reg, o: InstrOptions = {}): this {
    this.assertOneAccess(a);
    this.load(tmp, a, { ...o, tally: 0, say: o.sayHead ?? '' });
    this.emit({ op: Op.Add, dst: tmp.index, src: tmp.index, ...this.operand(v) });
    const store = a.width === 64 ? Op.Store64 : Op.Store;
    return this.emit({ op: store, src: tmp.index, ...this.addr(a), tail: true }, o);
  }

  /**
   * x86 `cmpxchg` without LOCK (cmpxchg_local, this_cpu_cmpxchg): dst = *a; if dst == expected
   * then *a = next in the same instruction. Safe against this CPU's interrupts, not other CPUs.
   */
  cmpxchgLocal(dst: Reg, a: Addr, expected: Reg, next: Reg, o: InstrOptions = {}): this {
    this.assertOneAccess(a);
    const done = this.label();
    this.load(dst, a, { ...o, tally: 0, say: o.sayHead ?? '' });
    this.branch(Cond.Ne, dst, expected, done);
    const store = a.width === 64 ? Op.Store64 : Op.Store;
    this.emit({ op: store, src: next.index, ...this.addr(a), tail: true }, o);
    return this.bind(done);
  }

  // ---- local instructions: run within the step of the visible instruction before them -------

  mov(dst: Reg, v: Operand): this {
    return this.emit({ op: Op.Mov, dst: dst.index, ...this.src1(v) });
  }

  add(dst: Reg, a: Reg, b: Operand): this {
    return this.emit({ op: Op.Add, dst: dst.index, src: a.index, ...this.operand(b) });
  }

  sub(dst: Reg, a: Reg, b: Operand): this {
    return this.emit({ op: Op.Sub, dst: dst.index, src: a.index, ...this.operand(b) });
  }

  and(dst: Reg, a: Reg, b: Operand): this {
    return this.emit({ op: Op.And, dst: dst.index, src: a.index, ...this.operand(b) });
  }

  or(dst: Reg, a: Reg, b: Operand): this {
    return this.emit({ op: Op.Or, dst: dst.index, src: a.index, ...this.operand(b) });
  }

  /** if cond(a, b) goto to. A taken branch of kind SumRetry counts as a retry of the context. */
  branch(cond: number, a: Reg, b: Operand, to: Label, o: InstrOptions = {}): this {
    return this.emit({ op: Op.Branch, cond, src: a.index, ...this.operand(b) }, o, to);
  }

  jump(to: Label, o: InstrOptions = {}): this {
    return this.emit({ op: Op.Jump }, o, to);
  }

  /** Records what a sum() or read() returned (appended to the slot). */
  record(slot: ResultSlot, v: Reg, o: InstrOptions = {}): this {
    return this.emit(
      { op: Op.Record, src: v.index, base: slot.offset, stride: slot.capacity },
      { kind: Kind.Result, ...o },
    );
  }

  /** Records the exact total (every context's tally) now, e.g. when a sum() starts and returns. */
  recordTotal(slot: ResultSlot): this {
    return this.emit({ op: Op.RecordTotal, base: slot.offset, stride: slot.capacity });
  }

  pause(): this {
    return this.emit({ op: Op.Pause });
  }

  // ---- structure -------------------------------------------------------------------------------

  /** Runs `body` `times` times (a hidden counter register; the loop itself costs no step). */
  repeat(times: number, body: () => void): this {
    // Once needs no loop: fewer local instructions to run, and no counter register to show.
    if (times === 1) {
      body();
      return this;
    }
    const i = this.reg(`i${this.regs.length}`);
    const top = this.label();
    const end = this.label();
    this.mov(i, times);
    this.bind(top).branch(Cond.Le, i, 0, end);
    body();
    this.sub(i, i, 1).jump(top);
    return this.bind(end);
  }

  /** Runs `body` forever (live tasks), with a pause between rounds. */
  forever(body: () => void): this {
    const top = this.label();
    this.bind(top);
    body();
    return this.pause().jump(top);
  }

  /** if cond(a, b) { then } else { otherwise }. */
  ifThen(cond: number, a: Reg, b: Operand, then: () => void, otherwise?: () => void): this {
    const elseLabel = this.label();
    const end = this.label();
    this.branch(invert(cond), a, b, elseLabel);
    then();
    if (otherwise) this.jump(end);
    this.bind(elseLabel);
    if (otherwise) otherwise();
    return this.bind(end);
  }

  private assertOneAccess(a: Addr): void {
    if (a.width === 64 && this.wordBits === 32) {
      throw new Error(`${this.name}: a local-atomic 64-bit access needs a 64-bit machine`);
    }
  }

  private src1(v: Operand): Partial<Draft> {
    if (v instanceof Reg) return { src: v.index, useImm: false };
    return { useImm: true, immLo: loOf(v), immHi: hiOf(v) };
  }

  build(): Program {
    const instrs = this.drafts.map((d): Instr => {
      const { targetLabel, ...rest } = d;
      if (targetLabel) {
        if (targetLabel.pc < 0) throw new Error(`${this.name}: jump to an unbound label`);
        rest.target = targetLabel.pc;
      }
      return Object.freeze(rest);
    });
    return { name: this.name, instrs, regNames: this.regs.map((r) => r.name) };
  }
}

/** Each condition with the one that holds exactly when it does not. */
const OPPOSITES: readonly (readonly [number, number])[] = [
  [Cond.Eq, Cond.Ne],
  [Cond.Lt, Cond.Ge],
  [Cond.Le, Cond.Gt],
  [Cond.AbsGe, Cond.AbsLt],
  [Cond.BitSet, Cond.BitClear],
];
const INVERSE = new Map(OPPOSITES.flatMap(([a, b]) => [[a, b] as const, [b, a] as const]));

/** The condition that holds exactly when `cond` does not. */
export function invert(cond: number): number {
  const inverse = INVERSE.get(cond);
  if (inverse === undefined) throw new Error(`unknown condition ${cond}`);
  return inverse;
}
