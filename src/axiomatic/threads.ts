// Each thread of a compiled program as event sequences: the thread runs once for every value
// its reads could return (herd7 does the same with symbolic values), and each run records the
// events it makes (reads, writes, fences, lock events), with the tags its instructions carry and
// the dependencies between them: `addr` (a read's value reaches an address), `data` (it reaches
// a written value) and `ctrl` (it reaches the condition of a branch, and so every event inside
// that branch, up to where the two ways join again).

import {
  condHolds,
  type Instr,
  isAtomicRmw,
  isLocal,
  Kind,
  Mode,
  Op,
  POINTER_BASE,
} from '../machine/isa.ts';
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
  /** The context whose instruction made it (a handler's, inside the task it interrupted). */
  readonly ctx?: number;
}

/** What a run spent of the program's bounds on interrupts and the scheduler (`#pragma lab bounds`). */
export interface Spent {
  irqs: number;
  nmis: number;
  preemptions: number;
  migrations: number;
  hotplugs: number;
}

/** A run of a thread to its end. */
export interface ThreadRun {
  readonly events: readonly ThreadEvent[];
  /** The final registers (of the context the thread started with). */
  readonly regs: readonly bigint[];
  /** What record() appended, slot by slot: [slot base, capacity, value]. */
  readonly records: readonly (readonly [number, number, bigint])[];
  /** What each context it ran (itself, the handlers inlined in it) added: its tally. */
  readonly tallies?: ReadonlyMap<number, bigint>;
  /** Sum retries each context took. */
  readonly retries?: ReadonlyMap<number, number>;
  /** The registers each handler it ran left when it last returned. */
  readonly finals?: ReadonlyMap<number, readonly bigint[]>;
  /** The CPU it ended on. */
  readonly cpu?: number;
  /** Per CPU, the IRQs and NMIs its handlers took there: [irqs, nmis]. */
  readonly handled?: ReadonlyMap<number, readonly [number, number]>;
  /** What it spent of the bounds. */
  readonly spent?: Readonly<Spent>;
}

/** What the runs of one thread are, and why some were left out. */
export interface ThreadRuns {
  readonly runs: readonly ThreadRun[];
  /** Runs dropped because a loop went past its bound (herd7's "Loop" results). */
  readonly cut: number;
}

/**
 * What makes a refused program one the engine can take: a higher loop bound, or a smaller
 * program. Its words depend on what was refused (a program's text takes a pragma, a catalogue
 * entry its parameters), so the front end says them (src/cli/commands/explore.ts).
 */
export type RefusalRemedy = 'loop-bound' | 'smaller';

/** The advice a program's text takes, for each remedy. */
const PROGRAM_ADVICE: Readonly<Record<RefusalRemedy, (reason: string) => string>> = {
  'loop-bound': (reason) => `${reason}: raise it with #pragma lab loop_bound`,
  smaller: (reason) =>
    `${reason} (fewer adds, CPUs or interrupts, or a lower #pragma lab loop_bound, make fewer)`,
};

/** Why a program cannot be taken by the engine (the message advises a program's text). */
export class AxiomaticRefusal extends Error {
  /** The reason alone, without the advice, where a remedy is known. */
  readonly reason: string;
  readonly remedy: RefusalRemedy | null;

  constructor(reason: string, remedy: RefusalRemedy | null = null) {
    super(remedy === null ? reason : PROGRAM_ADVICE[remedy](reason));
    this.reason = reason;
    this.remedy = remedy;
  }
}

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
/** A context's place in a run: its code position, registers and open branches. */
interface Frame {
  /** The machine context whose code runs (a task, or a handler inlined in it). */
  ctx: number;
  pc: number;
  regs: bigint[];
  deps: number[][];
  /** Open branches whose condition read memory: their reads, until `until`. */
  scopes: { deps: number[]; until: number }[];
  /** Back jumps taken, per target. */
  loops: Map<number, number>;
}

/** An interrupted context, and the CPU's interrupt state to restore when its handler returns. */
interface Saved extends Frame {
  irqOn: boolean;
  inIrq: boolean;
  inNmi: boolean;
}

/** A read a run waits at: where it reads, and what the run does once the read has a value. */
interface PendingRead {
  readonly loc: number;
  readonly width: number;
  /** The tags its read event carries (a lock's read: LKR, or RL for spin_is_locked()). */
  readonly tags: number;
  /**
   * Makes the read's events for value v (and may leave the run waiting at its next read);
   * false when the run cannot go on with v (a lock held, a scheduler token not its to take).
   */
  readonly then: (t: RunState, v: bigint) => boolean;
}

/**
 * Steps of a run that are not an instruction: `begin`, the choice of an idle CPU's handler or a
 * CPU's offline to happen or not (`none`: it does not); `offline`, the hotplug thread's steps
 * before the dead callbacks; `back?`, the choice of the dead CPU to come back online or not;
 * `online`, its coming back.
 */
type Phase = 'begin' | 'none' | 'offline' | 'back?' | 'online';

/**
 * One run in progress: the running frame (its fields here), the frames its handlers interrupted,
 * the events so far, and the CPU's state as this thread sees it.
 */
export interface RunState extends Frame {
  saved: Saved[];
  events: ThreadEvent[];
  records: [number, number, bigint][];
  /** The CPU the thread is on now (a task migrates). */
  cpu: number;
  irqOn: boolean;
  inIrq: boolean;
  inNmi: boolean;
  /** preempt_disable() depth. */
  preempt: number;
  spent: Spent;
  /** Segments begun on the scheduler chains (its tokens are numbered by them). */
  segments: number;
  tallies: Map<number, bigint>;
  retries: Map<number, number>;
  finals: Map<number, bigint[]>;
  /** Per CPU, the IRQs and NMIs taken there: [irqs, nmis]. */
  handled: Map<number, [number, number]>;
  /** Instructions run: a guard against a loop that never reads memory and never ends. */
  steps: number;
  /** What may happen at this boundary has been offered; the next instruction runs. */
  decided: boolean;
  /** A CPU whose chain the thread must take before it goes on, or −1. */
  starting: number;
  /** A hotplug thread whose dead callbacks returned and whose offline is over. */
  finishedHotplug?: boolean;
  /** Inside a region where the CPU cannot be preempted (an RCU-sched reader), once noted. */
  quiet?: boolean;
  /** The read the run waits at for its value (advance() returned 'read'), or null. */
  read: PendingRead | null;
  /** A step that is not an instruction, still to come, or null. */
  phase: Phase | null;
  /**
   * What the last boundary that offered anything offered (Offer bits), how many events the run
   * had made then, and whether an instruction since read the CPU it is on; null when nothing
   * was offered. A boundary with no event since offers none of those again: an interrupt or a
   * preemption there makes the same events as at the boundary before (a migration too, unless
   * the CPU was read between), and the same execution would be counted twice.
   */
  offered: { kinds: number; events: number; cpuRead: boolean } | null;
}

/** What a boundary may offer (RunState.offered). */
const Offer = { Irq: 1, Nmi: 2, Preempt: 4, Migrate: 8 } as const;

function clone(s: RunState): RunState {
  return {
    ctx: s.ctx,
    pc: s.pc,
    regs: s.regs.slice(),
    deps: s.deps.slice(),
    scopes: s.scopes.slice(),
    loops: new Map(s.loops),
    saved: s.saved.slice(),
    events: s.events.slice(),
    records: s.records.slice(),
    cpu: s.cpu,
    irqOn: s.irqOn,
    inIrq: s.inIrq,
    inNmi: s.inNmi,
    preempt: s.preempt,
    spent: { ...s.spent },
    segments: s.segments,
    tallies: new Map(s.tallies),
    retries: new Map(s.retries),
    finals: new Map(s.finals),
    handled: new Map([...s.handled].map(([k, v]) => [k, [v[0], v[1]]])),
    steps: s.steps,
    decided: s.decided,
    starting: s.starting,
    ...(s.finishedHotplug === true ? { finishedHotplug: true } : {}),
    ...(s.quiet === true ? { quiet: true } : {}),
    read: s.read,
    phase: s.phase,
    offered: s.offered ? { ...s.offered } : null,
  };
}

/** What the running context adds to its tally (an add completes: Op.Tally, or a step's own). */
function addTally(s: RunState, v: bigint): void {
  s.tallies.set(s.ctx, (s.tallies.get(s.ctx) ?? 0n) + v);
}

/** A sum's retry (a taken branch or jump of Kind.SumRetry), counted per context as the machine does. */
function countRetry(s: RunState, ins: Instr): void {
  if (ins.kind === Kind.SumRetry) s.retries.set(s.ctx, (s.retries.get(s.ctx) ?? 0) + 1);
}

/** A fresh frame for context ctx: pc 0, every register 0. */
function freshFrame(m: Machine, ctx: number): Frame {
  const n = m.programs[ctx]?.regNames.length ?? 0;
  return {
    ctx,
    pc: 0,
    regs: new Array<bigint>(n).fill(0n),
    deps: new Array<number[]>(n).fill([]),
    scopes: [],
    loops: new Map(),
  };
}

export interface ThreadLimits {
  /**
   * How many times a loop may go round (herd7's -unroll, 2 by default), every back jump counted;
   * Infinity for the lab's programs, whose loops the compiler bounds (loop_bound) where a read
   * decides them.
   */
  readonly unroll: number;
  /** Most runs of one thread before the engine gives up. */
  readonly maxRuns: number;
}

/**
 * What the model's threads share of the machine's scheduling: the program's bounds on
 * interrupts and the scheduler, and the CPUs' scheduler chains. Everything that runs on one CPU
 * (its tasks' turns, handlers on an idle CPU, dead callbacks) is ordered there: each turn begins
 * by taking the CPU's chain and ends by handing it on, as schedule() and the runqueue lock order
 * a CPU's contexts in the kernel (docs/memory-models.md, "The scheduler").
 */
export interface Scheduling {
  readonly bounds: Readonly<Spent>;
  /** Per CPU, the location of its chain, or −1 where nothing ever shares the CPU. */
  readonly chain: Int32Array;
  /** Per CPU, whether a preemption there can find another context to run. */
  readonly shared: readonly boolean[];
  /** Per CPU, whether a task is on it at the start (the first turn is that task's). */
  readonly occupied: readonly boolean[];
  /**
   * The program has a grace period the machine makes (CPU hotplug's stop_machine()): regions
   * where a CPU cannot be preempted or interrupted are then RCU read-side critical sections, as
   * synchronize_rcu() and stop_machine() wait for them (the RCU flavours are one since v4.20).
   */
  readonly grace?: boolean;
}

/** No interrupts, no scheduler: each thread alone on its CPU (a herd7 litmus test). */
export function noScheduling(m: Machine): Scheduling {
  return {
    bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, hotplugs: 0 },
    chain: new Int32Array(m.cpus).fill(-1),
    shared: new Array<boolean>(m.cpus).fill(false),
    occupied: new Array<boolean>(m.cpus).fill(true),
  };
}

/** A model thread: the context it starts with, its CPU, and its place among the threads. */
export interface ThreadPlan {
  readonly ctx: number;
  readonly cpu: number;
  /** Its index among the model's threads: its chain tokens are its own. */
  readonly index: number;
  /** It is the task on its CPU at the start (its first turn takes the chain's first token). */
  readonly current: boolean;
  /** A handler on an idle CPU: it runs as a turn of its own, or not at all. */
  readonly idle?: 'irq' | 'nmi';
  /**
   * CPU hotplug of CPU `cpu`: its offline (or none), run by the control CPU `control` with the
   * dead callbacks (ctx) in the middle; `online` also lets it come back after.
   */
  readonly hotplug?: { readonly control: number; readonly online: boolean };
}

/** Most instructions one run may take (a loop the compiler does not bound ends long before). */
const MAX_STEPS = 100_000;

/**
 * What advance() makes of a run: it ended, went past a loop's bound, died, waits at a read for
 * its value (the run's `read`), or forked.
 */
export type Outcome = 'done' | 'cut' | 'dead' | 'read' | RunState[];

/** How a runner takes what the run alone cannot know. */
export interface RunnerOptions {
  /**
   * A lock's reads read the lock word (0 free, anything else held), for an engine that gives
   * each read a write of its own choosing: spin_lock() goes on only from a free lock, and
   * spin_trylock() and spin_is_locked() answer by the value read. Without it (the enumerating
   * engine), spin_lock()'s read reads nothing (lock.cat derives its source from the critical
   * sections' order) and spin_trylock() and spin_is_locked() fork both ways.
   */
  readonly lockReads?: boolean;
}

const NOTHING_SPENT: Readonly<Spent> = {
  irqs: 0,
  nmis: 0,
  preemptions: 0,
  migrations: 0,
  hotplugs: 0,
};

/** What step() makes of one instruction: null to go on, or what advance() returns. */
type Stepped = Exclude<Outcome, 'done'> | null;

/**
 * Every run of context `ctx`'s code on CPU `cpu`, a read returning each value `values(loc)`
 * lists (what the initial state and the other threads may write there) or one the run itself
 * wrote there before (a lock read: locked or not; a trylock: taken or not). The thread is alone
 * on its CPU and nothing interrupts it, as in a herd7 litmus test.
 */
export function threadRuns(
  m: Machine,
  ctx: number,
  cpu: number,
  values: (loc: number, width: number) => readonly bigint[],
  limits: ThreadLimits,
): ThreadRuns {
  const plan = { ctx, cpu, index: 0, current: true };
  return new ThreadRunner(m, plan, noScheduling(m), values, limits).all();
}

/**
 * Every run of a model thread (a task, with the handlers that may interrupt it inlined where
 * they may, and its turns on the CPUs' scheduler chains; or a handler on an idle CPU), within
 * the program's bounds on interrupts and the scheduler.
 */
export function planRuns(
  m: Machine,
  plan: ThreadPlan,
  scheduling: Scheduling,
  values: (loc: number, width: number) => readonly bigint[],
  limits: ThreadLimits,
): ThreadRuns {
  return new ThreadRunner(m, plan, scheduling, values, limits).all();
}

/** The token a thread's turn `n` hands its CPU on with (positive), or holds it by (negative). */
export function turnToken(index: number, n: number): bigint {
  return BigInt((index + 1) * 4096 + n + 1);
}

/** The thread whose turn a token names. */
export function tokenThread(v: bigint): number {
  const a = v < 0n ? -v : v;
  return Math.floor(Number(a - 1n) / 4096) - 1;
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
 * loop's bound, dies (an address that is no location, a division by zero), or forks: at a read,
 * one copy per value the read may return; at an instruction boundary, one copy per thing that
 * may happen there within the bounds (an interrupt handler runs, the task is preempted or
 * migrates). The runner holds what every run shares (the code of each context, where branches
 * join, the values reads are offered, the limits); a run's own state is the RunState its
 * methods are given.
 */
export class ThreadRunner {
  private readonly codes = new Map<number, { code: readonly Instr[]; join: Int32Array }>();

  constructor(
    private readonly m: Machine,
    private readonly plan: ThreadPlan,
    private readonly scheduling: Scheduling,
    private readonly values: (loc: number, width: number) => readonly bigint[],
    private readonly limits: ThreadLimits,
    private readonly options: RunnerOptions = {},
  ) {}

  /** Context ctx's code and its branches' join points. */
  private codeOf(ctx: number): { code: readonly Instr[]; join: Int32Array } {
    let c = this.codes.get(ctx);
    if (!c) {
      const code = this.m.programs[ctx]?.instrs ?? [];
      c = { code, join: joinPoints(code) };
      this.codes.set(ctx, c);
    }
    return c;
  }

  /**
   * A run at the thread's start, before anything is chosen. An idle CPU's handler and a CPU's
   * offline first choose whether they happen at all (phase `begin`).
   */
  start(): RunState {
    const { plan } = this;
    const s: RunState = {
      ...freshFrame(this.m, plan.ctx),
      saved: [],
      events: [],
      records: [],
      cpu: plan.cpu,
      irqOn: plan.idle === undefined,
      inIrq: plan.idle === 'irq',
      inNmi: plan.idle === 'nmi',
      preempt: 0,
      spent: { ...NOTHING_SPENT },
      segments: 0,
      tallies: new Map(),
      retries: new Map(),
      finals: new Map(),
      handled: new Map(),
      steps: 0,
      decided: false,
      starting: -1,
      read: null,
      phase: null,
      offered: null,
    };
    if (plan.idle === 'irq') s.spent.irqs = 1;
    if (plan.idle === 'nmi') s.spent.nmis = 1;
    if (plan.idle !== undefined) s.handled.set(plan.cpu, plan.idle === 'irq' ? [1, 0] : [0, 1]);
    if (plan.idle !== undefined || plan.hotplug !== undefined) s.phase = 'begin';
    else if (this.chainOf(plan.cpu) >= 0) s.starting = plan.cpu;
    return s;
  }

  /**
   * The resumable mode, for an engine that gives each read its value itself (a write already
   * in its execution graph): a copy of `s` run to its next stop (s is left as it was, so
   * several branches may resume it), and what stopped it. Events made on the way are the
   * copy's new `events`; at 'read', `supply` gives the read its value.
   */
  resume(s: RunState): { run: RunState; outcome: Outcome } {
    const run = clone(s);
    return { run, outcome: this.advance(run) };
  }

  /**
   * A copy of a run waiting at a read that has read `v` (its read's events made; it may wait
   * at a next read already), or null when the run cannot go on with that value.
   */
  supply(s: RunState, v: bigint): RunState | null {
    const pending = s.read;
    if (!pending) throw new Error('supply: the run waits at no read');
    const t = clone(s);
    t.read = null;
    return pending.then(t, atWidth(v, pending.width)) ? t : null;
  }

  /** Where the read a run waits at reads, how wide, and its tags; null when it waits at none. */
  pendingRead(
    s: RunState,
  ): { readonly loc: number; readonly width: number; readonly tags: number } | null {
    return s.read ? { loc: s.read.loc, width: s.read.width, tags: s.read.tags } : null;
  }

  /** A finished run (advance() said 'done') as the execution takes it. */
  runOf(s: RunState): ThreadRun {
    return this.finished(s);
  }

  /** Every run from the start, in the order a depth-first walk of the forks finishes them. */
  all(): ThreadRuns {
    const runs: ThreadRun[] = [];
    let cut = 0;
    const stack: RunState[] = [this.start()];
    while (stack.length > 0) {
      const s = stack.pop() as RunState;
      const outcome = this.advance(s);
      if (outcome === 'done') {
        runs.push(this.finished(s));
        if (runs.length > this.limits.maxRuns)
          throw new AxiomaticRefusal(
            `${this.m.programs[this.plan.ctx]?.name ?? 'a thread'} has more than ${this.limits.maxRuns} ways to run (one per value each read may return, and per place an interrupt or the scheduler may come): too many to enumerate`,
          );
      } else if (outcome === 'cut') cut++;
      else if (outcome === 'dead') continue;
      else {
        const next = outcome === 'read' ? this.offer(s) : outcome;
        for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as RunState);
      }
    }
    return { runs, cut };
  }

  /**
   * The enumerating mode's read: one run per value it may return, those the other threads and
   * the initial state may give (`values`) and the run's own earlier writes there (a thread
   * reads its own write only from before, in the same run).
   */
  private offer(s: RunState): RunState[] {
    const { loc, width } = s.read as PendingRead;
    const offered = new Set(this.values(loc, width));
    for (const e of s.events)
      if (e.dir === 'W' && e.loc === loc && !isLockEvent(e.tags))
        offered.add(atWidth(e.value, width));
    const out: RunState[] = [];
    for (const v of offered) {
      const t = this.supply(s, v);
      if (t) out.push(t);
    }
    return out;
  }

  /** A finished run as the execution takes it. */
  private finished(s: RunState): ThreadRun {
    return {
      events: s.events,
      regs: s.regs,
      records: s.records,
      tallies: s.tallies,
      retries: s.retries,
      finals: s.finals,
      cpu: s.cpu,
      handled: s.handled,
      spent: s.spent,
    };
  }

  /** The chain location of CPU k, or −1. */
  private chainOf(k: number): number {
    return this.scheduling.chain[k] ?? -1;
  }

  /**
   * Runs s until it ends, is cut, dies, or forks (the states to go on with). Before each
   * instruction of a context (and when it has no more), what may happen at that boundary is
   * offered first: each choice a fork, going on the last of them.
   */
  private advance(s: RunState): Outcome {
    for (;;) {
      if (s.read) return 'read';
      if (s.phase !== null) {
        const next = this.phaseStep(s);
        if (next !== null) return next;
        continue;
      }
      if (s.starting >= 0) return this.startTurn(s, s.starting);
      if (this.scheduling.grace === true && s.finishedHotplug !== true) this.noteQuiet(s);
      const { code } = this.codeOf(s.ctx);
      if (s.scopes.length > 0) s.scopes = s.scopes.filter((o) => o.until !== s.pc);
      const ins = code[s.pc];
      // The machine interrupts and schedules only before a visible step (locals run on with the
      // step before them) that does not continue an instruction (tail).
      if (!s.decided && (ins === undefined || (!ins.tail && !isLocal(ins.op)))) {
        const forks = this.boundary(s);
        if (forks.length > 0) return forks;
      }
      if (ins === undefined) {
        if (s.finishedHotplug === true) return 'done';
        if (s.saved.length > 0) {
          this.handlerReturns(s);
          continue;
        }
        // The thread is done: it hands its CPU on, where others may run after it.
        if (this.chainOf(s.cpu) >= 0) this.endTurn(s);
        if (this.plan.hotplug !== undefined) return this.deadReturned(s);
        return 'done';
      }
      s.decided = false;
      if (ins.tally !== 0) addTally(s, BigInt(ins.tally));
      if (++s.steps > MAX_STEPS)
        throw new AxiomaticRefusal(
          `${this.m.programs[s.ctx]?.name ?? 'a thread'} ran ${MAX_STEPS} instructions without ending: a loop that reads no memory never ends`,
        );
      const fork = this.step(s, ins);
      if (fork !== null) return fork;
    }
  }

  /** A step that is not an instruction (Phase): what advance() returns, or null to go on. */
  private phaseStep(s: RunState): Outcome | null {
    const phase = s.phase;
    s.phase = null;
    switch (phase) {
      case 'none':
        return 'done';
      case 'begin': {
        // A handler on an idle CPU, or a CPU's offline, may also never happen: the empty run,
        // which spends nothing of the bounds and handles no interrupt.
        const none = clone(s);
        none.phase = 'none';
        none.spent = { ...NOTHING_SPENT };
        none.handled = new Map();
        if (this.plan.hotplug !== undefined) s.phase = 'offline';
        else if (this.chainOf(this.plan.cpu) >= 0) s.starting = this.plan.cpu;
        return [none, s];
      }
      case 'offline':
        return this.offline(s, this.plan.hotplug?.control ?? 0);
      case 'back?':
        return this.backOnline(s);
      default:
        return null;
    }
  }

  /**
   * What may happen at this boundary besides the next instruction, each as a fork, and the
   * run going on as the last fork; none when nothing may happen (the run goes on as it is).
   */
  private boundary(s: RunState): RunState[] {
    const out: RunState[] = [];
    const { bounds } = this.scheduling;
    const k = s.cpu;
    const irq = this.m.irqCtx[k] ?? -1;
    const nmi = this.m.nmiCtx[k] ?? -1;
    // What the boundary before offered with the same events made (RunState.offered).
    const o = s.offered;
    const again = o !== null && o.events === s.events.length;
    const repeated = (kind: number): boolean =>
      again && (o.kinds & kind) !== 0 && (kind !== Offer.Migrate || !o.cpuRead);
    let kinds = 0;
    if (
      irq >= 0 &&
      s.irqOn &&
      !s.inIrq &&
      !s.inNmi &&
      s.spent.irqs < bounds.irqs &&
      !repeated(Offer.Irq)
    ) {
      const t = clone(s);
      t.offered = null;
      this.interrupt(t, irq, 'irq');
      out.push(t);
      kinds |= Offer.Irq;
    }
    if (nmi >= 0 && !s.inNmi && s.spent.nmis < bounds.nmis && !repeated(Offer.Nmi)) {
      const t = clone(s);
      t.offered = null;
      this.interrupt(t, nmi, 'nmi');
      out.push(t);
      kinds |= Offer.Nmi;
    }
    // The scheduler takes a task only where it may: not in a handler, preemption and
    // interrupts on, and a context switch on this CPU's chain.
    const task = s.saved.length === 0 && this.plan.idle === undefined;
    const schedulable = task && s.preempt === 0 && s.irqOn && this.chainOf(k) >= 0;
    if (
      schedulable &&
      this.scheduling.shared[k] === true &&
      s.spent.preemptions < bounds.preemptions &&
      s.pc < this.codeOf(s.ctx).code.length &&
      !repeated(Offer.Preempt)
    ) {
      const t = clone(s);
      t.spent.preemptions++;
      this.endTurn(t);
      t.starting = k;
      out.push(t);
      kinds |= Offer.Preempt;
    }
    if (schedulable && s.spent.migrations < bounds.migrations && !repeated(Offer.Migrate))
      for (let j = 0; j < this.m.cpus; j++) {
        if (j === k || this.chainOf(j) < 0) continue;
        const t = clone(s);
        t.spent.migrations++;
        this.endTurn(t);
        t.cpu = j;
        t.starting = j;
        out.push(t);
        kinds |= Offer.Migrate;
      }
    if (out.length === 0) return out;
    s.decided = true;
    s.offered = {
      kinds: kinds | (again ? o.kinds : 0),
      events: s.events.length,
      cpuRead: (kinds & Offer.Migrate) === 0 && again && o.cpuRead,
    };
    out.push(s);
    return out;
  }

  /**
   * CPU k goes offline (kernel/cpu.c, _cpu_down): it is taken from its chain for good (its last
   * turn has ended; no turn may begin after), set in cpu_dying_mask, cleared from
   * cpu_online_mask, and its dead callbacks start as a task on the control CPU. The hotplug
   * state machine waits on completions between the steps: full barriers here.
   */
  private offline(s: RunState, control: number): Outcome {
    const k = this.plan.cpu;
    const hp = this.m.hotplug;
    if (!hp) return 'dead';
    s.spent.hotplugs = 1;
    const bit = 1n << BigInt(k);
    // Set dying (cpuhp_set_state), then, a stop_machine() later, out of the online mask
    // (take_cpu_down): a full barrier between, as between every step here.
    const masks = (t: RunState): boolean => {
      this.maskRmw(
        t,
        hp.dying,
        (v) => v | bit,
        (u) => {
          // stop_machine(): it runs on every CPU with interrupts off, so it waits for every
          // CPU's non-preemptible region, as a grace period does (noteQuiet).
          this.fence(u, -1, Tag.SyncRcu, -1);
          this.maskRmw(
            u,
            hp.online,
            (v) => v & ~bit,
            (w) => {
              this.maskRmw(
                w,
                hp.count,
                (v) => v + 1n,
                (x) => {
                  this.fence(x, -1, Tag.SyncRcu, -1);
                  this.fence(x, -1, Tag.Mb, -1);
                  // The callbacks run on the control CPU, in a turn of its own where others run.
                  x.cpu = control;
                  if (this.chainOf(control) >= 0) x.starting = control;
                  return true;
                },
              );
              return true;
            },
          );
          return true;
        },
      );
      return true;
    };
    const chain = this.chainOf(k);
    if (chain < 0) {
      this.fence(s, -1, Tag.Mb, -1);
      masks(s);
      return 'read';
    }
    // The CPU's last turn: the offline reads the token it handed on (or the chain's start, if
    // no turn ever ran there) and writes one no turn can begin from.
    const tags = Tag.Acquire | Tag.Rmw;
    return this.readFork(s, chain, 32, tags, (t, v) => {
      if (v < 0n || (v === 0n && this.scheduling.occupied[k] === true)) return false;
      this.rmwEvents(t, chain, v, -turnToken(this.plan.index, 0), tags);
      this.fence(t, -1, Tag.Mb, -1);
      return masks(t);
    });
  }

  /**
   * The dead callbacks returned: CPU k is dead and leaves cpu_dying_mask. With a second hotplug
   * in the bounds it may come back (phase `back?`).
   */
  private deadReturned(s: RunState): Outcome {
    const hp = this.m.hotplug;
    const plan = this.plan.hotplug;
    if (!hp || !plan) return 'done';
    const bit = 1n << BigInt(this.plan.cpu);
    this.fence(s, -1, Tag.Mb, -1);
    return this.maskRmw(
      s,
      hp.dying,
      (v) => v & ~bit,
      (t) => {
        if (!plan.online || this.scheduling.bounds.hotplugs < 2) this.over(t);
        else t.phase = 'back?';
        return true;
      },
    );
  }

  /**
   * The dead CPU stays dead, or comes back online, one more hotplug: set in cpu_online_mask
   * again, its chain free for a turn.
   */
  private backOnline(s: RunState): Outcome {
    const hp = this.m.hotplug;
    if (!hp) return 'done';
    const k = this.plan.cpu;
    const bit = 1n << BigInt(k);
    const stay = clone(s);
    this.over(stay);
    s.spent.hotplugs++;
    this.maskRmw(
      s,
      hp.online,
      (v) => v | bit,
      (u) => {
        this.maskRmw(
          u,
          hp.count,
          (v) => v + 1n,
          (x) => {
            if (this.chainOf(k) >= 0) {
              x.cpu = k;
              this.endTurn(x);
            }
            this.over(x);
            return true;
          },
        );
        return true;
      },
    );
    return [stay, s];
  }

  /** The hotplug thread is over: nothing is left to run in it (the callbacks' context, at its end). */
  private over(x: RunState): void {
    x.ctx = this.plan.ctx;
    x.pc = this.codeOf(x.ctx).code.length;
    x.decided = true;
    x.finishedHotplug = true;
  }

  /**
   * An atomic read-modify-write of a hotplug word (set_bit and friends: no ordering of its
   * own); `next` goes on from it (and may leave the run waiting at its next read).
   */
  private maskRmw(
    s: RunState,
    loc: number,
    f: (v: bigint) => bigint,
    next: (t: RunState) => boolean,
  ): 'read' {
    const tags = Tag.Once | Tag.Rmw;
    return this.readFork(s, loc, 32, tags, (t, v) => {
      this.rmwEvents(t, loc, v, atWidth(f(v), 32), tags);
      return next(t);
    });
  }

  /**
   * Where the CPU goes from preemptible to not (preempt_disable(), interrupts off, a handler) or
   * back, an RCU-sched read-side critical section begins or ends: the fences rcu_read_lock()
   * and rcu_read_unlock() make, which the model's grace periods wait for.
   */
  private noteQuiet(s: RunState): void {
    const quiet = s.preempt > 0 || !s.irqOn || s.inIrq || s.inNmi;
    if (quiet === (s.quiet === true)) return;
    this.fence(s, -1, quiet ? Tag.RcuLock : Tag.RcuUnlock, -1);
    s.quiet = quiet;
  }

  /** A handler takes the CPU at this boundary: the interrupted frame waits for it. */
  private interrupt(s: RunState, ctx: number, kind: 'irq' | 'nmi'): void {
    s.saved.push({
      ctx: s.ctx,
      pc: s.pc,
      regs: s.regs,
      deps: s.deps,
      scopes: s.scopes,
      loops: s.loops,
      irqOn: s.irqOn,
      inIrq: s.inIrq,
      inNmi: s.inNmi,
    });
    Object.assign(s, freshFrame(this.m, ctx));
    const n = s.handled.get(s.cpu) ?? [0, 0];
    if (kind === 'irq') {
      s.spent.irqs++;
      s.inIrq = true;
      n[0]++;
    } else {
      s.spent.nmis++;
      s.inNmi = true;
      n[1]++;
    }
    s.handled.set(s.cpu, n);
    s.irqOn = false;
    s.decided = false;
  }

  /** The running handler returns: its registers are kept, the interrupted frame goes on. */
  private handlerReturns(s: RunState): void {
    s.finals.set(s.ctx, s.regs);
    const f = s.saved.pop() as Saved;
    s.ctx = f.ctx;
    s.pc = f.pc;
    // Copies: a run forked while the handler ran holds the same saved frame (clone() copies the
    // stack, not its frames), and must find it as it was when its own handler returns.
    s.regs = f.regs.slice();
    s.deps = f.deps.slice();
    s.scopes = f.scopes.slice();
    s.loops = new Map(f.loops);
    s.irqOn = f.irqOn;
    s.inIrq = f.inIrq;
    s.inNmi = f.inNmi;
    // Back at the boundary where it was interrupted: something else may happen there too.
    s.decided = false;
  }

  /**
   * The thread takes CPU k's chain: a read-modify-write with acquire that reads the token the
   * CPU's previous turn handed on (or the chain's start, for the first turn on the CPU) and
   * writes its own, then a full barrier. It goes on from the tokens it may read.
   */
  private startTurn(s: RunState, k: number): 'read' {
    const loc = this.chainOf(k);
    const { index } = this.plan;
    const firstOnCpu =
      !this.scheduling.occupied[k] ||
      (this.plan.current && s.segments === 0 && k === this.plan.cpu);
    s.starting = -1;
    const tags = Tag.Acquire | Tag.Rmw;
    return this.readFork(s, loc, 32, tags, (t, v) => {
      if (v === 0n ? !firstOnCpu : v < 0n || tokenThread(v) === index) return false;
      this.rmwEvents(t, loc, v, -turnToken(index, t.segments), tags);
      this.fence(t, -1, Tag.Mb, -1);
      t.decided = false;
      return true;
    });
  }

  /**
   * A read-modify-write the machine makes (a chain's turn, a hotplug word): its read of `old` and
   * its write of `next`, joined as an RMW, at 32 bits, of no instruction and no dependency.
   */
  private rmwEvents(t: RunState, loc: number, old: bigint, next: bigint, tags: number): void {
    const plain = { loc, tags, pc: -1, width: 32, addr: [], data: [] };
    const r = this.emit(t, { ...plain, dir: 'R', value: old, rmwRead: -1 });
    this.emit(t, { ...plain, dir: 'W', value: next, rmwRead: r });
  }

  /** The thread hands its CPU's chain on: a full barrier, then a release write of its token. */
  private endTurn(s: RunState): void {
    this.fence(s, -1, Tag.Mb, -1);
    this.emit(s, {
      dir: 'W',
      loc: this.chainOf(s.cpu),
      value: turnToken(this.plan.index, s.segments),
      tags: Tag.Release,
      pc: -1,
      width: 32,
      addr: [],
      data: [],
      rmwRead: -1,
    });
    s.segments++;
  }

  /** Adds an event to the run, controlled by the open branches; returns its index. */
  private emit(s: RunState, e: Omit<ThreadEvent, 'ctrl'>): number {
    s.events.push({ ...e, ctrl: ctrlDeps(s), ctx: s.ctx });
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
        a = ins.base + s.cpu * ins.stride;
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
        countRetry(s, ins);
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
        return this.loadHalf(s, ins);
      case Op.StoreLo:
      case Op.StoreHi:
        return this.storeHalf(s, ins);
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
        setReg(s, ins.dst, BigInt(POINTER_BASE + ins.base + s.cpu * ins.stride), []);
        if (s.offered) s.offered.cpuRead = true;
        break;
      case Op.CpuId:
        setReg(s, ins.dst, BigInt(s.cpu), []);
        if (s.offered) s.offered.cpuRead = true;
        break;
      case Op.IrqSave:
        setReg(s, ins.dst, s.irqOn ? 1n : 0n, []);
        s.irqOn = false;
        break;
      case Op.IrqRestore:
        s.irqOn = reg(s, ins.src) !== 0n;
        break;
      case Op.IrqEnable:
        s.irqOn = true;
        break;
      case Op.IrqDisable:
        s.irqOn = false;
        break;
      case Op.PreemptDisable:
        s.preempt++;
        break;
      case Op.PreemptEnable:
        if (s.preempt === 0) return 'dead'; // preempt_count would go negative: the machine faults
        s.preempt--;
        break;
      case Op.Record:
        s.records.push([ins.base, ins.stride, reg(s, ins.src)]);
        break;
      case Op.Tally:
        addTally(s, right(s, ins));
        break;
      // The exact total at a moment (RecordTotal): the kernel's model has no moments, so nothing
      // is recorded (the invariants that read it are not judged under it: judge.ts).
      case Op.Pause:
      case Op.RecordTotal:
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
    if (deps.length > 0) s.scopes.push({ deps, until: this.codeOf(s.ctx).join[pc] as number });
    if (condHolds(ins.cond, reg(s, ins.src), right(s, ins))) {
      countRetry(s, ins);
      return this.jump(s, ins.target);
    }
    s.pc = pc + 1;
    return null;
  }

  /** A jump to `target`; a jump back is a loop's turn, and past the bound it cuts the run. */
  private jump(s: RunState, target: number): Stepped {
    if (target <= s.pc && !this.loopTurn(s, target)) return 'cut';
    s.pc = target;
    return null;
  }

  /** Stops the run at a read of `loc`: `then` makes its events once it has a value. */
  private readFork(
    s: RunState,
    loc: number,
    width: number,
    tags: number,
    then: (t: RunState, v: bigint) => boolean,
  ): 'read' {
    s.read = { loc, width, tags, then };
    return 'read';
  }

  /** A load: one run per value it may read (spin_is_locked(): locked, or not). */
  private load(s: RunState, ins: Instr): Stepped {
    const pc = s.pc;
    const a = this.address(s, ins);
    if (a === null) return 'dead';
    const ad = this.addrDeps(s, ins);
    s.pc = pc + 1;
    if (ins.tag & (Tag.Rl | Tag.Ru)) {
      // spin_is_locked(): locked (RL) or not (RU), by the lock word when reads read it,
      // else both.
      const is = (c: RunState, t: number): RunState => {
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
      };
      if (this.options.lockReads === true)
        return this.readFork(s, a, 32, Tag.Rl, (t, v) => {
          is(t, v !== 0n ? Tag.Rl : Tag.Ru);
          return true;
        });
      return [Tag.Rl, Tag.Ru].map((t) => is(clone(s), t));
    }
    return this.readFork(s, a, ins.width, ins.tag, (t, v) => {
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

  /**
   * Half of a 64-bit load on a 32-bit machine: a 32-bit read of the low word (at the address)
   * or the high word (the next), into that half of the register. The two halves are two reads,
   * each of its own word, which is what lets a read tear.
   */
  private loadHalf(s: RunState, ins: Instr): Stepped {
    const pc = s.pc;
    const base = this.address(s, ins);
    if (base === null) return 'dead';
    const hi = ins.op === Op.LoadHi;
    const a = base + (hi ? 1 : 0);
    const ad = this.addrDeps(s, ins);
    s.pc = pc + 1;
    return this.readFork(s, a, 32, ins.tag, (t, v) => {
      const i = this.emit(t, {
        dir: 'R',
        loc: a,
        value: v,
        tags: ins.tag,
        pc,
        width: 32,
        addr: ad,
        data: [],
        rmwRead: -1,
      });
      const old = reg(t, ins.dst);
      const word = BigInt.asUintN(32, v);
      const next = hi ? BigInt.asUintN(32, old) | (word << 32n) : ((old >> 32n) << 32n) | word;
      setReg(t, ins.dst, next, union(regDeps(t, ins.dst), [i]));
      return true;
    });
  }

  /** Half of a 64-bit store on a 32-bit machine: a 32-bit write of the register's low or high word. */
  private storeHalf(s: RunState, ins: Instr): Stepped {
    const base = this.address(s, ins);
    if (base === null) return 'dead';
    const hi = ins.op === Op.StoreHi;
    const v = reg(s, ins.src);
    this.emit(s, {
      dir: 'W',
      loc: base + (hi ? 1 : 0),
      value: atWidth(hi ? v >> 32n : v, 32),
      tags: ins.tag,
      pc: s.pc,
      width: 32,
      addr: this.addrDeps(s, ins),
      data: regDeps(s, ins.src),
      rmwRead: -1,
    });
    s.pc++;
    return null;
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
    return this.readFork(s, a, ins.width, tags, (t, old) => {
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
    const reads = this.options.lockReads === true;
    if (ins.op === Op.SpinLock) {
      const take = (t: RunState): void => {
        this.lock(t, a, ad, pc);
        t.preempt++; // spin_lock() disables preemption until spin_unlock()
      };
      if (!reads) {
        take(s);
        return null;
      }
      // It spins until it reads the lock free (a held lock: the run cannot go on).
      return this.readFork(s, a, 32, Tag.Lkr, (t, v) => {
        if (v !== 0n) return false;
        take(t);
        return true;
      });
    }
    if (ins.op === Op.SpinUnlock) {
      s.preempt = Math.max(0, s.preempt - 1);
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
    const gets = (got: RunState): void => {
      this.lock(got, a, ad, pc);
      got.preempt++;
      setReg(got, ins.dst, 1n, [got.events.length - 1]);
    };
    const fails = (failed: RunState): void => {
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
    };
    if (reads)
      return this.readFork(s, a, 32, Tag.Lkr, (t, v) => {
        if (v === 0n) gets(t);
        else fails(t);
        return true;
      });
    const got = clone(s);
    gets(got);
    const failed = clone(s);
    fails(failed);
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
