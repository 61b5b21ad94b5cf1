// The percpu_counter scenarios' machine: the layout of `struct percpu_counter`, the programs of
// the adders, the summers and the reader, and the add skeleton the 2.6.39-style variants share.

import {
  abs,
  cpuOf,
  type ProgramBuilder,
  type Reg,
  thisCpu,
  ProgramBuilder as Builder,
} from '../../machine/builder.ts';
import { Cond, Kind, type Program } from '../../machine/isa.ts';
import {
  type Cell,
  LayoutBuilder,
  type PerCpuCell,
  type ResultSlot,
} from '../../machine/layout.ts';
import { compile, type Machine, type TaskSpec } from '../../machine/machine.ts';
import { intParam, listParam } from '../params.ts';
import type { BuildOptions, Listing, Params, ScenarioInstance } from '../types.ts';
import type { Roles } from './setup.ts';

/** The cells of `struct percpu_counter` plus the result slots of sum() and read(). */
export interface Counter {
  readonly L: LayoutBuilder;
  readonly count: Cell;
  readonly slots: PerCpuCell;
  /** Per summer: what its sums returned, and the exact total when each started and returned. */
  readonly sumOut: readonly ResultSlot[];
  readonly window: readonly ResultSlot[];
  readonly readOut: ResultSlot;
  /** With endless adders and a summer: the driver's count of finished summers, else null. */
  readonly stop: Cell | null;
}

/**
 * Declares fbc->count (s64) and the per-CPU s32 deltas; `extra` declares the variant's own cells
 * (a lock, a sequence…) first and returns them as `cells`.
 */
export function counterLayout<T>(
  p: Params,
  r: Roles,
  extra: (L: LayoutBuilder) => T,
  opts?: BuildOptions,
): Counter & { readonly cells: T } {
  const L = new LayoutBuilder(r.cpus, opts);
  const cells = extra(L);
  // With endless adders, the test driver's own flag: how many summers have finished. Adders stop
  // when every sum has returned, so a run (and an exploration) can end.
  const stop =
    r.forever && r.summers.length > 0 ? L.cell('done', 'sums done (driver)', 's32', 0) : null;
  const count = L.cell('count', 'fbc->count', 's64', intParam(p, 'count'));
  const slots = L.perCpu('slots', 'delta', 's32', listParam(p, 'slots'));
  return {
    cells,
    L,
    stop,
    count,
    slots,
    sumOut: r.summers.map((_, i) =>
      L.result(sumName(i), 'percpu_counter_sum()', Math.max(1, r.sums)),
    ),
    window: r.summers.map((_, i) =>
      L.result(`window${i + 1}`, 'exact total around sum()', Math.max(2, 2 * r.sums)),
    ),
    readOut: L.result('read', 'percpu_counter_read()', 1),
  };
}

/** Result slot name of summer i: "sum", then "sum2". */
export function sumName(i: number): string {
  return i === 0 ? 'sum' : `sum${i + 1}`;
}

/** Builds summer i's program: `sums` sums, each bracketed by the exact total for the verdict. */
export function summerProgram(
  c: Counter,
  r: Roles,
  i: number,
  wordBits: 32 | 64,
  sum: (b: ProgramBuilder, ret: Reg) => void,
): Program {
  const b = new Builder(`T${r.summers[i] ?? 0}`, { wordBits });
  const ret = b.reg('ret');
  const window = c.window[i] as ResultSlot;
  b.repeat(r.sums, () => {
    b.recordTotal(window);
    sum(b, ret);
    b.recordTotal(window).record(c.sumOut[i] as ResultSlot, ret);
  });
  if (c.stop) {
    b.line(0).atomicAdd(abs(c.stop), 1, {
      say: '(test driver) {who} has finished its sums: {new} done',
    });
  }
  return b.build();
}

/** The reader's program: one read(). */
export function readerProgram(
  c: Counter,
  r: Roles,
  wordBits: 32 | 64,
  read: (b: ProgramBuilder, ret: Reg) => void,
) {
  const b = new Builder(`T${r.reader}`, { wordBits });
  const ret = b.reg('ret');
  read(b, ret);
  b.record(c.readOut, ret);
  return b.build();
}

/** An adder's program: `adds` calls of `add(amount)`. */
export function adderProgram(
  k: number,
  r: Roles,
  wordBits: 32 | 64,
  add: (b: ProgramBuilder, amount: number) => void,
  stop: Cell | null = null,
): Program {
  const b = new Builder(`T${k}`, { wordBits });
  const amount = r.amounts[k] as number;
  if (r.forever && amount !== 0 && (r.adds[k] as number) > 0) {
    // +amount then −amount: the adder keeps overflowing, but the state it leaves stays bounded.
    // It stops once every sum has returned (if there are sums), so runs can end.
    const done = b.label();
    const flag = b.reg('done');
    b.forever(() => {
      if (stop) {
        b.line(0).load(flag, abs(stop), {
          say: '(test driver) {who} checks whether the sums are done: {v}',
        });
        b.branch(Cond.Ge, flag, r.summers.length, done);
      }
      add(b, amount);
      add(b, -amount);
    });
    b.bind(done);
  } else {
    b.repeat(r.adds[k] as number, () => {
      add(b, amount);
    });
  }
  return b.build();
}

/** One task per CPU: the summer, the reader, or an adder. */
export function tasksOf(
  c: Counter,
  r: Roles,
  wordBits: 32 | 64,
  code: {
    add: (b: ProgramBuilder, amount: number) => void;
    sum: (b: ProgramBuilder, ret: Reg) => void;
    read: (b: ProgramBuilder, ret: Reg) => void;
  },
): TaskSpec[] {
  const tasks: TaskSpec[] = [];
  for (let k = 0; k < r.cpus; k++) {
    const s = r.summers.indexOf(k);
    const program =
      s >= 0
        ? summerProgram(c, r, s, wordBits, code.sum)
        : k === r.reader
          ? readerProgram(c, r, wordBits, code.read)
          : adderProgram(k, r, wordBits, code.add, c.stop);
    tasks.push({ name: `T${k}`, cpu: k, program });
  }
  return tasks;
}

export function machineOf(
  c: Counter,
  r: Roles,
  wordBits: 32 | 64,
  tasks: TaskSpec[],
  irq?: (Program | null)[],
): Machine {
  return compile({ cpus: r.cpus, wordBits, layout: c.L.build(), tasks, ...(irq ? { irq } : {}) });
}

/** An entry's instance, for the entries without handlers: its 64-bit machine and its listing. */
export function instanceOf(
  p: Params,
  c: Counter,
  r: Roles,
  tasks: TaskSpec[],
  listing: Listing,
): ScenarioInstance {
  return { params: p, machine: machineOf(c, r, 64, tasks), listing };
}

/** `sum` loop body shared by the sums that read every CPU's delta: ret += slot[cpu] for each CPU. */
export function addEverySlot(
  b: ProgramBuilder,
  c: Counter,
  r: Roles,
  ret: Reg,
  line: number,
  name = ret.name,
): void {
  const i = b.reg('cpu');
  const v = b.reg('v');
  b.mov(i, 0);
  for (let k = 0; k < r.cpus; k++) {
    b.line(line)
      .load(v, cpuOf(c.slots, i), {
        say: `{who} adds CPU${k}'s delta {v} to ${name}: {r#${ret.index}}`,
      })
      .add(ret, ret, v)
      .add(i, i, 1);
  }
}

// ---- the add skeleton shared by the 2.6.39-style variants ----------------------------------

/**
 * count = __this_cpu_read(delta) + amount; then `slow(count)` when |count| >= batch, else the
 * fast-path __this_cpu_write(delta, count) (which completes the add: its tally).
 */
export function batchedAdd(
  b: ProgramBuilder,
  c: Counter,
  r: Roles,
  amount: number,
  lines: { read: number; test: number; fast: number },
  slow: (count: Reg) => void,
): void {
  const count = b.reg('count');
  b.line(lines.read)
    .load(count, thisCpu(c.slots), {
      say: `{who} reads {cell}: {v}, so count = {v} ${amount < 0 ? `− ${-amount}` : `+ ${amount}`} = {r#${count.index}}`,
    })
    .add(count, count, amount);
  b.line(lines.test).ifThen(
    Cond.AbsGe,
    count,
    r.batch,
    () => {
      slow(count);
    },
    () => {
      b.line(lines.fast).store(thisCpu(c.slots), count, { tally: amount });
    },
  );
}

/** spin_lock(&fbc->lock); fbc->count += count (a load and a store under the lock). */
export function lockedFold(
  b: ProgramBuilder,
  c: Counter,
  r: Roles,
  lock: Cell,
  count: Reg,
  lines: { lock: number; fold: number },
): void {
  const g = b.reg('global');
  b.line(lines.lock).spinLock(lock, {
    kind: Kind.Overflow,
    say: `{cpu}'s delta reaches ±${r.batch}: {who} takes {cell} to fold it`,
    saySpin: `{cpu}'s delta reaches ±${r.batch} (count = {r#${count.index}}) and must be folded`,
  });
  b.line(lines.fold).load(g, abs(c.count)).add(g, g, count).store(abs(c.count), g, {
    kind: Kind.Fold,
    say: '{who} folds {r:count} into fbc->count: {new}',
  });
}

/** atomic64_add(count, &fbc->count): the lockless fold. */
export function atomicFold(b: ProgramBuilder, c: Counter, count: Reg, line: number): void {
  b.line(line).atomicAdd(abs(c.count), count, {
    kind: Kind.Fold,
    say: '{who} folds {v} into fbc->count with atomic64_add: {new}',
  });
}

/** __this_cpu_write(delta, 0) after a fold (2.6.39 style); it completes the add. */
export function resetDelta(b: ProgramBuilder, c: Counter, amount: number, line: number): void {
  const zero = b.reg('zero');
  b.line(line).mov(zero, 0).store(thisCpu(c.slots), zero, { tally: amount });
}
