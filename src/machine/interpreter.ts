// The interpreter: what one `step CPU k` does to a state, and how contexts start and end.
//
// Hot path of exploration and benchmarks: it mutates the state in place (callers copy first when
// they need the old one) and allocates nothing unless a trace is requested.

import { add64, cmp64, cmpAbs64, sub64 } from './int64.ts';
import { Cond, type Instr, Kind, Mode, Op, POINTER_BASE } from './isa.ts';
import { operandAddress } from './read.ts';
import { bufferStore, buffered, drain, seenWord } from './tso.ts';
import {
  CPU_CUR,
  CPU_FIELDS,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CPU_IRQ_ON,
  CPU_IRQS,
  CPU_NMIS,
  CPU_NMI_SAVED,
  CPU_PENDING,
  CPU_PREEMPT,
  CPU_TASKS,
  CTX_CPU,
  CTX_DONE,
  CTX_PC,
  CTX_REGS,
  CTX_RETRIES,
  CTX_TALLY,
  CtxKind,
  contextName,
  type Machine,
  SB_DEPTH,
} from './machine.ts';

/** What a step did, for narration and charts. Filled only when the caller passes one. */
export interface Trace {
  ctx: number;
  cpu: number;
  /** Index of the visible instruction executed. */
  pc: number;
  /** The lock was taken by someone else: nothing changed. */
  spun: boolean;
  /** Local instructions with an effect worth telling (Record, taken retry branches). */
  locals: number[];
  /** Under TSO: the step's store went into the CPU's store buffer instead of memory. */
  buffered: boolean;
  /** Under TSO: stores of the CPU's buffer the step wrote to memory (a LOCK, smp_mb(), a full buffer). */
  drained: number;
}

export function newTrace(): Trace {
  return { ctx: -1, cpu: -1, pc: -1, spun: false, locals: [], buffered: false, drained: 0 };
}

/** Raised when a program breaks the machine's rules (a scenario bug, not a user error). */
export class MachineFault extends Error {}

/** Context on top of CPU k's stack (NMI, else IRQ, else the running task), or −1 when idle. */
export function topContext(m: Machine, s: Int32Array, k: number): number {
  const b = m.cpuOff + k * CPU_FIELDS;
  if (s[b + CPU_IN_NMI] !== 0) return m.nmiCtx[k] ?? -1;
  if (s[b + CPU_IN_IRQ] !== 0) return m.irqCtx[k] ?? -1;
  return s[b + CPU_CUR] ?? -1;
}

/** The initial state: memory from the layout, each CPU running its first task, IRQs on. */
export function initialState(m: Machine): Int32Array {
  const s = new Int32Array(m.size);
  s.set(m.layout.initial, 0);
  for (let k = 0; k < m.cpus; k++) {
    const b = m.cpuOff + k * CPU_FIELDS;
    s[b + CPU_CUR] = -1;
    s[b + CPU_IRQ_ON] = 1;
  }
  for (let c = 0; c < m.contexts; c++) {
    const cb = m.ctxOff + c * m.ctxStride;
    s[cb + CTX_CPU] = m.ctxHome[c] ?? 0;
  }
  if (m.hotplug) s[m.hotplug.online] = m.cpus === 32 ? -1 : (1 << m.cpus) - 1;
  for (let t = 0; t < m.tasks; t++) {
    // Dead callbacks wait, finished, until an offline starts them.
    if (m.ctxKind[t] === CtxKind.Dead) {
      s[m.ctxOff + t * m.ctxStride + CTX_DONE] = 1;
      continue;
    }
    const k = m.ctxHome[t] ?? 0;
    const b = m.cpuOff + k * CPU_FIELDS;
    const cb = m.ctxOff + t * m.ctxStride;
    // Leading local instructions (loop set-up) run before the first step.
    const pc = runLocals(m, s, cb, m.code[t] ?? [], 0, null);
    s[cb + CTX_PC] = pc;
    if (pc >= (m.code[t]?.length ?? 0)) s[cb + CTX_DONE] = 1;
    else {
      s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) + 1;
      if (s[b + CPU_CUR] === -1) s[b + CPU_CUR] = t;
    }
  }
  return s;
}

/** The word address of `ins`'s operand, checked against the memory's bounds. */
function address(m: Machine, s: Int32Array, cb: number, ins: Instr): number {
  const a = operandAddress(s, cb, ins);
  if (ins.mode === Mode.None) throw new MachineFault(`instruction ${ins.op} has no memory operand`);
  const last = ins.width === 64 ? a + 1 : a;
  if (a < 0 || last >= m.memWords) throw new MachineFault(`address ${a} is outside memory`);
  return a;
}

/**
 * Runs local instructions from `pc` until a visible one or the end; returns the new pc.
 * Local code has no scheduling points, so it belongs to the step before it.
 */
export function runLocals(
  m: Machine,
  s: Int32Array,
  cb: number,
  code: readonly Instr[],
  start: number,
  trace: Trace | null,
): number {
  let pc = start;
  let guard = 0;
  const R = cb + CTX_REGS;
  while (pc < code.length) {
    const ins = code[pc] as Instr;
    if (ins.op < Op.FirstLocal) return pc;
    if (++guard > 1_000_000)
      throw new MachineFault(
        `a local loop${ins.line > 0 ? ` on line ${ins.line}` : ''} never reaches a visible step`,
      );
    // Right operand: immediate or src2.
    let blo: number, bhi: number;
    if (ins.useImm) {
      blo = ins.immLo;
      bhi = ins.immHi;
    } else if (ins.src2 >= 0) {
      blo = s[R + 2 * ins.src2] as number;
      bhi = s[R + 2 * ins.src2 + 1] as number;
    } else {
      blo = 0;
      bhi = 0;
    }
    const alo = ins.src >= 0 ? (s[R + 2 * ins.src] as number) : 0;
    const ahi = ins.src >= 0 ? (s[R + 2 * ins.src + 1] as number) : 0;
    const d = R + 2 * ins.dst;
    switch (ins.op) {
      case Op.Mov:
        if (ins.useImm) {
          s[d] = ins.immLo;
          s[d + 1] = ins.immHi;
        } else {
          s[d] = alo;
          s[d + 1] = ahi;
        }
        pc++;
        break;
      case Op.Add:
        add64(s, d, alo, ahi, blo, bhi);
        pc++;
        break;
      case Op.Sub:
        sub64(s, d, alo, ahi, blo, bhi);
        pc++;
        break;
      case Op.And:
        s[d] = alo & blo;
        s[d + 1] = ahi & bhi;
        pc++;
        break;
      case Op.Or:
        s[d] = alo | blo;
        s[d + 1] = ahi | bhi;
        pc++;
        break;
      case Op.Branch:
        if (holds(ins.cond, alo, ahi, blo, bhi)) {
          if (ins.kind === Kind.SumRetry)
            s[cb + CTX_RETRIES] = ((s[cb + CTX_RETRIES] as number) + 1) | 0;
          if (trace && (ins.kind === Kind.SumRetry || ins.say !== '')) trace.locals.push(pc);
          pc = ins.target;
        } else pc++;
        break;
      case Op.Jump:
        if (ins.kind === Kind.SumRetry)
          s[cb + CTX_RETRIES] = ((s[cb + CTX_RETRIES] as number) + 1) | 0;
        if (trace && (ins.kind === Kind.SumRetry || ins.say !== '')) trace.locals.push(pc);
        pc = ins.target;
        break;
      case Op.Record: {
        // Appends; a full slot keeps its first values and overwrites the last one, so a handler
        // raised more often than a scenario planned for cannot stop the machine.
        const at = m.resOff + ins.base;
        const n = s[at] as number;
        const i = n < ins.stride ? n : ins.stride - 1;
        s[at + 1 + 2 * i] = alo;
        s[at + 2 + 2 * i] = ahi;
        s[at] = i + 1;
        if (trace) trace.locals.push(pc);
        pc++;
        break;
      }
      case Op.Pause:
      case Op.NoFence:
        pc++;
        break;
      case Op.Xor:
        s[d] = alo ^ blo;
        s[d + 1] = ahi ^ bhi;
        pc++;
        break;
      case Op.Mul:
      case Op.Div:
      case Op.Mod:
      case Op.Shl:
      case Op.Shr:
        setReg64(s, d, arith(ins.op, big(alo, ahi), big(blo, bhi), ins.line));
        pc++;
        break;
      case Op.SetCond:
        s[d] = holds(ins.cond, alo, ahi, blo, bhi) ? 1 : 0;
        s[d + 1] = 0;
        pc++;
        break;
      case Op.Tally: {
        const t = cb + CTX_TALLY;
        add64(s, t, s[t] as number, s[t + 1] as number, blo, bhi);
        pc++;
        break;
      }
      case Op.RecordTotal: {
        const at = m.resOff + ins.base;
        const n = Math.min(s[at] as number, ins.stride - 1);
        let lo = 0;
        let hi = 0;
        for (let c = 0; c < m.contexts; c++) {
          const t = m.ctxOff + c * m.ctxStride + CTX_TALLY;
          const l = (lo >>> 0) + ((s[t] as number) >>> 0);
          hi = (hi + (s[t + 1] as number) + (l > 0xffffffff ? 1 : 0)) | 0;
          lo = l | 0;
        }
        s[at + 1 + 2 * n] = lo;
        s[at + 2 + 2 * n] = hi;
        s[at] = n + 1;
        pc++;
        break;
      }
      default:
        throw new MachineFault(`unknown local opcode ${ins.op}`);
    }
  }
  return pc;
}

/** The 64-bit operations of a typed program's C (rare: they go through BigInt). */
function arith(op: number, a: bigint, b: bigint, line: number): bigint {
  const at = line > 0 ? ` at line ${line}` : '';
  switch (op) {
    case Op.Mul:
      return a * b;
    case Op.Div:
      if (b === 0n) throw new MachineFault(`the program divides by zero${at}`);
      return a / b;
    case Op.Mod:
      if (b === 0n) throw new MachineFault(`the program takes a remainder by zero${at}`);
      return a % b;
    case Op.Shl:
      return BigInt.asIntN(64, a << (b & 63n));
    default:
      return a >> (b & 63n);
  }
}

function holds(cond: number, alo: number, ahi: number, blo: number, bhi: number): boolean {
  switch (cond) {
    case Cond.Eq:
      return alo === blo && ahi === bhi;
    case Cond.Ne:
      return alo !== blo || ahi !== bhi;
    case Cond.Lt:
      return cmp64(alo, ahi, blo, bhi) < 0;
    case Cond.Le:
      return cmp64(alo, ahi, blo, bhi) <= 0;
    case Cond.Gt:
      return cmp64(alo, ahi, blo, bhi) > 0;
    case Cond.Ge:
      return cmp64(alo, ahi, blo, bhi) >= 0;
    case Cond.AbsGe:
      return cmpAbs64(alo, ahi, blo, bhi) >= 0;
    case Cond.AbsLt:
      return cmpAbs64(alo, ahi, blo, bhi) < 0;
    case Cond.BitSet:
      return (alo & blo) !== 0 || (ahi & bhi) !== 0;
    case Cond.BitClear:
      return (alo & blo) === 0 && (ahi & bhi) === 0;
    default:
      throw new MachineFault(`unknown condition ${cond}`);
  }
}

/**
 * Runs one instruction of the context on top of CPU k (the `step k` event).
 *
 * The same code runs the model and the live workers (docs/machine.md), so every step the model calls
 * indivisible is one indivisible operation on shared memory too: LOCK-prefixed operations and
 * spin locks go through `Atomics` (which also works on the model's unshared arrays), and a
 * single-step 64-bit access goes through `wide`, a BigInt64Array over the same bytes as `s`
 * (element i = words 2i, 2i+1). Without `wide` (the model, single-threaded) 64-bit accesses are
 * two plain word accesses, which nothing can observe in between. Plain loads and stores stay
 * plain: on real workers they race, as `x++` does on real CPUs.
 */
export function step(
  m: Machine,
  s: Int32Array,
  k: number,
  trace: Trace | null = null,
  wide: BigInt64Array | null = null,
): void {
  const ctx = topContext(m, s, k);
  if (ctx < 0) throw new MachineFault(`CPU${k} has nothing to run`);
  const cb = m.ctxOff + ctx * m.ctxStride;
  const code = m.code[ctx] as readonly Instr[];
  const pc = s[cb + CTX_PC] as number;
  const ins = code[pc] as Instr;
  const cpu = s[cb + CTX_CPU] as number;
  const b = m.cpuOff + k * CPU_FIELDS;
  const R = cb + CTX_REGS;
  if (trace) {
    trace.ctx = ctx;
    trace.cpu = k;
    trace.pc = pc;
    trace.spun = false;
    trace.locals.length = 0;
    trace.buffered = false;
    trace.drained = 0;
  }
  let deliver = false;

  // Under x86-TSO, memory instructions go through the CPU's store buffer (tso.ts); the rest,
  // and the LOCK operations once the buffer is drained, are the same on both machines.
  const throughBuffer = m.tso && tsoMemory(m, s, k, ctx, cb, ins, trace);
  if (!throughBuffer)
    switch (ins.op) {
      case Op.Load: {
        const v = s[address(m, s, cb, ins)] as number;
        s[R + 2 * ins.dst] = v;
        s[R + 2 * ins.dst + 1] = v >> 31;
        break;
      }
      case Op.Store:
        s[address(m, s, cb, ins)] = s[R + 2 * ins.src] as number;
        break;
      case Op.Load64: {
        const a = address(m, s, cb, ins);
        if (wide) setReg64(s, R + 2 * ins.dst, Atomics.load(wide, a >> 1));
        else {
          s[R + 2 * ins.dst] = s[a] as number;
          s[R + 2 * ins.dst + 1] = s[a + 1] as number;
        }
        break;
      }
      case Op.Store64: {
        const a = address(m, s, cb, ins);
        if (wide) Atomics.store(wide, a >> 1, reg64(s, R + 2 * ins.src));
        else {
          s[a] = s[R + 2 * ins.src] as number;
          s[a + 1] = s[R + 2 * ins.src + 1] as number;
        }
        break;
      }
      case Op.LoadLo:
        s[R + 2 * ins.dst] = s[address(m, s, cb, ins)] as number;
        break;
      case Op.LoadHi:
        s[R + 2 * ins.dst + 1] = s[address(m, s, cb, ins) + 1] as number;
        break;
      case Op.StoreLo:
        s[address(m, s, cb, ins)] = s[R + 2 * ins.src] as number;
        break;
      case Op.StoreHi:
        s[address(m, s, cb, ins) + 1] = s[R + 2 * ins.src + 1] as number;
        break;
      case Op.AtomicAdd:
      case Op.AtomicOr:
      case Op.AtomicAnd:
      case Op.AtomicXor: {
        // One fetch-and-op for the four: atomic_add_return gives the new value, the bitwise
        // ones (atomic_fetch_or/and/xor, set_bit and friends) the old.
        const a = address(m, s, cb, ins);
        const vlo = ins.useImm ? ins.immLo : (s[R + 2 * ins.src] as number);
        const vhi = ins.useImm ? ins.immHi : (s[R + 2 * ins.src + 1] as number);
        const add = ins.op === Op.AtomicAdd;
        if (ins.width === 64 && wide) {
          const v = big(vlo, vhi);
          const old = fetchOp64(ins.op, wide, a >> 1, v);
          if (ins.dst >= 0) setReg64(s, R + 2 * ins.dst, add ? old + v : old);
        } else if (ins.width === 64) {
          const olo = s[a] as number;
          const ohi = s[a + 1] as number;
          if (add) add64(s, a, olo, ohi, vlo, vhi);
          else {
            s[a] = bitOp(ins.op, olo, vlo);
            s[a + 1] = bitOp(ins.op, ohi, vhi);
          }
          if (ins.dst >= 0) {
            s[R + 2 * ins.dst] = add ? (s[a] as number) : olo;
            s[R + 2 * ins.dst + 1] = add ? (s[a + 1] as number) : ohi;
          }
        } else {
          const old = fetchOp32(ins.op, s, a, vlo);
          const nv = add ? (old + vlo) | 0 : old;
          if (ins.dst >= 0) {
            s[R + 2 * ins.dst] = nv;
            s[R + 2 * ins.dst + 1] = nv >> 31;
          }
        }
        break;
      }
      case Op.AddUnless: {
        const a = address(m, s, cb, ins);
        const amount = ins.useImm ? big(ins.immLo, ins.immHi) : reg64(s, R + 2 * ins.src);
        const unless = reg64(s, R + 2 * ins.src2);
        // The kernel's cmpxchg loop: on shared memory another CPU may change the word between
        // the read and the cmpxchg, and then it reads again, so the step adds once or not at all.
        let old: bigint;
        if (ins.width === 64 && wide) {
          for (;;) {
            old = Atomics.load(wide, a >> 1);
            if (old === unless) break;
            if (Atomics.compareExchange(wide, a >> 1, old, BigInt.asIntN(64, old + amount)) === old)
              break;
          }
        } else if (ins.width === 64) {
          old = big(s[a] as number, s[a + 1] as number);
          if (old !== unless) setReg64(s, a, old + amount);
        } else {
          const u = Number(BigInt.asIntN(32, unless));
          const add = Number(BigInt.asIntN(32, amount));
          let o: number;
          for (;;) {
            o = Atomics.load(s, a);
            if (o === u) break;
            if (Atomics.compareExchange(s, a, o, (o + add) | 0) === o) break;
          }
          old = BigInt(o);
        }
        if (ins.dst >= 0) setReg64(s, R + 2 * ins.dst, old);
        break;
      }
      case Op.Xchg: {
        const a = address(m, s, cb, ins);
        if (ins.width === 64 && wide) {
          setReg64(s, R + 2 * ins.dst, Atomics.exchange(wide, a >> 1, reg64(s, R + 2 * ins.src)));
        } else if (ins.width === 64) {
          const olo = s[a] as number;
          const ohi = s[a + 1] as number;
          s[a] = s[R + 2 * ins.src] as number;
          s[a + 1] = s[R + 2 * ins.src + 1] as number;
          s[R + 2 * ins.dst] = olo;
          s[R + 2 * ins.dst + 1] = ohi;
        } else {
          const old = Atomics.exchange(s, a, s[R + 2 * ins.src] as number);
          s[R + 2 * ins.dst] = old;
          s[R + 2 * ins.dst + 1] = old >> 31;
        }
        break;
      }
      case Op.Cmpxchg: {
        const a = address(m, s, cb, ins);
        if (ins.width === 64 && wide) {
          const expected = reg64(s, R + 2 * ins.src);
          const old = Atomics.compareExchange(wide, a >> 1, expected, reg64(s, R + 2 * ins.src2));
          setReg64(s, R + 2 * ins.dst, old);
        } else if (ins.width === 64) {
          const olo = s[a] as number;
          const ohi = s[a + 1] as number;
          if (olo === s[R + 2 * ins.src] && ohi === s[R + 2 * ins.src + 1]) {
            s[a] = s[R + 2 * ins.src2] as number;
            s[a + 1] = s[R + 2 * ins.src2 + 1] as number;
          }
          s[R + 2 * ins.dst] = olo;
          s[R + 2 * ins.dst + 1] = ohi;
        } else {
          // A 32-bit cmpxchg compares the low word only (the register's sign extension is moot).
          const old = Atomics.compareExchange(
            s,
            a,
            s[R + 2 * ins.src] as number,
            s[R + 2 * ins.src2] as number,
          );
          s[R + 2 * ins.dst] = old;
          s[R + 2 * ins.dst + 1] = old >> 31;
        }
        break;
      }
      case Op.SpinLock: {
        const a = address(m, s, cb, ins);
        if (Atomics.compareExchange(s, a, 0, ctx + 1) !== 0) {
          // Held: the CPU spins. Nothing changes, so spinning n times is the same state.
          if (trace) trace.spun = true;
          return;
        }
        s[b + CPU_PREEMPT] = (s[b + CPU_PREEMPT] as number) + 1;
        break;
      }
      case Op.SpinTrylock: {
        const a = address(m, s, cb, ins);
        const got = Atomics.compareExchange(s, a, 0, ctx + 1) === 0;
        if (got) s[b + CPU_PREEMPT] = (s[b + CPU_PREEMPT] as number) + 1;
        s[R + 2 * ins.dst] = got ? 1 : 0;
        s[R + 2 * ins.dst + 1] = 0;
        break;
      }
      case Op.SpinUnlock: {
        const a = address(m, s, cb, ins);
        if (Atomics.compareExchange(s, a, ctx + 1, 0) !== ctx + 1) {
          throw new MachineFault(`${contextName(m, ctx)} releases a lock it does not hold`);
        }
        s[b + CPU_PREEMPT] = (s[b + CPU_PREEMPT] as number) - 1;
        break;
      }
      case Op.PreemptDisable:
        s[b + CPU_PREEMPT] = (s[b + CPU_PREEMPT] as number) + 1;
        break;
      case Op.PreemptEnable:
        if (s[b + CPU_PREEMPT] === 0) throw new MachineFault('preempt_count would go negative');
        s[b + CPU_PREEMPT] = (s[b + CPU_PREEMPT] as number) - 1;
        break;
      case Op.IrqSave:
        s[R + 2 * ins.dst] = s[b + CPU_IRQ_ON] as number;
        s[R + 2 * ins.dst + 1] = 0;
        s[b + CPU_IRQ_ON] = 0;
        break;
      case Op.IrqRestore:
      case Op.IrqEnable: {
        const on = ins.op === Op.IrqEnable || s[R + 2 * ins.src] !== 0 ? 1 : 0;
        s[b + CPU_IRQ_ON] = on;
        deliver = on === 1 && s[b + CPU_PENDING] !== 0;
        break;
      }
      case Op.IrqDisable:
        s[b + CPU_IRQ_ON] = 0;
        break;
      case Op.AddrGen:
        s[R + 2 * ins.dst] = POINTER_BASE + ins.base + cpu * ins.stride;
        s[R + 2 * ins.dst + 1] = 0;
        break;
      case Op.CpuId:
        s[R + 2 * ins.dst] = cpu;
        s[R + 2 * ins.dst + 1] = 0;
        break;
      case Op.Halt:
        throw new MachineFault(`${contextName(m, ctx)} is stopped at a loop bound`);
      default:
        throw new MachineFault(`unknown visible opcode ${ins.op}`);
    }
  if (ins.tally !== 0) {
    const t = cb + CTX_TALLY;
    add64(s, t, s[t] as number, s[t + 1] as number, ins.tally, ins.tally < 0 ? -1 : 0);
  }
  const next = runLocals(m, s, cb, code, pc + 1, trace);
  s[cb + CTX_PC] = next;
  if (next >= code.length) finish(m, s, k, ctx);
  // Interrupts came back on with an IRQ pending: it is taken at this instruction boundary.
  if (deliver && s[b + CPU_PENDING] !== 0 && s[b + CPU_IRQ_ON] !== 0) deliverIrq(m, s, k);
}

/**
 * A memory instruction of CPU k under TSO. Loads read through the buffer and plain stores enter
 * it: done, true. LOCK operations drain it and return false: the caller then runs them on memory,
 * in the same step, so no other CPU's flush comes between. A spin_unlock is a plain store on x86
 * (queued_spin_unlock: smp_store_release of the locked byte), so it waits in the buffer too.
 */
function tsoMemory(
  m: Machine,
  s: Int32Array,
  k: number,
  ctx: number,
  cb: number,
  ins: Instr,
  trace: Trace | null,
): boolean {
  const R = cb + CTX_REGS;
  switch (ins.op) {
    case Op.Load: {
      const v = seenWord(m, s, k, address(m, s, cb, ins));
      s[R + 2 * ins.dst] = v;
      s[R + 2 * ins.dst + 1] = v >> 31;
      return true;
    }
    case Op.Load64: {
      const a = address(m, s, cb, ins);
      s[R + 2 * ins.dst] = seenWord(m, s, k, a);
      s[R + 2 * ins.dst + 1] = seenWord(m, s, k, a + 1);
      return true;
    }
    case Op.LoadLo:
      s[R + 2 * ins.dst] = seenWord(m, s, k, address(m, s, cb, ins));
      return true;
    case Op.LoadHi:
      s[R + 2 * ins.dst + 1] = seenWord(m, s, k, address(m, s, cb, ins) + 1);
      return true;
    case Op.Store:
    case Op.Store64:
    case Op.StoreLo:
    case Op.StoreHi:
    case Op.SpinUnlock: {
      const a = address(m, s, cb, ins);
      const full = trace !== null && buffered(m, s, k) === SB_DEPTH;
      if (ins.op === Op.SpinUnlock) {
        if (seenWord(m, s, k, a) !== ctx + 1)
          throw new MachineFault(`${contextName(m, ctx)} releases a lock it does not hold`);
        bufferStore(m, s, k, a, 1, 0, 0);
        const b = m.cpuOff + k * CPU_FIELDS;
        s[b + CPU_PREEMPT] = (s[b + CPU_PREEMPT] as number) - 1;
      } else if (ins.op === Op.Store64) {
        bufferStore(m, s, k, a, 2, s[R + 2 * ins.src] as number, s[R + 2 * ins.src + 1] as number);
      } else if (ins.op === Op.StoreHi) {
        bufferStore(m, s, k, a + 1, 1, s[R + 2 * ins.src + 1] as number, 0);
      } else bufferStore(m, s, k, a, 1, s[R + 2 * ins.src] as number, 0);
      if (trace) {
        trace.buffered = true;
        trace.drained = full ? 1 : 0;
      }
      return true;
    }
    case Op.Fence:
    case Op.AtomicAdd:
    case Op.AtomicOr:
    case Op.AtomicAnd:
    case Op.AtomicXor:
    case Op.AddUnless:
    case Op.Xchg:
    case Op.Cmpxchg:
    case Op.SpinLock:
    case Op.SpinTrylock: {
      const n = drain(m, s, k);
      if (trace) trace.drained = n;
      // A fence is only the drain; a LOCK operation then runs on memory.
      return ins.op === Op.Fence;
    }
    default:
      return false;
  }
}

/** The 64-bit value of the register pair at s[at], s[at + 1]. */
function reg64(s: Int32Array, at: number): bigint {
  return big(s[at] as number, s[at + 1] as number);
}

function big(lo: number, hi: number): bigint {
  return (BigInt(hi) << 32n) | BigInt(lo >>> 0);
}

/** Atomics' fetch-and-op on a 32-bit word for AtomicAdd/Or/And/Xor: the old value. */
function fetchOp32(op: number, s: Int32Array, a: number, v: number): number {
  if (op === Op.AtomicAdd) return Atomics.add(s, a, v);
  if (op === Op.AtomicOr) return Atomics.or(s, a, v);
  return op === Op.AtomicAnd ? Atomics.and(s, a, v) : Atomics.xor(s, a, v);
}

/** The same on a 64-bit word of the shared view (SharedArrayBuffer memory). */
function fetchOp64(op: number, w: BigInt64Array, i: number, v: bigint): bigint {
  if (op === Op.AtomicAdd) return Atomics.add(w, i, v);
  if (op === Op.AtomicOr) return Atomics.or(w, i, v);
  return op === Op.AtomicAnd ? Atomics.and(w, i, v) : Atomics.xor(w, i, v);
}

/** The bitwise half of AtomicOr/And/Xor on one 32-bit half, where no other CPU can interleave. */
function bitOp(op: number, x: number, y: number): number {
  if (op === Op.AtomicOr) return x | y;
  return op === Op.AtomicAnd ? x & y : x ^ y;
}

/** Writes a 64-bit value (wrapping) into the register pair at s[at], s[at + 1]. */
function setReg64(s: Int32Array, at: number, v: bigint): void {
  s[at] = Number(BigInt.asIntN(32, v));
  s[at + 1] = Number(BigInt.asIntN(32, v >> 32n));
}

/** Pushes CPU k's IRQ handler (interrupts go off inside it). */
export function deliverIrq(m: Machine, s: Int32Array, k: number): void {
  const b = m.cpuOff + k * CPU_FIELDS;
  const ctx = m.irqCtx[k] as number;
  s[b + CPU_PENDING] = 0;
  s[b + CPU_IN_IRQ] = 1;
  s[b + CPU_IRQ_ON] = 0;
  s[b + CPU_IRQS] = (s[b + CPU_IRQS] as number) + 1;
  enterHandler(m, s, k, ctx);
}

/** Pushes CPU k's NMI handler, whatever the interrupt state. */
export function deliverNmi(m: Machine, s: Int32Array, k: number): void {
  const b = m.cpuOff + k * CPU_FIELDS;
  const ctx = m.nmiCtx[k] as number;
  s[b + CPU_NMI_SAVED] = s[b + CPU_IRQ_ON] as number;
  s[b + CPU_IN_NMI] = 1;
  s[b + CPU_IRQ_ON] = 0;
  s[b + CPU_NMIS] = (s[b + CPU_NMIS] as number) + 1;
  enterHandler(m, s, k, ctx);
}

function enterHandler(m: Machine, s: Int32Array, k: number, ctx: number): void {
  const cb = m.ctxOff + ctx * m.ctxStride;
  // A fresh invocation: pc 0 and clean registers; the tally and retries keep accumulating.
  s.fill(0, cb + CTX_REGS, cb + m.ctxStride);
  const code = m.code[ctx] as readonly Instr[];
  const pc = runLocals(m, s, cb, code, 0, null);
  s[cb + CTX_PC] = pc;
  if (pc >= code.length) finish(m, s, k, ctx);
}

/** A context ran off the end of its program: a task finishes, a handler returns. */
export function finish(m: Machine, s: Int32Array, k: number, ctx: number): void {
  const b = m.cpuOff + k * CPU_FIELDS;
  const kind = m.ctxKind[ctx];
  if (kind === CtxKind.Task || kind === CtxKind.Dead) {
    if (s[b + CPU_PREEMPT] !== 0 || s[b + CPU_IRQ_ON] !== 1) {
      throw new MachineFault(`${contextName(m, ctx)} ends with preemption or interrupts off`);
    }
    s[m.ctxOff + ctx * m.ctxStride + CTX_DONE] = 1;
    // The last step of the offline: the callbacks returned, the CPU is dead, no longer dying.
    // Atomic: on live CPUs the mask is a shared word other CPUs' sums read (hotplug.ts).
    if (kind === CtxKind.Dead && m.hotplug)
      Atomics.and(s, m.hotplug.dying, ~(1 << (m.ctxHome[ctx] as number)));
    s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) - 1;
    s[b + CPU_CUR] = s[b + CPU_TASKS] === 0 ? -1 : nextReady(m, s, k, ctx);
    return;
  }
  if (kind === CtxKind.Irq) {
    s[b + CPU_IN_IRQ] = 0;
    s[b + CPU_IRQ_ON] = 1;
    if (s[b + CPU_PENDING] !== 0) deliverIrq(m, s, k);
    return;
  }
  s[b + CPU_IN_NMI] = 0;
  s[b + CPU_IRQ_ON] = s[b + CPU_NMI_SAVED] as number;
  s[b + CPU_NMI_SAVED] = 0;
  if (s[b + CPU_IRQ_ON] !== 0 && s[b + CPU_PENDING] !== 0) deliverIrq(m, s, k);
}

/** The next unfinished task waiting on CPU k after task `after` (cyclic by index), or −1. */
export function nextReady(m: Machine, s: Int32Array, k: number, after: number): number {
  const cur = s[m.cpuOff + k * CPU_FIELDS + CPU_CUR];
  for (let i = 1; i <= m.tasks; i++) {
    const t = (after + i) % m.tasks;
    const cb = m.ctxOff + t * m.ctxStride;
    if (t !== cur && t !== after && s[cb + CTX_DONE] === 0 && s[cb + CTX_CPU] === k) return t;
  }
  return -1;
}
