// A machine: the compiled form of a scenario instance (CPUs, memory layout, tasks, handlers) and
// the layout of its state vector.
//
// The whole state is ONE Int32Array: memory, then per-CPU scheduling state, then (under x86-TSO)
// each CPU's store buffer, then one record per context (task or handler), then the results region. Copy is `slice()`, equality is a word loop
// and the hash runs over the words, which is what exploration and time travel need to be fast.

import { type Instr, isLocal, Op, type Program } from './isa.ts';
import { type Layout, wholeLines } from './layout.ts';

/**
 * The words of a CPU's record and of a context's record, in layout order, each with what it
 * holds in people's words: the offsets below and the names `wordName` gives come from here.
 */
export const CPU_WORDS = [
  ['CUR', 'running task'], // index of the running task context, or −1 when idle
  ['PREEMPT', 'preempt_count'],
  ['IRQ_ON', 'interrupts on'], // enabled (1) or disabled (0)
  ['PENDING', 'pending IRQ'], // an IRQ raised while interrupts were off
  ['IN_IRQ', 'in IRQ handler'],
  ['IN_NMI', 'in NMI handler'],
  ['NMI_SAVED', 'saved interrupt flag'], // to restore when the NMI handler returns
  ['IRQS', 'IRQs taken'],
  ['NMIS', 'NMIs taken'],
  // Unfinished tasks on this CPU, running or waiting (kept so legality checks are O(1)).
  ['TASKS', 'tasks on the runqueue'],
] as const;
export const CTX_WORDS = [
  ['PC', 'pc'],
  ['CPU', 'CPU'], // the CPU the context is on (tasks migrate; handlers stay)
  ['DONE', 'finished'], // tasks: finished
  ['TALLY', 'tally (low word)'], // 64-bit: what this context has added
  ['TALLY_HI', 'tally (high word)'],
  ['RETRIES', 'retries'], // sum retries taken
] as const;

type Offsets<T extends readonly (readonly [string, string])[]> = { [K in T[number][0]]: number };

function offsets<T extends readonly (readonly [string, string])[]>(table: T): Offsets<T> {
  return Object.fromEntries(table.map(([key], i) => [key, i])) as Offsets<T>;
}

const CPU = offsets(CPU_WORDS);
const CTX = offsets(CTX_WORDS);

/** Per-CPU fields: add to cpuBase(m, k). */
export const CPU_CUR = CPU.CUR;
export const CPU_PREEMPT = CPU.PREEMPT;
export const CPU_IRQ_ON = CPU.IRQ_ON;
export const CPU_PENDING = CPU.PENDING;
export const CPU_IN_IRQ = CPU.IN_IRQ;
export const CPU_IN_NMI = CPU.IN_NMI;
export const CPU_NMI_SAVED = CPU.NMI_SAVED;
export const CPU_IRQS = CPU.IRQS;
export const CPU_NMIS = CPU.NMIS;
export const CPU_TASKS = CPU.TASKS;
export const CPU_FIELDS = CPU_WORDS.length;

/** Per-context fields: add to ctxBase(m, c); registers follow as (lo, hi) pairs. */
export const CTX_PC = CTX.PC;
export const CTX_CPU = CTX.CPU;
export const CTX_DONE = CTX.DONE;
export const CTX_TALLY = CTX.TALLY; // lo here, hi at CTX_TALLY + 1
export const CTX_RETRIES = CTX.RETRIES;
export const CTX_REGS = CTX_WORDS.length;

/**
 * Dead: the CPU hotplug dead callbacks for one CPU (a `DEADk()` handler). It is a task that
 * exists only while CPU k goes offline: `offline k` starts it on a surviving CPU, and when it
 * finishes, CPU k stops being dying (`offline` in hotplug.ts, `finish` in
 * interpreter.ts).
 */
export const CtxKind = { Task: 0, Irq: 1, Nmi: 2, Dead: 3 } as const;

/**
 * The memory model a machine runs under: `sc`, sequential consistency (every store is seen by
 * every CPU at once), or `tso`, x86-TSO (Sewell et al., CACM 53(7), 2010): each CPU's stores wait
 * in a FIFO store buffer until a flush writes the oldest to memory (src/machine/tso.ts).
 */
export type MemoryModel = 'sc' | 'tso';
export const MEMORY_MODELS: readonly MemoryModel[] = ['sc', 'tso'];

/**
 * Entries in each CPU's store buffer under TSO. A store that finds it full first writes the
 * oldest entry to memory, as hardware stalls until one drains; so every behaviour with at most
 * this many stores waiting per CPU is explored. Real x86 cores hold 40 to 70.
 */
export const SB_DEPTH = 4;
/** Words of one buffer entry: word address, width in words (1 or 2), low word, high word. */
export const SB_ENTRY = 4;

export interface TaskSpec {
  readonly name: string;
  /** The CPU the task starts on. */
  readonly cpu: number;
  readonly program: Program;
}

export interface MachineSpec {
  readonly cpus: number;
  /** 32: plain 64-bit loads and stores take two steps. */
  readonly wordBits: 32 | 64;
  readonly layout: Layout;
  readonly tasks: readonly TaskSpec[];
  /** IRQ handler per CPU (null: no IRQ on that CPU). Missing entries mean none. */
  readonly irq?: readonly (Program | null)[];
  /** NMI handler per CPU. */
  readonly nmi?: readonly (Program | null)[];
  /** `sc` when absent. */
  readonly memory?: MemoryModel;
  /** CPU hotplug: where the masks live, and each CPU's dead callbacks. Absent: no hotplug. */
  readonly hotplug?: HotplugSpec;
}

/**
 * CPU hotplug's words in memory (word addresses) and the dead callbacks per CPU (null: that CPU
 * never goes offline). The masks hold one bit per CPU, so a hotplug machine has at most 32 CPUs.
 */
export interface HotplugSpec {
  /** cpu_online_mask: all CPUs at the start. */
  readonly online: number;
  /** cpu_dying_mask: set from `offline k` until CPU k's dead callbacks return. */
  readonly dying: number;
  /** Hotplug events taken (offline and online), which Explore's bound counts. */
  readonly count: number;
  readonly dead: readonly (Program | null)[];
}

export interface Machine {
  readonly spec: MachineSpec;
  readonly cpus: number;
  readonly layout: Layout;
  readonly tasks: number;
  readonly contexts: number;
  /** Program of each context. */
  readonly code: readonly (readonly Instr[])[];
  readonly programs: readonly Program[];
  readonly ctxKind: readonly number[];
  /** Handler contexts: the CPU they belong to; tasks: their starting CPU. */
  readonly ctxHome: readonly number[];
  /** Context index of each CPU's IRQ / NMI handler, or −1. */
  readonly irqCtx: Int32Array;
  readonly nmiCtx: Int32Array;
  /** Context index of each CPU's dead callbacks (a task that offline starts), or −1. */
  readonly deadCtx: Int32Array;
  /** The hotplug words, or null on a machine without hotplug. */
  readonly hotplug: {
    readonly online: number;
    readonly dying: number;
    readonly count: number;
  } | null;
  readonly memWords: number;
  readonly cpuOff: number;
  /** Under TSO: true, and each CPU's store buffer at sbOff + k × sbStride (count, then entries). */
  readonly tso: boolean;
  readonly sbOff: number;
  /** Words per CPU's store buffer: 0 on a sequentially consistent machine. */
  readonly sbStride: number;
  readonly ctxOff: number;
  readonly ctxStride: number;
  readonly resOff: number;
  readonly size: number;
}

/** Compiles a spec; checks what would otherwise fail obscurely at run time. */
export function compile(spec: MachineSpec): Machine {
  const { cpus, layout, tasks } = spec;
  if (!Number.isInteger(cpus) || cpus < 1 || cpus > 255) {
    throw new Error(`a machine has 1 to 255 CPUs, not ${cpus}`);
  }
  const programs: Program[] = [];
  const ctxKind: number[] = [];
  const ctxHome: number[] = [];
  /** Adds a context of `kind` running `program`, at home on CPU `home`; returns its index. */
  const addContext = (program: Program, kind: number, home: number): number => {
    programs.push(program);
    ctxKind.push(kind);
    ctxHome.push(home);
    return programs.length - 1;
  };
  for (const t of tasks) {
    if (t.cpu < 0 || t.cpu >= cpus)
      throw new Error(`task ${t.name} starts on missing CPU ${t.cpu}`);
    addContext(t.program, CtxKind.Task, t.cpu);
  }
  // Dead callbacks are tasks (after the others, so contexts below m.tasks are all tasks): they
  // run on a runqueue, can be preempted and spin on a lock like any task.
  const deadCtx = new Int32Array(cpus).fill(-1);
  const hp = spec.hotplug;
  if (hp) {
    if (cpus > 32) throw new Error(`a machine with CPU hotplug has at most 32 CPUs, not ${cpus}`);
    for (let k = 0; k < cpus; k++) {
      const dead = hp.dead[k];
      if (dead) deadCtx[k] = addContext(dead, CtxKind.Dead, k);
    }
  }
  const taskCount = programs.length;
  const irqCtx = new Int32Array(cpus).fill(-1);
  const nmiCtx = new Int32Array(cpus).fill(-1);
  for (let k = 0; k < cpus; k++) {
    const irq = spec.irq?.[k];
    if (irq) irqCtx[k] = addContext(irq, CtxKind.Irq, k);
    const nmi = spec.nmi?.[k];
    if (nmi) nmiCtx[k] = addContext(nmi, CtxKind.Nmi, k);
  }
  for (const p of programs) checkProgram(p);
  const regs = Math.max(0, ...programs.map((p) => p.regNames.length));
  const memWords = layout.memWords;
  const cpuOff = memWords;
  // Padded (live workers): every context record on lines of its own, since the CPU running it
  // writes its pc and registers at every step and two CPUs must not share those lines.
  const line = (n: number) => (layout.lines ? wholeLines(n) : n);
  const tso = spec.memory === 'tso';
  const sbOff = cpuOff + cpus * CPU_FIELDS;
  const sbStride = tso ? 1 + SB_DEPTH * SB_ENTRY : 0;
  const ctxOff = line(sbOff + cpus * sbStride);
  const ctxStride = line(CTX_REGS + 2 * regs);
  const resOff = line(ctxOff + programs.length * ctxStride);
  // `| 0`: parameters parsed from text arrive as doubles (V8 heap numbers), and a machine whose
  // sizes are doubles makes every index computed from them floating-point arithmetic in the
  // interpreter and the explorer. As int32 values they stay small integers.
  return {
    spec,
    cpus: cpus | 0,
    layout,
    tasks: taskCount,
    contexts: programs.length,
    // With no store buffer, smp_mb() has nothing to drain: it takes no step (a local no-op),
    // so a sequentially consistent run of a program with barriers is the run it always was.
    code: programs.map((p) =>
      tso ? p.instrs : p.instrs.map((i) => (i.op === Op.Fence ? { ...i, op: Op.NoFence } : i)),
    ),
    programs,
    ctxKind,
    ctxHome,
    irqCtx,
    nmiCtx,
    deadCtx,
    hotplug: hp ? { online: hp.online | 0, dying: hp.dying | 0, count: hp.count | 0 } : null,
    memWords: memWords | 0,
    cpuOff: cpuOff | 0,
    tso,
    sbOff: sbOff | 0,
    sbStride: sbStride | 0,
    ctxOff: ctxOff | 0,
    ctxStride: ctxStride | 0,
    resOff: resOff | 0,
    size: (resOff + layout.resultWords) | 0,
  };
}

function checkProgram(p: Program): void {
  p.instrs.forEach((ins, pc) => {
    if (ins.target >= 0 && ins.target > p.instrs.length) {
      throw new Error(`${p.name}: instruction ${pc} jumps outside the program`);
    }
    if (ins.tail && (pc === 0 || isLocal(ins.op))) {
      throw new Error(`${p.name}: instruction ${pc} is a local-atomic tail without a head`);
    }
  });
}

/** Where CPU k's fields start in a state: add CPU_CUR, CPU_PREEMPT… */
export function cpuBase(m: Machine, k: number): number {
  return m.cpuOff + k * CPU_FIELDS;
}

/** Where CPU k's store buffer starts (its entry count; entries follow, oldest first). */
export function sbBase(m: Machine, k: number): number {
  return m.sbOff + k * m.sbStride;
}

/** Where context c's record starts in a state: add CTX_PC, CTX_DONE, CTX_REGS… */
export function ctxBase(m: Machine, c: number): number {
  return m.ctxOff + c * m.ctxStride;
}

/** Display name of a context: "CPU1", "CPU1's IRQ handler", "task T2". */
export function contextName(m: Machine, c: number): string {
  const kind = m.ctxKind[c];
  const home = m.ctxHome[c] ?? 0;
  if (kind === CtxKind.Irq) return `CPU${home}'s IRQ handler`;
  if (kind === CtxKind.Nmi) return `CPU${home}'s NMI handler`;
  if (kind === CtxKind.Dead) return `CPU${home}'s dead callbacks`;
  return m.spec.tasks[c]?.name ?? `T${c}`;
}
