// The bare tier's whole loop: an adder that restarts in place, compiled as one loop whose every
// turn is one whole operation, for runs where no event can fall due (codegen.ts, the bare tier).
//
// The per-instruction code restarts each operation through its dispatch: registers cleared, the
// stop word read, a `br_table` back to the first instruction, and preempt_count and the IRQ flag
// kept in locals and checked as the model checks them. Here the operation is compiled along its
// paths from pc 0, where every register is 0, as a partial evaluator would:
//   - registers whose values the compiler knows are constants (a loop counter, an address, the
//     flags irqsave saved) and cost nothing; the others are Wasm locals across the operation;
//     branches on known values are decided here, and the loop `for (i = 0; i < 1; i++)` the
//     language makes of one add is unrolled; a branch on a value from memory becomes an `if`,
//     each side compiled on;
//   - preempt_count and the IRQ flag are the plain counters they are when nothing can preempt or
//     interrupt: known at every instruction, so preempt_disable()/preempt_enable() emit nothing;
//   - every access the program makes to memory is emitted where the program makes it, as the
//     per-instruction code emits it (codegen.ts's `visible`): each plain load a real load, each
//     plain store a real store, each atomic a Wasm atomic. Nothing loaded stays in a local from
//     one operation to the next (each operation starts from registers of 0), so races stay real;
//   - the operation's end restarts it with one decrement and a branch: the chunk's count; and
//     while the chunk has room for UNROLL operations, they run one after the other with no
//     count and no back edge between them (V8 checks for interrupts at every back edge). The
//     chunk's last restart, which reads the run's stop word and counts the budget, is left to
//     the per-instruction code, as is anything the loop does not take on (a sum's retry, a
//     spin_trylock, a fault, an instruction reached too often): the loop writes what it knows
//     into the locals and goes on there at that instruction, which runs it from its start.
// The state a burst leaves is the per-instruction code's after the same operations, word for
// word: src/live/engine/bare.test.ts and loop.test.ts compare them.

import { Cond, type Instr, Kind, Op, POINTER_BASE, touchesMemory } from '../../machine/isa.ts';
import { Code, type Body } from './encoder.ts';
import { L_CHUNK, L_IRQ, L_PC, L_PRE } from './locals.ts';

/** What the whole loop needs of the CPU compiler it emits into (codegen.ts). */
export interface LoopHost {
  readonly b: Body;
  readonly regs: number;
  /** The CPU the code runs on (smp_processor_id(), this CPU's addresses). */
  readonly cpu: number;
  /** Registers known while an instruction is emitted: `value()` pushes them as constants. */
  known: (bigint | null)[] | null;
  /** Where a spin goes again (instead of the dispatch). */
  spinAgain: symbol | null;
  /** How a fault or a spin out of patience leaves the loop (instead of the burst). */
  leave: ((pc: number) => void) | null;
  reg(r: number): number;
  address(pc: number, ins: Instr): void;
  visible(pc: number, ins: Instr): void;
  local(pc: number, ins: Instr): void;
  condition(ins: Instr): void;
  countKind(ins: Instr): void;
  tally(ins: Instr): void;
  clearSlots(): void;
}

/** How often one path may reach the same instruction (a loop unrolled) before it leaves. */
const MAX_VISITS = 8;
/** Instructions compiled in all for one operation, over every path: a bound on its size. */
const ROOM = 200;
/**
 * Programs longer than this are compiled once in the loop, not UNROLL times: their operations
 * take long enough that a count and a back edge are lost in them, and a Live CPU compiles its
 * module when the run starts (percpu-upgrade's 124 instructions made 130 KB unrolled).
 */
const UNROLL_UP_TO = 32;

/**
 * Operations compiled one after the other in a turn of the loop, where the chunk has room for
 * them all: one back edge (and V8's check for interrupts at it) and one count for four adds.
 */
export const UNROLL = 4;

/** What the compiler knows on one path. */
interface PathState {
  /** Each register's value, or null where it is only in its local. */
  readonly regs: (bigint | null)[];
  pre: number;
  /** Interrupts on (1) or off (0), or null where only L_IRQ knows. */
  irq: number | null;
  /** Times this path reached each instruction. */
  readonly visits: number[];
}

const copy = (s: PathState): PathState => ({
  regs: [...s.regs],
  pre: s.pre,
  irq: s.irq,
  visits: [...s.visits],
});

/**
 * Emits the whole loop into `host`'s function, inside the block `leave`, whose end is where the
 * per-instruction code takes over (with L_PC, the registers, L_PRE and L_IRQ written). L_CHUNK
 * holds the restarts the loop may make.
 */
export function wholeLoop(host: LoopHost, code: readonly Instr[], leave: symbol): void {
  new LoopCompiler(host, code, leave).emit();
}

class LoopCompiler {
  private room = ROOM;
  private again!: symbol;
  /** In an unrolled turn: which copy of the operation is emitted, and where it ends. */
  private copy = 0;
  private endOf: symbol | null = null;

  constructor(
    private readonly host: LoopHost,
    private readonly code: readonly Instr[],
    private readonly out: symbol,
  ) {}

  emit(): void {
    const { b } = this.host;
    const fresh = (): PathState => ({
      regs: Array.from({ length: this.host.regs }, () => 0n),
      pre: 0,
      irq: 1,
      visits: this.code.map(() => 0),
    });
    this.again = b.loop('operation');
    if (this.code.length <= UNROLL_UP_TO) this.unrolled(fresh);
    // One operation a turn (for the rest of a chunk, or for a long program).
    this.copy = 0;
    this.endOf = null;
    this.room = ROOM;
    this.path(0, fresh());
    b.end();
    this.host.known = null;
    this.host.leave = null;
    this.host.spinAgain = null;
  }

  /** UNROLL operations in a row while the chunk has room for them all. */
  private unrolled(fresh: () => PathState): void {
    const { b } = this.host;
    const single = b.block('single');
    b.get(L_CHUNK).i32(UNROLL).op(Code.i32LtS).brIf(single);
    for (let j = 0; j < UNROLL; j++) {
      this.copy = j;
      this.endOf = b.block(`op${String(j)}`);
      this.room = ROOM;
      this.path(0, fresh());
      b.end();
    }
    b.get(L_CHUNK).i32(UNROLL).op(Code.i32Sub).set(L_CHUNK).br(this.again);
    b.end(); // single
  }

  /** Writes what the path knows into the locals and goes on in the per-instruction code at pc. */
  private leaveAt(pc: number, st: PathState): void {
    const { b } = this.host;
    st.regs.forEach((v, r) => {
      if (v !== null) b.i64(v).set(this.host.reg(r));
    });
    b.i32(st.pre).set(L_PRE);
    if (st.irq !== null) b.i32(st.irq).set(L_IRQ);
    // The copies before this one in an unrolled turn restarted: the chunk counts them.
    if (this.copy > 0) b.get(L_CHUNK).i32(this.copy).op(Code.i32Sub).set(L_CHUNK);
    b.i32(pc).set(L_PC).br(this.out);
  }

  /** Compiles one path from pc to where it restarts or leaves. */
  private path(from: number, st: PathState): void {
    let pc: number | null = from;
    while (pc !== null) {
      if (pc >= this.code.length) {
        this.ended(st);
        return;
      }
      const visits = st.visits[pc] as number;
      if (this.room <= 0 || visits >= MAX_VISITS) {
        this.leaveAt(pc, st);
        return;
      }
      this.room--;
      st.visits[pc] = visits + 1;
      this.host.known = st.regs;
      const at = pc;
      this.host.leave = (p) => {
        this.leaveAt(p, st);
      };
      const ins = this.code[at] as Instr;
      pc = this.step(at, ins, st);
      // A visible step that adds completes its add as it ends (the tally, as codegen.ts adds it).
      if (pc !== null && ins.op < Op.FirstLocal && ins.tally !== 0) this.host.tally(ins);
    }
  }

  /** One instruction; the next pc, or null when the path has left. */
  private step(pc: number, ins: Instr, st: PathState): number | null {
    const host = this.host;
    const { b } = host;
    const regs = st.regs;
    switch (ins.op) {
      case Op.Mov:
      case Op.Add:
      case Op.Sub:
      case Op.And:
      case Op.Or:
      case Op.Xor: {
        const v = fold(ins, regs);
        if (v !== null) regs[ins.dst] = v;
        else {
          host.local(pc, ins);
          regs[ins.dst] = null;
        }
        return pc + 1;
      }
      case Op.Branch: {
        const taken = decide(ins, regs);
        if (taken !== null) return taken ? ins.target : pc + 1;
        host.condition(ins);
        b.if();
        this.path(ins.target, copy(st));
        b.end();
        return pc + 1;
      }
      case Op.Jump:
        // A sum's retry counts itself: the per-instruction code does that.
        if (ins.kind === Kind.SumRetry) break;
        return ins.target;
      case Op.Tally:
        host.tally(ins);
        return pc + 1;
      case Op.Pause:
        return pc + 1;
      case Op.PreemptDisable:
        host.countKind(ins);
        st.pre++;
        return pc + 1;
      case Op.PreemptEnable:
        if (st.pre === 0) break; // the model's fault: the code below says so
        host.countKind(ins);
        st.pre--;
        return pc + 1;
      case Op.IrqDisable:
      case Op.IrqEnable:
        host.countKind(ins);
        st.irq = ins.op === Op.IrqEnable ? 1 : 0;
        return pc + 1;
      case Op.IrqSave:
        host.countKind(ins);
        if (ins.dst >= 0) {
          if (st.irq !== null) regs[ins.dst] = BigInt(st.irq);
          else {
            b.get(L_IRQ).op(Code.i64ExtendI32U).set(host.reg(ins.dst));
            regs[ins.dst] = null;
          }
        }
        st.irq = 0;
        return pc + 1;
      case Op.IrqRestore: {
        host.countKind(ins);
        const v = ins.src >= 0 ? regs[ins.src] : 0n;
        if (v != null) st.irq = v !== 0n ? 1 : 0;
        else {
          b.get(host.reg(ins.src)).i64(0n).op(Code.i64Ne).set(L_IRQ);
          st.irq = null;
        }
        return pc + 1;
      }
      case Op.AddrGen:
        host.countKind(ins);
        regs[ins.dst] = BigInt(POINTER_BASE + ins.base + host.cpu * ins.stride);
        return pc + 1;
      case Op.CpuId:
        host.countKind(ins);
        regs[ins.dst] = BigInt(host.cpu);
        return pc + 1;
      case Op.SpinLock: {
        host.address(pc, ins);
        host.spinAgain = b.loop('spin');
        host.visible(pc, ins);
        host.spinAgain = null;
        b.end();
        st.pre++;
        return pc + 1;
      }
      case Op.SpinUnlock:
        if (st.pre === 0) break;
        host.address(pc, ins);
        host.visible(pc, ins);
        st.pre--;
        return pc + 1;
      case Op.Load:
      case Op.Store:
      case Op.Load64:
      case Op.Store64:
      case Op.LoadLo:
      case Op.LoadHi:
      case Op.StoreLo:
      case Op.StoreHi:
      case Op.AtomicAdd:
      case Op.AtomicOr:
      case Op.AtomicAnd:
      case Op.AtomicXor:
      case Op.AddUnless:
      case Op.Xchg:
      case Op.Cmpxchg:
      case Op.Fence:
        // The program's own access to memory, emitted where the program makes it.
        if ((ins.op === Op.LoadLo || ins.op === Op.LoadHi) && regs[ins.dst] != null) {
          // They keep the other half of the register: it must be in its local.
          b.i64(regs[ins.dst] as bigint).set(host.reg(ins.dst));
          regs[ins.dst] = null;
        }
        if (touchesMemory(ins.op)) host.address(pc, ins);
        host.visible(pc, ins);
        if (ins.dst >= 0) regs[ins.dst] = null;
        return pc + 1;
      default:
        // Every other local instruction as the per-instruction code emits it, with the known
        // registers as constants: Mul, shifts, SetCond, ÷ (its fault leaves), Record, NoFence.
        // A visible instruction not named above (SpinTrylock, Halt, one added later) is left to
        // the per-instruction code: it may change what the loop counts itself (preempt_count).
        if (ins.op < Op.FirstLocal) break;
        host.local(pc, ins);
        if (writesRegister(ins)) regs[ins.dst] = null;
        return pc + 1;
    }
    this.leaveAt(pc, st);
    return null;
  }

  /** The operation ended: restart it in the loop, or leave the restart to the code below. */
  private ended(st: PathState): void {
    const { b } = this.host;
    const n = this.code.length;
    // The model restarts only a preemptible task with interrupts on.
    if (st.pre !== 0 || st.irq === 0) {
      this.leaveAt(n, st);
      return;
    }
    if (st.irq === null) {
      b.get(L_IRQ).i32(1).op(Code.i32Ne).if();
      this.leaveAt(n, st);
      b.end();
    }
    if (this.endOf) {
      // In an unrolled turn the chunk has room for this restart: on to the next copy.
      this.host.clearSlots();
      b.br(this.endOf);
      return;
    }
    b.get(L_CHUNK).if();
    this.host.clearSlots();
    b.get(L_CHUNK).i32(1).op(Code.i32Sub).set(L_CHUNK);
    b.br(this.again);
    b.end();
    this.leaveAt(n, st);
  }
}

function immediate(ins: Instr): bigint {
  return (BigInt(ins.immHi) << 32n) | BigInt(ins.immLo >>> 0);
}

/** The right operand when it is known: the immediate, src2, or 0. */
function rightOf(ins: Instr, regs: readonly (bigint | null)[]): bigint | null {
  if (ins.useImm) return immediate(ins);
  return ins.src2 >= 0 ? (regs[ins.src2] ?? null) : 0n;
}

function leftOf(ins: Instr, regs: readonly (bigint | null)[]): bigint | null {
  return ins.src >= 0 ? (regs[ins.src] ?? null) : 0n;
}

/** Mov and the bitwise and additive operations on known values, 64-bit and wrapping. */
function fold(ins: Instr, regs: readonly (bigint | null)[]): bigint | null {
  if (ins.op === Op.Mov) return ins.useImm ? immediate(ins) : leftOf(ins, regs);
  const a = leftOf(ins, regs);
  const c = rightOf(ins, regs);
  if (a === null || c === null) return null;
  switch (ins.op) {
    case Op.Add:
      return BigInt.asIntN(64, a + c);
    case Op.Sub:
      return BigInt.asIntN(64, a - c);
    case Op.And:
      return a & c;
    case Op.Or:
      return a | c;
    default:
      return a ^ c;
  }
}

/** A branch's condition on known values (the compiled code's signed comparisons), or null. */
function decide(ins: Instr, regs: readonly (bigint | null)[]): boolean | null {
  const a = leftOf(ins, regs);
  const c = rightOf(ins, regs);
  if (a === null || c === null) return null;
  // |a| as the compiled code computes it: 0 − a for a negative a, wrapping.
  const abs = a < 0n ? BigInt.asIntN(64, -a) : a;
  switch (ins.cond) {
    case Cond.Eq:
      return a === c;
    case Cond.Ne:
      return a !== c;
    case Cond.Lt:
      return a < c;
    case Cond.Le:
      return a <= c;
    case Cond.Gt:
      return a > c;
    case Cond.Ge:
      return a >= c;
    case Cond.AbsGe:
      return abs >= c;
    case Cond.AbsLt:
      return abs < c;
    case Cond.BitSet:
      return (a & c) !== 0n;
    case Cond.BitClear:
      return (a & c) === 0n;
    default:
      return null;
  }
}

/** Whether a local instruction writes its dst register. */
function writesRegister(ins: Instr): boolean {
  return ins.dst >= 0 && ins.op !== Op.Record && ins.op !== Op.RecordTotal;
}
