// Each thread of a compiled program as event sequences: the thread runs once for every value
// its reads could return (herd7 does the same with symbolic values), and each run records the
// events it makes (reads, writes, fences, lock events), with the tags its instructions carry and
// the dependencies between them: `addr` (a read's value reaches an address), `data` (it reaches
// a written value) and `ctrl` (it reaches the condition of a branch, and so every event inside
// that branch, up to where the two ways join again).

import { condHolds, type Instr, isAtomicRmw, Mode, Op, POINTER_BASE } from '../machine/isa.ts';
import { Tag } from '../machine/tags.ts';
import type { Machine } from '../machine/machine.ts';
import type { AxEvent } from './events.ts';

/**
 * One event of one run of a thread, as the execution will hold it (AxEvent, less its place in
 * the execution), with its width and its dependencies: earlier events of the same run.
 */
export interface ThreadEvent extends Pick<AxEvent, 'dir' | 'loc' | 'value' | 'tags' | 'pc'> {
  /** 32 or 64: how the value is read back into a state. */
  readonly width: number;
  readonly addr: readonly number[];
  readonly data: readonly number[];
  readonly ctrl: readonly number[];
  /** For the write of a read-modify-write: its read. −1 otherwise. */
  readonly rmwRead: number;
}

/** A run of a thread to its end. */
export interface ThreadRun {
  readonly events: readonly ThreadEvent[];
  /** The final registers. */
  readonly regs: readonly bigint[];
  /** What record() appended, slot by slot: [slot base, capacity, value]. */
  readonly records: readonly (readonly [number, number, bigint])[];
}

/** What the runs of one thread are, and why some were left out. */
export interface ThreadRuns {
  readonly runs: readonly ThreadRun[];
  /** Runs dropped because a loop went past its bound (herd7's "Loop" results). */
  readonly cut: number;
}

/** Why a program cannot be taken by the engine. */
export class AxiomaticRefusal extends Error {}

const LOCK_TAGS = Tag.Lkr | Tag.Lkw | Tag.Ul | Tag.Lf | Tag.Rl | Tag.Ru;

function imm(ins: Instr): bigint {
  return BigInt.asIntN(64, (BigInt(ins.immHi) << 32n) | BigInt(ins.immLo >>> 0));
}

/** A value as a memory word of `width` bits holds it (32-bit words sign-extend, as Load does). */
export function atWidth(v: bigint, width: number): bigint {
  return width === 64 ? BigInt.asIntN(64, v) : BigInt.asIntN(32, v);
}

function union(a: readonly number[], b: readonly number[]): number[] {
  if (b.length === 0) return a as number[];
  if (a.length === 0) return b as number[];
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/**
 * For each branch, where its two ways meet again (its immediate post-dominator; the program's
 * length for the end): a read the branch tests controls the events between the two.
 */
export function joinPoints(code: readonly Instr[]): Int32Array {
  const n = code.length;
  const succ = (pc: number): number[] => {
    const ins = code[pc] as Instr;
    if (ins.op === Op.Branch) return [pc + 1, ins.target];
    if (ins.op === Op.Jump) return [ins.target];
    if (ins.op === Op.Halt) return [n];
    return [pc + 1];
  };
  // Post-dominator sets as bitsets over n + 1 nodes (n is the exit), iterated to a fixpoint.
  const words = (n + 1 + 31) >>> 5;
  const pdom: Uint32Array[] = [];
  for (let pc = 0; pc <= n; pc++) {
    const s = new Uint32Array(words);
    if (pc === n) s[n >>> 5] = 1 << (n & 31);
    else s.fill(0xffffffff);
    pdom.push(s);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (let pc = n - 1; pc >= 0; pc--) {
      const next = new Uint32Array(words).fill(0xffffffff);
      for (const t of succ(pc)) {
        const o = pdom[Math.min(t, n)] as Uint32Array;
        for (let k = 0; k < words; k++) next[k] = (next[k] as number) & (o[k] as number);
      }
      next[pc >>> 5] = (next[pc >>> 5] as number) | (1 << (pc & 31));
      const cur = pdom[pc] as Uint32Array;
      for (let k = 0; k < words; k++)
        if (next[k] !== cur[k]) {
          pdom[pc] = next;
          changed = true;
          break;
        }
    }
  }
  const has = (s: Uint32Array, i: number) => ((s[i >>> 5] as number) & (1 << (i & 31))) !== 0;
  const join = new Int32Array(n).fill(n);
  for (let pc = 0; pc < n; pc++) {
    if ((code[pc] as Instr).op !== Op.Branch) continue;
    const own = pdom[pc] as Uint32Array;
    // The nearest strict post-dominator: the one every other strict post-dominator post-dominates.
    let best = n;
    for (let q = pc + 1; q <= n + pc; q++) {
      const at = q % (n + 1);
      if (at === pc || !has(own, at)) continue;
      const pq = pdom[at] as Uint32Array;
      let nearest = true;
      for (let r = 0; r <= n && nearest; r++)
        if (r !== pc && r !== at && has(own, r) && !has(pq, r)) nearest = false;
      if (nearest) {
        best = at;
        break;
      }
    }
    join[pc] = best;
  }
  return join;
}
/** One run in progress: where it is, its registers with the events each depends on, and so on. */
interface RunState {
  pc: number;
  regs: bigint[];
  deps: number[][];
  events: ThreadEvent[];
  /** Open branches whose condition read memory: their reads, until `until`. */
  scopes: { deps: number[]; until: number }[];
  records: [number, number, bigint][];
  /** Back jumps taken, per target. */
  loops: Map<number, number>;
}

function clone(s: RunState): RunState {
  return {
    pc: s.pc,
    regs: s.regs.slice(),
    deps: s.deps.slice(),
    events: s.events.slice(),
    scopes: s.scopes.slice(),
    records: s.records.slice(),
    loops: new Map(s.loops),
  };
}

export interface ThreadLimits {
  /** How many times a loop may go round (herd7's -unroll, 2 by default). */
  readonly unroll: number;
  /** Most runs of one thread before the engine gives up. */
  readonly maxRuns: number;
}

/** What advance() makes of a run: it ended, went past a loop's bound, died, or forked. */
type Outcome = 'done' | 'cut' | 'dead' | RunState[];

/** What step() makes of one instruction: null to go on, or what advance() returns. */
type Stepped = Exclude<Outcome, 'done'> | null;

/**
 * Every run of context `ctx`'s code on CPU `cpu`, a read returning each value `values(loc)`
 * lists (what the initial state and the other threads may write there) or one the run itself
 * wrote there before (a lock read: locked or not; a trylock: taken or not).
 */
export function threadRuns(
  m: Machine,
  ctx: number,
  cpu: number,
  values: (loc: number, width: number) => readonly bigint[],
  limits: ThreadLimits,
): ThreadRuns {
  return new ThreadRunner(m, ctx, cpu, values, limits).all();
}

// ---- a run's registers: what they hold, and which of the run's events those values depend on ----

function reg(s: RunState, r: number): bigint {
  return r >= 0 ? (s.regs[r] as bigint) : 0n;
}

function regDeps(s: RunState, r: number): number[] {
  return r >= 0 ? (s.deps[r] as number[]) : [];
}

function setReg(s: RunState, r: number, v: bigint, deps: number[]): void {
  if (r < 0) return;
  s.regs[r] = BigInt.asIntN(64, v);
  s.deps[r] = deps;
}

/** The second operand of an ALU instruction, a comparison or a branch: the immediate or src2. */
function right(s: RunState, ins: Instr): bigint {
  return ins.useImm ? imm(ins) : reg(s, ins.src2);
}

function rightDeps(s: RunState, ins: Instr): number[] {
  return ins.useImm ? [] : regDeps(s, ins.src2);
}

/** The first operand of an atomic (an amount): the immediate or src. */
function first(s: RunState, ins: Instr): bigint {
  return ins.useImm ? imm(ins) : reg(s, ins.src);
}

function firstDeps(s: RunState, ins: Instr): number[] {
  return ins.useImm ? [] : regDeps(s, ins.src);
}

/** The reads that control the run here: those of every open branch. */
function ctrlDeps(s: RunState): number[] {
  let c: number[] = [];
  for (const o of s.scopes) c = union(c, o.deps);
  return c;
}

/** An ALU instruction's result, or null for a division by zero (the run then dies). */
function alu(op: Instr['op'], a: bigint, b: bigint): bigint | null {
  switch (op) {
    case Op.Add:
      return a + b;
    case Op.Sub:
      return a - b;
    case Op.And:
      return a & b;
    case Op.Or:
      return a | b;
    case Op.Xor:
      return a ^ b;
    case Op.Mul:
      return a * b;
    case Op.Div:
      return b === 0n ? null : a / b;
    case Op.Mod:
      return b === 0n ? null : a % b;
    case Op.Shl:
      return a << (b & 63n);
    default:
      return a >> (b & 63n);
  }
}

/**
 * What a read-modify-write whose read (event r) returned `old` writes (null: it does not write),
 * the events that value depends on, and what it leaves in its register. The value comes from
 * the read (herd7's data edge inside the RMW) and the operand, or the operand alone (xchg,
 * cmpxchg).
 */
function rmwWrite(
  t: RunState,
  ins: Instr,
  old: bigint,
  r: number,
): { next: bigint | null; data: number[]; result: bigint } {
  switch (ins.op) {
    case Op.AtomicAdd: {
      const next = old + first(t, ins);
      return { next, data: union([r], firstDeps(t, ins)), result: next };
    }
    case Op.AtomicOr:
      return { next: old | first(t, ins), data: union([r], firstDeps(t, ins)), result: old };
    case Op.AtomicAnd:
      return { next: old & first(t, ins), data: union([r], firstDeps(t, ins)), result: old };
    case Op.AtomicXor:
      return { next: old ^ first(t, ins), data: union([r], firstDeps(t, ins)), result: old };
    case Op.AddUnless: {
      const next = old === atWidth(reg(t, ins.src2), ins.width) ? null : old + first(t, ins);
      return { next, data: union([r], firstDeps(t, ins)), result: old };
    }
    case Op.Xchg:
      return { next: reg(t, ins.src), data: regDeps(t, ins.src), result: old };
    default: {
      const next = old === atWidth(reg(t, ins.src), ins.width) ? reg(t, ins.src2) : null;
      return { next, data: regDeps(t, ins.src2), result: old };
    }
  }
}

/**
 * The runs of one thread, found depth first: each run goes on until it ends, goes past a
 * loop's bound, dies (an address that is no location, a division by zero), or forks at a read,
 * one copy per value the read may return. The runner holds what every run shares (the code,
 * where branches join, the values reads are offered, the limits); a run's own state is the
 * RunState its methods are given.
 */
class ThreadRunner {
  private readonly code: readonly Instr[];
  /** For each branch, the pc where its two ways meet again (joinPoints). */
  private readonly join: Int32Array;

  constructor(
    private readonly m: Machine,
    private readonly ctx: number,
    private readonly cpu: number,
    private readonly values: (loc: number, width: number) => readonly bigint[],
    private readonly limits: ThreadLimits,
  ) {
    this.code = m.programs[ctx]?.instrs ?? [];
    this.join = joinPoints(this.code);
  }

  /** Every run from the start, in the order a depth-first walk of the forks finishes them. */
  all(): ThreadRuns {
    const regCount = this.m.programs[this.ctx]?.regNames.length ?? 0;
    const runs: ThreadRun[] = [];
    let cut = 0;
    const stack: RunState[] = [
      {
        pc: 0,
        regs: new Array<bigint>(regCount).fill(0n),
        deps: new Array<number[]>(regCount).fill([]),
        events: [],
        scopes: [],
        records: [],
        loops: new Map(),
      },
    ];
    while (stack.length > 0) {
      const s = stack.pop() as RunState;
      const outcome = this.advance(s);
      if (outcome === 'done') {
        runs.push({ events: s.events, regs: s.regs, records: s.records });
        if (runs.length > this.limits.maxRuns)
          throw new AxiomaticRefusal(
            `${this.m.programs[this.ctx]?.name ?? 'a thread'} has more than ${this.limits.maxRuns} ways to run (one per value each read may return): too many to enumerate`,
          );
      } else if (outcome === 'cut') cut++;
      else if (outcome === 'dead') continue;
      else for (let i = outcome.length - 1; i >= 0; i--) stack.push(outcome[i] as RunState);
    }
    return { runs, cut };
  }

  /** Runs s until it ends, is cut, dies, or forks (the states to go on with). */
  private advance(s: RunState): Outcome {
    for (;;) {
      if (s.scopes.length > 0) s.scopes = s.scopes.filter((o) => o.until !== s.pc);
      if (s.pc >= this.code.length) return 'done';
      const fork = this.step(s, this.code[s.pc] as Instr);
      if (fork !== null) return fork;
    }
  }

  /** Adds an event to the run, controlled by the open branches; returns its index. */
  private emit(s: RunState, e: Omit<ThreadEvent, 'ctrl'>): number {
    s.events.push({ ...e, ctrl: ctrlDeps(s) });
    return s.events.length - 1;
  }

  /** A fence event (`loc` −1, or an SRCU domain's location), with no value and no dependency. */
  private fence(s: RunState, loc: number, tags: number, pc: number): void {
    this.emit(s, { dir: 'F', loc, value: 0n, tags, pc, width: 0, addr: [], data: [], rmwRead: -1 });
  }

  /** The word address of ins's operand, or null when it is no location (the run then dies). */
  private address(s: RunState, ins: Instr): number | null {
    let a: number;
    switch (ins.mode) {
      case Mode.Abs:
        a = ins.base;
        break;
      case Mode.ThisCpu:
        a = ins.base + this.cpu * ins.stride;
        break;
      case Mode.Reg:
        a = Number(reg(s, ins.areg)) - POINTER_BASE;
        break;
      case Mode.Indexed:
        a = ins.base + Number(reg(s, ins.areg)) * ins.stride;
        break;
      default:
        return null;
    }
    const words = ins.width === 64 ? 2 : 1;
    return Number.isInteger(a) && a >= 0 && a + words <= this.m.memWords ? a : null;
  }

  /** The reads an address was computed from (none for a fixed or per-CPU address). */
  private addrDeps(s: RunState, ins: Instr): number[] {
    return ins.mode === Mode.Reg || ins.mode === Mode.Indexed ? regDeps(s, ins.areg) : [];
  }

  /** Counts a turn of the loop at `target`; false when it goes past the bound. */
  private loopTurn(s: RunState, target: number): boolean {
    const n = (s.loops.get(target) ?? 0) + 1;
    s.loops.set(target, n);
    return n <= this.limits.unroll;
  }

  /** Executes one instruction; returns null to go on, or what advance() returns. */
  private step(s: RunState, ins: Instr): Stepped {
    const op = ins.op;
    if (isAtomicRmw(op)) return this.rmw(s, ins);
    switch (op) {
      case Op.Branch:
        return this.branch(s, ins);
      case Op.Jump:
        return this.jump(s, ins.target);
      case Op.Halt:
        return 'cut';
      case Op.Load:
      case Op.Load64:
        return this.load(s, ins);
      case Op.Store:
      case Op.Store64:
        return this.store(s, ins);
      case Op.SpinLock:
      case Op.SpinUnlock:
      case Op.SpinTrylock:
        return this.spin(s, ins);
      case Op.Fence:
      case Op.NoFence:
        return this.fenceOp(s, ins);
      case Op.LoadLo:
      case Op.LoadHi:
      case Op.StoreLo:
      case Op.StoreHi:
        throw new AxiomaticRefusal(
          'a 64-bit value is read or written in two halves (a 32-bit machine): the memory model takes whole accesses only',
        );
      default:
        return this.local(s, ins);
    }
  }

  /**
   * An instruction that makes no event: it sets a register (with the reads its value depends
   * on), records a value, or changes what only the machine's scheduler sees.
   */
  private local(s: RunState, ins: Instr): Stepped {
    const op = ins.op;
    switch (op) {
      case Op.Mov:
        if (ins.useImm) setReg(s, ins.dst, imm(ins), []);
        else setReg(s, ins.dst, reg(s, ins.src), regDeps(s, ins.src));
        break;
      case Op.Add:
      case Op.Sub:
      case Op.And:
      case Op.Or:
      case Op.Xor:
      case Op.Mul:
      case Op.Div:
      case Op.Mod:
      case Op.Shl:
      case Op.Shr: {
        const v = alu(op, reg(s, ins.src), right(s, ins));
        if (v === null) return 'dead';
        setReg(s, ins.dst, v, union(regDeps(s, ins.src), rightDeps(s, ins)));
        break;
      }
      case Op.SetCond:
        setReg(
          s,
          ins.dst,
          condHolds(ins.cond, reg(s, ins.src), right(s, ins)) ? 1n : 0n,
          union(regDeps(s, ins.src), rightDeps(s, ins)),
        );
        break;
      case Op.AddrGen:
        setReg(s, ins.dst, BigInt(POINTER_BASE + ins.base + this.cpu * ins.stride), []);
        break;
      case Op.CpuId:
        setReg(s, ins.dst, BigInt(this.cpu), []);
        break;
      case Op.IrqSave:
        setReg(s, ins.dst, 1n, []);
        break;
      case Op.Record:
        s.records.push([ins.base, ins.stride, reg(s, ins.src)]);
        break;
      case Op.Pause:
      case Op.Tally:
      case Op.RecordTotal:
      case Op.PreemptDisable:
      case Op.PreemptEnable:
      case Op.IrqRestore:
      case Op.IrqDisable:
      case Op.IrqEnable:
        break;
      default:
        throw new AxiomaticRefusal(`the memory model has no events for opcode ${op}`);
    }
    s.pc++;
    return null;
  }

  /**
   * A fence event: Fence (smp_mb() when it carries no tag of its own), or a NoFence that carries
   * a tag (the fences that drain nothing, barrier(), rcu_read_lock() and synchronize_rcu() among
   * them; synchronize_srcu(s) names its domain's location). A NoFence without a tag is nothing.
   */
  private fenceOp(s: RunState, ins: Instr): Stepped {
    if (ins.op === Op.Fence) this.fence(s, -1, ins.tag || Tag.Mb, s.pc);
    else if (ins.tag !== 0) {
      const loc = ins.mode === Mode.None ? -1 : this.address(s, ins);
      if (loc === null) return 'dead';
      this.fence(s, loc, ins.tag, s.pc);
    }
    s.pc++;
    return null;
  }

  /** A branch: a condition that read memory controls what runs until the two ways join. */
  private branch(s: RunState, ins: Instr): Stepped {
    const pc = s.pc;
    const deps = union(regDeps(s, ins.src), rightDeps(s, ins));
    if (deps.length > 0) s.scopes.push({ deps, until: this.join[pc] as number });
    if (condHolds(ins.cond, reg(s, ins.src), right(s, ins))) return this.jump(s, ins.target);
    s.pc = pc + 1;
    return null;
  }

  /** A jump to `target`; a jump back is a loop's turn, and past the bound it cuts the run. */
  private jump(s: RunState, target: number): Stepped {
    if (target <= s.pc && !this.loopTurn(s, target)) return 'cut';
    s.pc = target;
    return null;
  }

  /** One forked state per value a read of `loc` may return, each with `then` applied. */
  private readFork(
    s: RunState,
    loc: number,
    width: number,
    then: (t: RunState, v: bigint) => boolean,
  ): RunState[] {
    // The values other threads and the initial state may give, and the run's own earlier
    // writes there (a thread reads its own write only from before, in the same run).
    const offered = new Set(this.values(loc, width));
    for (const e of s.events)
      if (e.dir === 'W' && e.loc === loc && !isLockEvent(e.tags))
        offered.add(atWidth(e.value, width));
    const out: RunState[] = [];
    for (const v of offered) {
      const t = clone(s);
      if (then(t, v)) out.push(t);
    }
    return out;
  }

  /** A load: one run per value it may read (spin_is_locked(): locked, or not). */
  private load(s: RunState, ins: Instr): Stepped {
    const pc = s.pc;
    const a = this.address(s, ins);
    if (a === null) return 'dead';
    const ad = this.addrDeps(s, ins);
    s.pc = pc + 1;
    if (ins.tag & (Tag.Rl | Tag.Ru)) {
      // spin_is_locked(): locked (RL) or not (RU), whatever the lock word says.
      return [Tag.Rl, Tag.Ru].map((t) => {
        const c = clone(s);
        const i = this.emit(c, {
          dir: 'R',
          loc: a,
          value: 0n,
          tags: t,
          pc,
          width: ins.width,
          addr: ad,
          data: [],
          rmwRead: -1,
        });
        setReg(c, ins.dst, t === Tag.Rl ? 1n : 0n, [i]);
        return c;
      });
    }
    return this.readFork(s, a, ins.width, (t, v) => {
      const i = this.emit(t, {
        dir: 'R',
        loc: a,
        value: v,
        tags: ins.tag,
        pc,
        width: ins.width,
        addr: ad,
        data: [],
        rmwRead: -1,
      });
      setReg(t, ins.dst, v, [i]);
      return true;
    });
  }

  /** A store: one write, its value from src. */
  private store(s: RunState, ins: Instr): Stepped {
    const a = this.address(s, ins);
    if (a === null) return 'dead';
    this.emit(s, {
      dir: 'W',
      loc: a,
      value: atWidth(reg(s, ins.src), ins.width),
      tags: ins.tag,
      pc: s.pc,
      width: ins.width,
      addr: this.addrDeps(s, ins),
      data: regDeps(s, ins.src),
      rmwRead: -1,
    });
    s.pc++;
    return null;
  }

  /** A LOCK-prefixed read-modify-write (isAtomicRmw): its read, then its write where it writes. */
  private rmw(s: RunState, ins: Instr): Stepped {
    const pc = s.pc;
    const a = this.address(s, ins);
    if (a === null) return 'dead';
    const ad = this.addrDeps(s, ins);
    const tags = ins.tag | Tag.Rmw;
    s.pc = pc + 1;
    return this.readFork(s, a, ins.width, (t, old) => {
      const r = this.emit(t, {
        dir: 'R',
        loc: a,
        value: old,
        tags,
        pc,
        width: ins.width,
        addr: ad,
        data: [],
        rmwRead: -1,
      });
      const { next, data, result } = rmwWrite(t, ins, old, r);
      if (next !== null)
        this.emit(t, {
          dir: 'W',
          loc: a,
          value: atWidth(next, ins.width),
          tags,
          pc,
          width: ins.width,
          addr: ad,
          data,
          rmwRead: r,
        });
      setReg(t, ins.dst, atWidth(result, ins.width === 64 ? 64 : 32), [r]);
      return true;
    });
  }

  /**
   * spin_lock (a lock read and a lock write), spin_unlock (an unlock write), or spin_trylock:
   * two runs, one that takes the lock and one whose read fails.
   */
  private spin(s: RunState, ins: Instr): Stepped {
    const pc = s.pc;
    const a = this.address(s, ins);
    if (a === null) return 'dead';
    const ad = this.addrDeps(s, ins);
    s.pc = pc + 1;
    if (ins.op === Op.SpinLock) {
      this.lock(s, a, ad, pc);
      return null;
    }
    if (ins.op === Op.SpinUnlock) {
      this.emit(s, {
        dir: 'W',
        loc: a,
        value: 0n,
        tags: Tag.Ul,
        pc,
        width: 32,
        addr: ad,
        data: [],
        rmwRead: -1,
      });
      return null;
    }
    const got = clone(s);
    this.lock(got, a, ad, pc);
    setReg(got, ins.dst, 1n, [got.events.length - 1]);
    const failed = clone(s);
    const f = this.emit(failed, {
      dir: 'R',
      loc: a,
      value: 0n,
      tags: Tag.Lf,
      pc,
      width: 32,
      addr: ad,
      data: [],
      rmwRead: -1,
    });
    setReg(failed, ins.dst, 0n, [f]);
    return [got, failed];
  }

  /** Taking the lock at `a`: its lock read, then its lock write, the two an RMW. */
  private lock(s: RunState, a: number, ad: number[], pc: number): void {
    const r = this.emit(s, {
      dir: 'R',
      loc: a,
      value: 0n,
      tags: Tag.Lkr,
      pc,
      width: 32,
      addr: ad,
      data: [],
      rmwRead: -1,
    });
    this.emit(s, {
      dir: 'W',
      loc: a,
      value: 1n,
      tags: Tag.Lkw,
      pc,
      width: 32,
      addr: ad,
      data: [],
      rmwRead: r,
    });
  }
}

/** Whether an event is one of the lock events (they carry no value the model reads). */
export function isLockEvent(tags: number): boolean {
  return (tags & LOCK_TAGS) !== 0;
}
