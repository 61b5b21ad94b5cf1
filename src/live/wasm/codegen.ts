// The CPU compiler: a machine's programs, as the model interprets them, turned into one
// WebAssembly function per context for one live CPU (see docs/machine.md, Live mode's choices).
//
// Each function runs its context from the pc stored in the state for a budget of steps and
// returns; the CPU loop (cpu.ts) takes events between such bursts. The code is compiled by basic
// block: a block whose visible steps all fit the budget left is charged once at its entry and
// runs without a check between its instructions; otherwise it runs instruction by instruction,
// checking the budget at every instruction boundary, so a burst still ends (and an event still
// lands) at any boundary. Inside a burst:
//   - registers, preempt_count, the interrupt flag, the retry count and the statistics bumped at
//     any step live in Wasm locals, loaded on entry and written back on exit (only this CPU
//     writes them); the rarer retry statistics go straight to their globals;
//   - every access the model calls visible stays a real access to the shared memory: Load and
//     Store are plain Wasm loads and stores (they race, as `x++` does on real CPUs); LOCK
//     operations, spin locks, xchg and cmpxchg are Wasm atomics (LOCK-prefixed on x86), and a
//     single-step 64-bit access is one 64-bit atomic access;
//   - the tally of what the context added is updated in shared memory at the step that adds,
//     so the exact total stays known to the other CPUs (a summer's window) and to the page.
// The semantics are those of `step` in machine/interpreter.ts, instruction by instruction; the
// differential test (engines.test.ts) runs both from the same states and compares every word.
//
// That is the exact tier. The bare tier (`tier: 'bare'`) is for runs where no event can fall due
// (no IRQ, NMI or migration asked for or scheduled): with nothing to land between two
// instructions, it keeps no step budget and checks nothing between them. Its budget counts
// operations instead: the loop counter of an adder restarting in place, which is also its count
// of adds. An adder restarting in place runs its whole loop (loop.ts): one Wasm loop whose turns
// are whole operations, compiled along their paths; this per-instruction code runs what the loop
// leaves to it, and each chunk's last restart, which looks at the run's stop word, so a stop is
// seen within BARE_CHUNK operations. The tally of what the context added lives in a local and
// is written back when the burst ends (and stored at every add too where a reader needs every
// tally at every moment). A loop (a spin, a retry) returns to the caller after BARE_LOOPS back
// edges, so the CPU loop still polls. The state a bare burst leaves is the one the exact tier
// leaves after the same steps: the tests run both and compare.
//
// Why WebAssembly rather than JavaScript source or closures: its loads and stores are the
// machine's own, 64-bit registers are native (no lo/hi pairs), and a Content-Security-Policy can
// allow it with 'wasm-unsafe-eval' alone, which cannot run generated JavaScript.

import {
  cpuBase,
  ctxBase,
  CPU_IRQ_ON,
  CPU_PREEMPT,
  CTX_PC,
  CTX_REGS,
  CTX_RETRIES,
  CTX_TALLY,
  type Machine,
} from '../../machine/machine.ts';
import {
  Cond,
  type Instr,
  Kind,
  Mode,
  Op,
  POINTER_BASE,
  touchesMemory,
} from '../../machine/isa.ts';
import type { Tier } from '../engine/engine.ts';
import { resultSlots } from '../memory.ts';
import { assemble, Atomic, Body, Code, I32, I64 } from './encoder.ts';
import {
  COUNTERS,
  FIXED_I32,
  G,
  L_A,
  L_BUDGET,
  L_CHUNK,
  L_CODE,
  L_COUNTERS,
  L_DELIVER,
  L_FLAGS,
  L_GUARD,
  L_GUESS,
  L_IRQ,
  L_LOOPS,
  L_N,
  L_PC,
  L_PRE,
  L_REGS,
  L_RETRIES,
  L_T,
  L_TALLY,
  L_V,
} from './locals.ts';
import { type LoopHost, wholeLoop } from './loop.ts';

export { COUNTERS, type CounterName } from './locals.ts';

/** Why a burst returned (the low 3 bits of a function's result; the steps left are above). */
export const Exit = {
  /** The budget ran out at an instruction boundary. */
  Budget: 0,
  /** The context ran off the end of its program: the caller finishes it as the model does. */
  Ended: 1,
  /** Interrupts came back on with an IRQ pending: the caller delivers it. */
  Deliver: 2,
  /** The instruction at pc breaks the machine's rules; nothing of it was done. */
  Fault: 3,
} as const;

/** Bits of a burst's `flags` argument. */
export const Flag = {
  /** An adder that ends restarts in place (the CPU has no other task and is not stopping). */
  Repeat: 1,
  /** CPU k has an IRQ pending (only CPU k's own loop changes that, between bursts). */
  Pending: 2,
} as const;

/**
 * The counters a burst keeps in locals: those it may bump at every step. The retry counts change
 * only when a call that retried ends, and go to their globals then: two locals fewer live across
 * the whole burst leave V8 more registers (measured in Node: percpu-classic, one CPU, went from
 * 200 M to 280 M adds a second).
 */
const IN_LOCALS = [G.folds, G.bumps, G.spins, G.repeats];

/** A local loop (no visible step) taking more backward jumps than this is a program bug. */
const LOCAL_LOOP_LIMIT = 1_000_000;

/** Bare tier: backward jumps (spins included) a burst takes before it returns to the CPU loop. */
export const BARE_LOOPS = 1 << 16;

/**
 * Bare tier: operations the whole loop runs between two looks at the run's stop word (the
 * chunk's last restart is made by the per-instruction code, which reads it). A look costs a
 * load, a compare and a dispatch: once in 256 adds it is lost in the noise, and a stop is still
 * seen within a microsecond or so.
 */
export const BARE_CHUNK = 256;

export interface CompileTarget {
  readonly machine: Machine;
  /** The CPU the code runs on: ThisCpu addresses and smp_processor_id() are constants. */
  readonly cpu: number;
  /** Byte offset of the state vector in the memory. */
  readonly stateByte: number;
  /** Size of the shared memory in 64 KiB pages (import and maximum). */
  readonly memoryPages: number;
  /** exact (default) or bare (see above). */
  readonly tier?: Tier;
  /** Bare tier: byte address of the run's stop word (nonzero: restart nothing). */
  readonly stopByte?: number;
}

/** Compiles every context of the machine for CPU `cpu`: the bytes of a Wasm module. */
export function compileCpu(t: CompileTarget): Uint8Array {
  const m = t.machine;
  const functions = m.code.map((code, c) => ({
    name: `c${c}`,
    params: [I32, I32],
    results: [I32],
    locals: [
      ...FIXED_I32.map(() => I32),
      I64,
      I64,
      ...(m.programs[c]?.regNames ?? []).map(() => I64),
    ],
    body: new ContextCompiler(t, c, code).compile(),
  }));
  return assemble({ memoryPages: t.memoryPages, globals: COUNTERS, functions });
}

class ContextCompiler implements LoopHost {
  readonly b = new Body();
  private readonly m: Machine;
  /** Word of this context's record and of this CPU's record. */
  private readonly cb: number;
  private readonly cpuRec: number;
  readonly regs: number;
  private out!: symbol;
  private dispatch!: symbol;
  /**
   * While the bare tier's whole loop is emitted (loop.ts): the registers whose values it knows
   * (emitted as constants), where a spin goes again, and how the loop leaves for the code below
   * at an instruction it does not take on (a fault, the end of a spin's patience).
   */
  known: (bigint | null)[] | null = null;
  spinAgain: symbol | null = null;
  leave: ((pc: number) => void) | null = null;
  /** Per pc, the label whose end is where pc's code starts (n: the end of the program). */
  private labels: symbol[] = [];
  /**
   * While a block's fast path is emitted: its visible steps (charged at its entry) and how many
   * of them have started, so a fault or a spin gives back what the block did not do.
   */
  private fast: { visible: number; started: number } | null = null;
  /**
   * Bare tier (no budget, no event), where the tally is in a local; and whether a bare context
   * also writes it through to the state at every add.
   */
  private readonly bare: boolean;
  private readonly tallyThrough: boolean;

  constructor(
    private readonly t: CompileTarget,
    private readonly ctx: number,
    readonly code: readonly Instr[],
  ) {
    this.m = t.machine;
    this.cb = ctxBase(this.m, ctx);
    this.cpuRec = cpuBase(this.m, t.cpu);
    this.regs = this.m.programs[ctx]?.regNames.length ?? 0;
    this.bare = t.tier === 'bare';
    // A task that records the exact total around its calls reads every tally at any moment, and
    // so does the Scaling sweep's sample of a per-CPU counter's cheap read (its error against the
    // exact total, percpu_counter_read() or the tree's approximate sum): a tally a burst behind
    // would count up to a burst of adds as the read's error. The tally is the context's own line,
    // so a plain store of the local's value is all it takes.
    this.tallyThrough =
      this.bare &&
      (this.m.layout.counter?.deltas != null ||
        this.m.code.flat().some((i) => i.op === Op.RecordTotal));
  }

  /** Byte address of state word w. */
  private word(w: number): number {
    return this.t.stateByte + 4 * w;
  }
  reg(r: number): number {
    return L_REGS + r;
  }
  get cpu(): number {
    return this.t.cpu;
  }

  compile(): number[] {
    const b = this.b;
    this.prologue();
    this.out = b.block('out');
    if (this.bare) this.top = b.loop('top');
    // Only an adder restarts in place (a sum waits its period, a handler returns).
    const adds = this.code.some((i) => i.tally !== 0 || i.op === Op.Tally);
    if (this.bare && this.ctx < this.m.tasks && adds) this.wholeLoop();
    this.dispatch = b.loop('dispatch');
    const n = this.code.length;
    // One block per pc (and one for "ended"): br_table jumps into the code of any instruction,
    // and each instruction falls through to the next, as a program runs.
    const labels = this.labels;
    for (let pc = n; pc >= 0; pc--) labels[pc] = b.block(`pc${pc}`);
    b.get(L_PC).brTable(labels, labels[n] as symbol);
    const starts = blockStarts(this.code);
    for (let pc = 0; pc <= n; pc++) {
      b.end();
      if (pc === n) {
        this.ended();
        continue;
      }
      if (this.bare) {
        // No budget: only the local-loop guard restarts where a block with a visible step does.
        if (starts[pc] && hasVisible(this.code, pc, starts)) b.i32(0).set(L_GUARD);
      } else if (starts[pc]) this.fastBlock(pc, starts);
      this.instruction(pc, this.code[pc] as Instr);
    }
    b.end(); // dispatch
    if (this.bare) b.end(); // top
    b.end(); // out
    this.epilogue();
    return b.finish();
  }

  /** Bare tier: the loop an operation restarting in place goes back to (see wholeLoop). */
  private top!: symbol;

  /**
   * Bare tier: an adder restarting in place runs the whole loop of wholeLoop() (loop.ts), chunks
   * of up to BARE_CHUNK operations; what it does not take on it leaves to the per-instruction
   * code below (the dispatch), where an operation that ends and restarts comes back here. So an
   * operation begun elsewhere, a sum, and each chunk's last restart (which reads the stop word)
   * run below, and every operation between them runs in the loop.
   */
  private wholeLoop(): void {
    const b = this.b;
    // The counts go to their globals around the loop, which bumps them there (folds, spins: once
    // in a batch of adds): four locals fewer live across it, so V8 keeps the loop's own values in
    // registers rather than on the stack.
    IN_LOCALS.forEach((i) => b.get(L_COUNTERS + i).globalSet(i));
    const leave = b.block('leave');
    // A fresh operation of an adder that restarts, with the budget for at least one.
    b.get(L_PC).op(Code.i32Eqz);
    b.get(L_FLAGS).i32(Flag.Repeat).op(Code.i32And).op(Code.i32And);
    b.get(L_PRE).op(Code.i32Eqz).op(Code.i32And);
    b.get(L_IRQ).i32(1).op(Code.i32Eq).op(Code.i32And);
    b.get(L_BUDGET).i32(0).op(Code.i32GtS).op(Code.i32And);
    b.op(Code.i32Eqz).brIf(leave);
    // The chunk: min(BARE_CHUNK, budget) operations, all but the last restarted in the loop,
    // counted here as if all were; the loop's leaving gives back those it did not make.
    b.i32(BARE_CHUNK).get(L_BUDGET).i32(BARE_CHUNK).get(L_BUDGET).op(Code.i32LtS, Code.select);
    b.i32(1).op(Code.i32Sub).tee(L_CHUNK);
    b.globalGet(G.repeats).op(Code.i32Add).globalSet(G.repeats);
    b.get(L_BUDGET).get(L_CHUNK).op(Code.i32Sub).set(L_BUDGET);
    this.countersInGlobals = true;
    wholeLoop(this, this.code, leave);
    this.countersInGlobals = false;
    b.end(); // leave
    // The restarts the loop did not make (L_CHUNK is 0 if it did not run).
    b.get(L_BUDGET).get(L_CHUNK).op(Code.i32Add).set(L_BUDGET);
    b.globalGet(G.repeats).get(L_CHUNK).op(Code.i32Sub).globalSet(G.repeats);
    b.i32(0).set(L_CHUNK);
    IN_LOCALS.forEach((i) => b.globalGet(i).set(L_COUNTERS + i));
    b.i32(0).set(L_GUARD);
    // A spin that ran out of patience in the loop returns to the CPU loop from there.
    b.get(L_LOOPS).i32(0).op(Code.i32LeS).if();
    b.i32(Exit.Budget).set(L_CODE).br(this.out);
    b.end();
  }

  /** While the whole loop is emitted: the counts are in their globals, not in locals. */
  private countersInGlobals = false;

  /**
   * The fast path of the basic block starting at pc: when the budget covers all its visible
   * steps, they are charged at once and its instructions run with no check between them; it
   * then goes on at the next block. Otherwise the code falls through to the slow path, the same
   * instructions with a check at each boundary.
   */
  private fastBlock(pc: number, starts: readonly boolean[]): void {
    const b = this.b;
    let end = pc + 1;
    while (end < this.code.length && !starts[end]) end++;
    const block = this.code.slice(pc, end);
    const visible = block.filter((i) => i.op < Op.FirstLocal).length;
    if (visible === 0) return; // local code checks nothing: one path is enough
    const slow = b.block('slow');
    b.get(L_BUDGET).i32(visible).op(Code.i32LtS).brIf(slow);
    b.get(L_BUDGET).i32(visible).op(Code.i32Sub).set(L_BUDGET);
    b.i32(0).set(L_GUARD);
    this.fast = { visible, started: 0 };
    block.forEach((ins, i) => {
      this.instruction(pc + i, ins);
    });
    this.fast = null;
    // Off the end of the block: on to the next one (a branch or jump has left already if taken).
    if (!endsFlow(block.at(-1) as Instr)) b.br(this.labels[end] as symbol);
    b.end();
  }

  private prologue(): void {
    const b = this.b;
    b.i32(0)
      .mem(Code.i32Load, 2, this.word(this.cb + CTX_PC))
      .set(L_PC);
    b.i32(0)
      .mem(Code.i32Load, 2, this.word(this.cb + CTX_RETRIES))
      .set(L_RETRIES);
    b.i32(0)
      .mem(Code.i32Load, 2, this.word(this.cpuRec + CPU_PREEMPT))
      .set(L_PRE);
    b.i32(0)
      .mem(Code.i32Load, 2, this.word(this.cpuRec + CPU_IRQ_ON))
      .set(L_IRQ);
    for (let r = 0; r < this.regs; r++) {
      b.i32(0)
        .mem(Code.i64Load, 2, this.word(this.cb + CTX_REGS + 2 * r))
        .set(this.reg(r));
    }
    IN_LOCALS.forEach((i) => b.globalGet(i).set(L_COUNTERS + i));
    if (this.bare) {
      b.i32(0)
        .mem(Code.i64Load, 2, this.word(this.cb + CTX_TALLY))
        .set(L_TALLY);
    }
    if (this.bare) b.i32(BARE_LOOPS).set(L_LOOPS);
  }

  private epilogue(): void {
    const b = this.b;
    b.i32(0)
      .get(L_PC)
      .mem(Code.i32Store, 2, this.word(this.cb + CTX_PC));
    b.i32(0)
      .get(L_RETRIES)
      .mem(Code.i32Store, 2, this.word(this.cb + CTX_RETRIES));
    b.i32(0)
      .get(L_PRE)
      .mem(Code.i32Store, 2, this.word(this.cpuRec + CPU_PREEMPT));
    b.i32(0)
      .get(L_IRQ)
      .mem(Code.i32Store, 2, this.word(this.cpuRec + CPU_IRQ_ON));
    for (let r = 0; r < this.regs; r++) {
      b.i32(0)
        .get(this.reg(r))
        .mem(Code.i64Store, 2, this.word(this.cb + CTX_REGS + 2 * r));
    }
    IN_LOCALS.forEach((i) => b.get(L_COUNTERS + i).globalSet(i));
    if (this.bare) {
      b.i32(0)
        .get(L_TALLY)
        .mem(Code.i64Store, 2, this.word(this.cb + CTX_TALLY));
    }
    b.get(L_BUDGET).i32(3).op(Code.i32Shl).get(L_CODE).op(Code.i32Or);
  }

  /**
   * Leaves the burst with pc = `pc` and exit `code`; in the bare tier's whole loop, leaves the
   * loop for the code below at pc instead, which takes the instruction again from its start (a
   * fault did nothing of it; a spin out of patience ends the burst there).
   */
  private exit(pc: number, code: number): void {
    if (this.leave) {
      this.leave(pc);
      return;
    }
    this.b.i32(pc).set(L_PC).i32(code).set(L_CODE).br(this.out);
  }

  /**
   * A fault at instruction pc: its step is given back, nothing of it was done. In a block's fast
   * path the block's steps not started are given back too, so the budget left is the slow path's.
   */
  private fault(pc: number): void {
    if (this.bare) {
      this.exit(pc, Exit.Fault);
      return;
    }
    const back = this.fast ? this.fast.visible - this.fast.started + 1 : 1;
    this.b.get(L_BUDGET).i32(back).op(Code.i32Add).set(L_BUDGET);
    this.exit(pc, Exit.Fault);
  }

  bump(counter: 'folds' | 'bumps' | 'spins' | 'repeats'): void {
    if (this.countersInGlobals) {
      this.b.globalGet(G[counter]).i32(1).op(Code.i32Add).globalSet(G[counter]);
      return;
    }
    const l = L_COUNTERS + G[counter];
    this.b.get(l).i32(1).op(Code.i32Add).set(l);
  }

  private instruction(pc: number, ins: Instr): void {
    if (ins.op >= Op.FirstLocal) {
      this.local(pc, ins);
      return;
    }
    const b = this.b;
    if (this.fast) this.fast.started++;
    else if (!this.bare) {
      if (!ins.tail) {
        // An instruction boundary: the budget (or an IRQ to deliver) may end the burst here. The
        // second half of a local-atomic instruction is no boundary: nothing comes between them.
        b.get(L_BUDGET).i32(0).op(Code.i32LeS).if();
        b.i32(pc).set(L_PC);
        b.i32(Exit.Deliver).i32(Exit.Budget).get(L_DELIVER).op(Code.select).set(L_CODE);
        b.br(this.out).end();
      }
      b.get(L_BUDGET).i32(1).op(Code.i32Sub).set(L_BUDGET);
      b.i32(0).set(L_GUARD);
    }
    if (touchesMemory(ins.op)) this.address(pc, ins);
    this.visible(pc, ins);
    if (ins.tally !== 0) this.tally(ins);
  }

  /**
   * The add of instruction `ins` to the context's tally (its `tally`, or a Tally's operand):
   * in the exact tier in the state at the step that adds; in the bare tier in its local, and
   * through to the state too where a reader needs every tally at every moment.
   */
  tally(ins: Instr): void {
    const b = this.b;
    const at = this.word(this.cb + CTX_TALLY);
    const amount = () => {
      if (ins.op === Op.Tally) this.right(ins);
      else b.i64(BigInt(ins.tally));
    };
    if (this.bare) {
      b.get(L_TALLY);
      amount();
      b.op(Code.i64Add).set(L_TALLY);
      if (this.tallyThrough) b.i32(0).get(L_TALLY).mem(Code.i64Store, 2, at);
      return;
    }
    b.i32(0).i32(0).mem(Code.i64Load, 2, at);
    amount();
    b.op(Code.i64Add).mem(Code.i64Store, 2, at);
  }

  countKind(ins: Instr): void {
    if (ins.kind === Kind.Fold) this.bump('folds');
    else if (ins.kind === Kind.SeqBump) this.bump('bumps');
  }

  /** Sets L_A to the byte address of the access, or faults as `address()` does. */
  address(pc: number, ins: Instr): void {
    const b = this.b;
    const last = ins.width === 64 ? 1 : 0;
    const limit = this.m.memWords - last;
    if (ins.mode === Mode.Abs || ins.mode === Mode.ThisCpu) {
      const a = ins.mode === Mode.Abs ? ins.base : ins.base + this.t.cpu * ins.stride;
      if (a < 0 || a >= limit) this.fault(pc);
      else b.i32(this.word(a)).set(L_A);
      return;
    }
    if (ins.mode !== Mode.Reg && ins.mode !== Mode.Indexed) {
      this.fault(pc);
      return;
    }
    this.value(ins.areg);
    b.op(Code.i32WrapI64);
    if (ins.mode === Mode.Reg) b.i32(POINTER_BASE).op(Code.i32Sub);
    if (ins.mode === Mode.Indexed) b.i32(ins.stride).op(Code.i32Mul).i32(ins.base).op(Code.i32Add);
    b.tee(L_A).i32(limit).op(Code.i32GeU).if();
    this.fault(pc);
    b.end();
    if (atomic64(ins)) {
      // A 64-bit atomic needs an even word (the interpreter's BigInt64Array element).
      b.get(L_A).i32(1).op(Code.i32And).if();
      this.fault(pc);
      b.end();
    }
    b.get(L_A).i32(2).op(Code.i32Shl).i32(this.t.stateByte).op(Code.i32Add).set(L_A);
  }

  /** Pushes the i64 value of register r (0 when there is none; a constant when it is known). */
  private value(r: number): void {
    const v = r >= 0 ? this.known?.[r] : 0n;
    if (v != null) this.b.i64(v);
    else this.b.get(this.reg(r));
  }

  /** Pushes the right operand: the immediate, src2, or 0. */
  right(ins: Instr): void {
    if (ins.useImm) this.b.i64(immediate(ins));
    else this.value(ins.src2);
  }

  visible(pc: number, ins: Instr): void {
    const b = this.b;
    const dst = this.reg(ins.dst);
    const wide = ins.width === 64;
    switch (ins.op) {
      case Op.Load:
        this.countKind(ins);
        // A plain 32-bit load, then the sign by two shifts. A sign-extending load (movsxd) is not
        // forwarded from the 32-bit store before it as a plain `mov` is (memory renaming, as
        // C's `x++` gets), and V8 fuses both i64.load32_s and i64.load32_u + i64.extend32_s
        // into one (V8 15, Chromium 150; V8 11 kept the second as a load and a movsxd). A
        // per-CPU add's load-add-store chain (percpu-classic, 1 CPU, kernel batch) ran 0.55 G
        // adds a second in Chromium 150 fused and 1.2 G with the shifts; Node 20 the same.
        b.get(L_A).mem(Code.i64Load32U, 2, 0);
        b.i64(32n).op(Code.i64Shl).i64(32n).op(Code.i64ShrS).set(dst);
        return;
      case Op.Store:
        this.countKind(ins);
        b.get(L_A);
        this.value(ins.src);
        b.mem(Code.i64Store32, 2, 0);
        return;
      case Op.Load64:
        this.countKind(ins);
        b.get(L_A).atomic(Atomic.i64Load, 3, 0).set(dst);
        return;
      case Op.Store64:
        this.countKind(ins);
        b.get(L_A);
        this.value(ins.src);
        b.atomic(Atomic.i64Store, 3, 0);
        return;
      case Op.LoadLo:
        this.countKind(ins);
        b.get(dst).i64(-0x100000000n).op(Code.i64And);
        b.get(L_A).mem(Code.i64Load32U, 2, 0).op(Code.i64Or).set(dst);
        return;
      case Op.LoadHi:
        this.countKind(ins);
        b.get(dst).i64(0xffffffffn).op(Code.i64And);
        b.get(L_A).mem(Code.i64Load32U, 2, 4).i64(32n).op(Code.i64Shl).op(Code.i64Or).set(dst);
        return;
      case Op.StoreLo:
        this.countKind(ins);
        b.get(L_A);
        this.value(ins.src);
        b.mem(Code.i64Store32, 2, 0);
        return;
      case Op.StoreHi:
        this.countKind(ins);
        b.get(L_A);
        this.value(ins.src);
        b.i64(32n).op(Code.i64ShrU).mem(Code.i64Store32, 2, 4);
        return;
      case Op.AtomicAdd:
      case Op.AtomicOr: {
        this.countKind(ins);
        const add = ins.op === Op.AtomicAdd;
        if (ins.useImm) b.i64(immediate(ins));
        else this.value(ins.src);
        b.set(L_V);
        if (wide) {
          b.get(L_A)
            .get(L_V)
            .atomic(add ? Atomic.i64RmwAdd : Atomic.i64RmwOr, 3, 0);
          // add: the new value (atomic_add_return); or: the old one (atomic_fetch_or).
          if (ins.dst >= 0) {
            if (add) b.get(L_V).op(Code.i64Add);
            b.set(dst);
          } else b.op(Code.drop);
        } else if (add) {
          // A cmpxchg loop whose first try expects the value this context saw last, plus what
          // it added, and whose retries take the value the failed cmpxchg returned. V8 (11 and
          // 15) compiles i32.atomic.rmw.add as its own cmpxchg loop behind a plain load: on a
          // word two cores add to, the load takes the line shared and the cmpxchg must take it
          // back (global-atomic on 2 CPUs: 96 M adds a second against 138 M this way, in C on
          // this machine; `lock add`, which Wasm cannot ask for, 230 M). Alone on the word the
          // first try succeeds. Which value is expected never changes the add: cmpxchg makes
          // it atomic, and a wrong guess costs one more try. The price, measured: a program
          // whose add is rare ran slower around it (lazy-nr-files, one atomic add in 16: 16 %
          // fewer adds on one CPU in Chromium 150), and the variants that avoid it (one try,
          // then V8's add; or the loop only after a miss) gave back most of the gain.
          const done = b.block('added');
          const again = b.loop('cas');
          b.get(L_A).get(L_GUESS).get(L_GUESS).get(L_V).op(Code.i32WrapI64, Code.i32Add);
          b.atomic(Atomic.i32RmwCmpxchg, 2, 0).tee(L_T).get(L_GUESS).op(Code.i32Eq).brIf(done);
          b.get(L_T).set(L_GUESS).br(again).end().end();
          // L_GUESS: the value the add replaced; then what the word holds after it.
          b.get(L_GUESS).get(L_V).op(Code.i32WrapI64, Code.i32Add).set(L_GUESS);
          if (ins.dst >= 0) b.get(L_GUESS).op(Code.i64ExtendI32S).set(dst);
        } else {
          b.get(L_V).op(Code.i32WrapI64).set(L_T);
          b.get(L_A).get(L_T).atomic(Atomic.i32RmwOr, 2, 0);
          if (ins.dst >= 0) b.op(Code.i64ExtendI32S).set(dst);
          else b.op(Code.drop);
        }
        return;
      }
      case Op.AtomicAnd:
      case Op.AtomicXor: {
        // dst = the old value (the fetch_ forms).
        this.countKind(ins);
        const and = ins.op === Op.AtomicAnd;
        b.get(L_A);
        if (ins.useImm) b.i64(immediate(ins));
        else this.value(ins.src);
        if (wide) b.atomic(and ? Atomic.i64RmwAnd : Atomic.i64RmwXor, 3, 0);
        else
          b.op(Code.i32WrapI64)
            .atomic(and ? Atomic.i32RmwAnd : Atomic.i32RmwXor, 2, 0)
            .op(Code.i64ExtendI32S);
        if (ins.dst >= 0) b.set(dst);
        else b.op(Code.drop);
        return;
      }
      case Op.AddUnless: {
        // The kernel's cmpxchg loop: read; stop at `unless`; else cmpxchg old → old + amount,
        // again if another CPU changed the word in between. The old value ends in L_V / L_T.
        this.countKind(ins);
        const amount = () => {
          if (ins.useImm) b.i64(immediate(ins));
          else this.value(ins.src);
        };
        const out = b.block('unless');
        const again = b.loop('cas');
        if (wide) {
          b.get(L_A).atomic(Atomic.i64Load, 3, 0).set(L_V);
          b.get(L_V);
          this.value(ins.src2);
          b.op(Code.i64Eq).brIf(out);
          b.get(L_A).get(L_V).get(L_V);
          amount();
          b.op(Code.i64Add).atomic(Atomic.i64RmwCmpxchg, 3, 0);
          b.get(L_V).op(Code.i64Eq).brIf(out);
        } else {
          b.get(L_A).atomic(Atomic.i32Load, 2, 0).set(L_T);
          b.get(L_T);
          this.value(ins.src2);
          b.op(Code.i32WrapI64, Code.i32Eq).brIf(out);
          b.get(L_A).get(L_T).get(L_T);
          amount();
          b.op(Code.i32WrapI64, Code.i32Add).atomic(Atomic.i32RmwCmpxchg, 2, 0);
          b.get(L_T).op(Code.i32Eq).brIf(out);
        }
        b.br(again).end().end();
        if (ins.dst >= 0) {
          if (wide) b.get(L_V).set(dst);
          else b.get(L_T).op(Code.i64ExtendI32S).set(dst);
        }
        return;
      }
      case Op.Xchg:
        this.countKind(ins);
        b.get(L_A);
        this.value(ins.src);
        if (wide) b.atomic(Atomic.i64RmwXchg, 3, 0);
        else b.op(Code.i32WrapI64).atomic(Atomic.i32RmwXchg, 2, 0).op(Code.i64ExtendI32S);
        b.set(dst);
        return;
      case Op.Cmpxchg:
        this.countKind(ins);
        b.get(L_A);
        this.value(ins.src);
        if (wide) {
          this.value(ins.src2);
          b.atomic(Atomic.i64RmwCmpxchg, 3, 0);
        } else {
          // A 32-bit cmpxchg compares the low word only, as the interpreter does.
          b.op(Code.i32WrapI64);
          this.value(ins.src2);
          b.op(Code.i32WrapI64).atomic(Atomic.i32RmwCmpxchg, 2, 0).op(Code.i64ExtendI32S);
        }
        b.set(dst);
        return;
      case Op.SpinLock:
        this.countKind(ins);
        // Test, then test-and-set: a CPU that sees the lock held spins on a read of it (as the
        // kernel's queued spinlocks spin locally) instead of taking the line from the holder with
        // a failing cmpxchg at every step. Either way the step changes nothing and repeats.
        b.get(L_A).atomic(Atomic.i32Load, 2, 0).tee(L_T).op(Code.i32Eqz).if();
        b.get(L_A)
          .i32(0)
          .i32(this.ctx + 1)
          .atomic(Atomic.i32RmwCmpxchg, 2, 0)
          .set(L_T);
        b.end();
        // L_T: the holder's mark when held (spin), 0 when this step took the lock.
        b.get(L_T).if();
        this.bump('spins');
        this.backEdge(pc);
        // The spin took its step; in a fast path the rest of the block is given back.
        if (this.fast && this.fast.visible > this.fast.started) {
          b.get(L_BUDGET)
            .i32(this.fast.visible - this.fast.started)
            .op(Code.i32Add)
            .set(L_BUDGET);
        }
        if (this.spinAgain) b.br(this.spinAgain).end();
        else b.i32(pc).set(L_PC).br(this.dispatch).end();
        // In the whole loop preempt_count is the loop's to count (loop.ts).
        if (!this.known) b.get(L_PRE).i32(1).op(Code.i32Add).set(L_PRE);
        return;
      case Op.SpinTrylock:
        // One attempt: 0 → this context's mark takes the lock; dst = whether it did.
        this.countKind(ins);
        b.get(L_A)
          .i32(0)
          .i32(this.ctx + 1)
          .atomic(Atomic.i32RmwCmpxchg, 2, 0)
          .op(Code.i32Eqz)
          .tee(L_T)
          .op(Code.i64ExtendI32U)
          .set(dst);
        b.get(L_PRE).get(L_T).op(Code.i32Add).set(L_PRE);
        return;
      case Op.SpinUnlock:
        b.get(L_A)
          .i32(this.ctx + 1)
          .i32(0)
          .atomic(Atomic.i32RmwCmpxchg, 2, 0);
        b.i32(this.ctx + 1)
          .op(Code.i32Ne)
          .if();
        this.fault(pc); // a lock it does not hold: the failed cmpxchg wrote nothing
        b.end();
        this.countKind(ins);
        if (!this.known) b.get(L_PRE).i32(1).op(Code.i32Sub).set(L_PRE);
        return;
      case Op.Fence:
        b.fence();
        return;
      case Op.PreemptDisable:
        this.countKind(ins);
        b.get(L_PRE).i32(1).op(Code.i32Add).set(L_PRE);
        return;
      case Op.PreemptEnable:
        b.get(L_PRE).op(Code.i32Eqz).if();
        this.fault(pc);
        b.end();
        this.countKind(ins);
        b.get(L_PRE).i32(1).op(Code.i32Sub).set(L_PRE);
        return;
      case Op.IrqSave:
        this.countKind(ins);
        b.get(L_IRQ).op(Code.i64ExtendI32U).set(dst);
        b.i32(0).set(L_IRQ);
        return;
      case Op.IrqRestore:
      case Op.IrqEnable:
        this.countKind(ins);
        if (ins.op === Op.IrqEnable) b.i32(1);
        else {
          this.value(ins.src);
          b.op(Code.i32WrapI64).i32(0).op(Code.i32Ne);
        }
        if (this.bare) {
          // No IRQ can be pending in a bare run: nothing to deliver here.
          b.set(L_IRQ);
          return;
        }
        b.tee(L_IRQ).get(L_FLAGS).i32(Flag.Pending).op(Code.i32And).i32(0).op(Code.i32Ne);
        b.op(Code.i32And).if();
        // Taken at this instruction boundary: the burst ends before the next visible step.
        b.i32(1).set(L_DELIVER).i32(0).set(L_BUDGET).end();
        return;
      case Op.IrqDisable:
        this.countKind(ins);
        b.i32(0).set(L_IRQ);
        return;
      case Op.AddrGen:
        this.countKind(ins);
        b.i64(BigInt(POINTER_BASE + ins.base + this.t.cpu * ins.stride)).set(dst);
        return;
      case Op.CpuId:
        this.countKind(ins);
        b.i64(BigInt(this.t.cpu)).set(dst);
        return;
      default:
        this.fault(pc);
    }
  }

  local(pc: number, ins: Instr): void {
    const b = this.b;
    const dst = this.reg(ins.dst);
    switch (ins.op) {
      case Op.Mov:
        if (ins.useImm) b.i64(immediate(ins));
        else this.value(ins.src);
        b.set(dst);
        return;
      case Op.Add:
      case Op.Sub:
      case Op.And:
      case Op.Or: {
        this.value(ins.src);
        this.right(ins);
        const op =
          ins.op === Op.Add
            ? Code.i64Add
            : ins.op === Op.Sub
              ? Code.i64Sub
              : ins.op === Op.And
                ? Code.i64And
                : Code.i64Or;
        b.op(op).set(dst);
        return;
      }
      case Op.Xor:
      case Op.Mul:
      case Op.Shl:
      case Op.Shr: {
        this.value(ins.src);
        this.right(ins);
        const op = {
          [Op.Xor]: Code.i64Xor,
          [Op.Mul]: Code.i64Mul,
          [Op.Shl]: Code.i64Shl,
          [Op.Shr]: Code.i64ShrS,
        }[ins.op];
        b.op(op).set(dst);
        return;
      }
      case Op.Div:
      case Op.Mod:
        // Wasm traps where the interpreter faults (÷ 0) and where C wraps (INT64_MIN ÷ −1):
        // fault on the first, and divide by −1 as a negation (remainder 0) for the second.
        this.right(ins);
        b.set(L_V).get(L_V).op(Code.i64Eqz).if();
        this.fault(pc);
        b.end();
        b.get(L_V).i64(-1n).op(Code.i64Eq).if();
        if (ins.op === Op.Div) {
          b.i64(0n);
          this.value(ins.src);
          b.op(Code.i64Sub).set(dst);
        } else b.i64(0n).set(dst);
        b.else();
        this.value(ins.src);
        b.get(L_V)
          .op(ins.op === Op.Div ? Code.i64DivS : Code.i64RemS)
          .set(dst);
        b.end();
        return;
      case Op.SetCond:
        this.condition(ins);
        b.op(Code.i64ExtendI32U).set(dst);
        return;
      case Op.Tally:
        this.tally(ins);
        return;
      case Op.Branch:
        this.condition(ins);
        b.if();
        this.jump(pc, ins);
        b.end();
        return;
      case Op.Jump:
        this.jump(pc, ins);
        return;
      case Op.Record:
      case Op.RecordTotal:
        this.record(ins);
        return;
      case Op.Pause:
        return;
      case Op.NoFence:
        // smp_mb() on real cores: the model's machine had no buffer to drain, the hardware has.
        b.fence();
        return;
      default:
        this.fault(pc);
    }
  }

  private jump(pc: number, ins: Instr): void {
    const b = this.b;
    if (ins.kind === Kind.SumRetry) b.get(L_RETRIES).i32(1).op(Code.i32Add).set(L_RETRIES);
    if (ins.target <= pc) {
      // A backward jump: a loop of local instructions alone would never end.
      b.get(L_GUARD).i32(1).op(Code.i32Add).tee(L_GUARD).i32(LOCAL_LOOP_LIMIT).op(Code.i32GtS);
      b.if();
      this.exit(pc, Exit.Fault);
      b.end();
      this.backEdge(ins.target);
    }
    // Forward: straight to the target's code (every code position is inside the blocks of the
    // pcs after it). Backward: through the dispatch loop.
    if (ins.target > pc) b.br(this.labels[ins.target] as symbol);
    else b.i32(ins.target).set(L_PC).br(this.dispatch);
  }

  /**
   * Bare tier, at a backward jump to `target` (a loop, a spin): after BARE_LOOPS of them the
   * burst returns there, so a CPU that waits (on a lock, on a retry) still polls its loop.
   */
  private backEdge(target: number): void {
    if (!this.bare) return;
    const b = this.b;
    b.get(L_LOOPS).i32(1).op(Code.i32Sub).tee(L_LOOPS).op(Code.i32Eqz).if();
    this.exit(target, Exit.Budget);
    b.end();
  }

  /** Pushes the branch condition (an i32 truth value). */
  condition(ins: Instr): void {
    const b = this.b;
    const left = () => {
      this.value(ins.src);
    };
    const right = () => {
      this.right(ins);
    };
    const abs = () => {
      // |src|, wrapping (INT64_MIN stays negative, as abs() does in C).
      b.i64(0n);
      left();
      b.op(Code.i64Sub);
      left();
      left();
      b.i64(0n).op(Code.i64LtS).op(Code.select);
    };
    switch (ins.cond) {
      case Cond.AbsGe:
      case Cond.AbsLt:
        abs();
        right();
        b.op(ins.cond === Cond.AbsGe ? Code.i64GeS : Code.i64LtS);
        return;
      case Cond.BitSet:
      case Cond.BitClear:
        left();
        right();
        b.op(Code.i64And)
          .i64(0n)
          .op(ins.cond === Cond.BitSet ? Code.i64Ne : Code.i64Eq);
        return;
      default: {
        const op = {
          [Cond.Eq]: Code.i64Eq,
          [Cond.Ne]: Code.i64Ne,
          [Cond.Lt]: Code.i64LtS,
          [Cond.Le]: Code.i64LeS,
          [Cond.Gt]: Code.i64GtS,
          [Cond.Ge]: Code.i64GeS,
        }[ins.cond];
        if (op === undefined) throw new Error(`unknown condition ${ins.cond}`);
        left();
        right();
        b.op(op);
      }
    }
  }

  /** Record / RecordTotal: append a value to a result slot; a full slot overwrites its last. */
  private record(ins: Instr): void {
    const b = this.b;
    const at = this.m.resOff + ins.base;
    // i = min(count, capacity − 1)
    b.i32(0).mem(Code.i32Load, 2, this.word(at)).set(L_N);
    b.get(L_N)
      .i32(ins.stride - 1)
      .get(L_N)
      .i32(ins.stride)
      .op(Code.i32LtS)
      .op(Code.select);
    b.set(L_N);
    b.get(L_N).i32(3).op(Code.i32Shl);
    if (ins.op === Op.Record) this.value(ins.src);
    else this.totalTally();
    b.mem(Code.i64Store, 2, this.word(at + 1));
    b.i32(0).get(L_N).i32(1).op(Code.i32Add).mem(Code.i32Store, 2, this.word(at));
  }

  /** Pushes the sum of every context's tally: the exact total added so far. */
  private totalTally(): void {
    const b = this.b;
    b.i64(0n);
    for (let c = 0; c < this.m.contexts; c++) {
      const at = this.word(ctxBase(this.m, c) + CTX_TALLY);
      b.i32(0).mem(Code.i64Load, 2, at).op(Code.i64Add);
    }
  }

  /** pc = end of program: restart in place (an adder repeating) or leave for the loop. */
  private ended(): void {
    const b = this.b;
    const n = this.code.length;
    b.get(L_FLAGS).i32(Flag.Repeat).op(Code.i32And);
    b.get(L_PRE).op(Code.i32Eqz).op(Code.i32And);
    b.get(L_IRQ).i32(1).op(Code.i32Eq).op(Code.i32And);
    if (this.bare) {
      // The run's stop word, read at every restart made here: the whole loop leaves each
      // chunk's last restart to this code, so a stop is seen within BARE_CHUNK operations.
      b.i32(0)
        .atomic(Atomic.i32Load, 2, this.t.stopByte ?? 0)
        .op(Code.i32Eqz)
        .op(Code.i32And);
    } else b.get(L_DELIVER).op(Code.i32Eqz).op(Code.i32And);
    b.if();
    this.bump('repeats');
    // Most calls retry nothing: the retry counts are globals, touched only when one did.
    b.get(L_RETRIES).if();
    b.globalGet(G.retried).get(L_RETRIES).op(Code.i32Add).globalSet(G.retried);
    b.get(L_RETRIES).globalGet(G.maxRetries).get(L_RETRIES).globalGet(G.maxRetries);
    b.op(Code.i32GtS, Code.select).globalSet(G.maxRetries);
    b.i32(0).set(L_RETRIES);
    b.end();
    for (let r = 0; r < this.regs; r++) b.i64(0n).set(this.reg(r));
    this.clearSlots();
    if (this.bare) {
      // The loop counter: operations left in this burst; the next ones in the whole loop.
      b.get(L_BUDGET).i32(1).op(Code.i32Sub).tee(L_BUDGET).op(Code.i32Eqz).if();
      this.exit(0, Exit.Budget);
      b.end();
      b.i32(0).set(L_PC).br(this.top);
    } else b.i32(0).set(L_PC).br(this.dispatch);
    b.end();
    this.exit(n, Exit.Ended);
  }

  /** A restart clears the operation's result slots, as `restartTask` does. */
  clearSlots(): void {
    for (const at of resultSlots(this.m, this.code)) {
      this.b.i32(0).i32(0).mem(Code.i32Store, 2, this.word(at));
    }
  }
}

/**
 * Where basic blocks start: pc 0, branch targets and what follows a branch or jump, a spin lock
 * (a spin goes back to it), and what follows an instruction that may end the burst on its own
 * (interrupts back on with an IRQ pending), so nothing runs after it unchecked.
 */
export function blockStarts(code: readonly Instr[]): boolean[] {
  const starts = code.map(() => false);
  starts[0] = true;
  code.forEach((ins, pc) => {
    if (ins.op === Op.Branch || ins.op === Op.Jump) {
      if (ins.target >= 0 && ins.target < code.length) starts[ins.target] = true;
      if (pc + 1 < code.length) starts[pc + 1] = true;
    }
    if (ins.op === Op.SpinLock) starts[pc] = true;
    if ((ins.op === Op.IrqRestore || ins.op === Op.IrqEnable) && pc + 1 < code.length)
      starts[pc + 1] = true;
  });
  return starts;
}

/** Whether the basic block starting at pc has a visible step. */
function hasVisible(code: readonly Instr[], pc: number, starts: readonly boolean[]): boolean {
  for (let i = pc; i < code.length && (i === pc || !starts[i]); i++) {
    if ((code[i] as Instr).op < Op.FirstLocal) return true;
  }
  return false;
}

/** Whether control never goes on to the next instruction after `ins` (an unconditional jump). */
function endsFlow(ins: Instr): boolean {
  return ins.op === Op.Jump;
}

function atomic64(ins: Instr): boolean {
  return (
    ins.width === 64 &&
    (ins.op === Op.Load64 ||
      ins.op === Op.Store64 ||
      ins.op === Op.AtomicAdd ||
      ins.op === Op.AtomicOr ||
      ins.op === Op.AtomicAnd ||
      ins.op === Op.AtomicXor ||
      ins.op === Op.AddUnless ||
      ins.op === Op.Xchg ||
      ins.op === Op.Cmpxchg)
  );
}

function immediate(ins: Instr): bigint {
  return (BigInt(ins.immHi) << 32n) | BigInt(ins.immLo >>> 0);
}
