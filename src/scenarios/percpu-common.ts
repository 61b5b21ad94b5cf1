// What the percpu_counter scenarios share: the roles of the CPUs (adders, a summer, a reader),
// their parameters, the layout of `struct percpu_counter`, and the observables and invariants
// every variant is judged by.

import { abs, cpuOf, type ProgramBuilder, type Reg, thisCpu } from '../machine/builder.ts';
import { Cond, Kind } from '../machine/isa.ts';
import { type Cell, LayoutBuilder, type PerCpuCell, type ResultSlot } from '../machine/layout.ts';
import type { Program } from '../machine/isa.ts';
import { compile, type Machine, type TaskSpec } from '../machine/machine.ts';
import { ProgramBuilder as Builder } from '../machine/builder.ts';
import {
  distance,
  plus,
  readCell,
  readPerCpu,
  readResults,
  totalRetries,
  totalTally,
} from './observe.ts';
import { intParam, listParam, ParamError } from './params.ts';
import type {
  BuildOptions,
  ChoiceParam,
  InvariantSpec,
  ObservableSpec,
  ParamSpec,
  Params,
  Preset,
  Value,
} from './types.ts';

export const PERCPU_2011 = '2011 percpu_counter scalability threads';

export const kernelPreset: Preset = {
  description: 'the kernel batch: max(32, 2 × cpus)',
  apply: (p) => ({ batch: Math.max(32, 2 * intParam(p, 'cpus')) }),
};

/**
 * Parameters of every percpu_counter scenario, plus `extra`; `defaults` overrides the default
 * value of the common ones (a scenario whose point needs three CPUs, say).
 */
export function percpuParams(
  extra: readonly ParamSpec[] = [],
  defaults: Readonly<Record<string, number | readonly number[]>> = {},
): ParamSpec[] {
  const common: ParamSpec[] = [
    { name: 'cpus', kind: 'int', default: 2, min: 1, max: 64, description: 'Number of CPUs' },
    {
      name: 'batch',
      kind: 'int',
      default: 4,
      min: 1,
      max: 1_000_000_000,
      description: 'percpu_counter_batch: a CPU folds its delta into fbc->count at ±batch',
    },
    {
      name: 'adds',
      kind: 'list',
      default: [3],
      min: 0,
      max: 10_000,
      maxLength: 64,
      description:
        'How many adds each CPU makes, CPU0 first (the last value repeats; the summer and reader CPUs make none)',
    },
    {
      name: 'amounts',
      kind: 'list',
      default: [1],
      min: -1_000_000_000,
      max: 1_000_000_000,
      maxLength: 64,
      description:
        "The amount of each CPU's adds, CPU0 first (the last value repeats; 0: the CPU does not add)",
    },
    {
      name: 'summer',
      kind: 'int',
      default: 1,
      min: -1,
      max: 63,
      description: 'The CPU that calls percpu_counter_sum() (−1: none)',
    },
    {
      name: 'sums',
      kind: 'int',
      default: 1,
      min: 0,
      max: 100,
      description: 'How many sums it makes',
    },
    {
      name: 'reader',
      kind: 'int',
      default: -1,
      min: -1,
      max: 63,
      description: 'The CPU that calls percpu_counter_read() once (−1: none)',
    },
    {
      name: 'count',
      kind: 'int',
      default: 0,
      min: -Number.MAX_SAFE_INTEGER,
      max: Number.MAX_SAFE_INTEGER,
      description: 'Initial fbc->count',
    },
    {
      name: 'slots',
      kind: 'list',
      default: [],
      min: -2147483648,
      max: 2147483647,
      maxLength: 64,
      description: 'Initial per-CPU deltas, CPU0 first (missing ones are 0)',
    },
  ];
  common.push({
    name: 'adders',
    kind: 'choice',
    default: 'counted',
    choices: ['counted', 'forever'],
    description:
      'counted: each adder makes `adds` adds; forever: each adder adds +amount then −amount, forever (a bounded state space for livelock exploration)',
  });
  const withDefaults = common.map((spec): ParamSpec => {
    const d = defaults[spec.name];
    if (d === undefined) return spec;
    if (spec.kind === 'int' && typeof d === 'number') return { ...spec, default: d };
    if (spec.kind === 'list' && Array.isArray(d))
      return { ...spec, default: d as readonly number[] };
    throw new Error(`bad default for ${spec.name}`);
  });
  return [...withDefaults, ...extra];
}

/** A `variant` parameter. */
export function variantParam(
  choices: readonly string[],
  fallback: string,
  description: string,
): ChoiceParam {
  return { name: 'variant', kind: 'choice', default: fallback, choices, description };
}

/** Per-CPU value of a list parameter whose last entry repeats. */
function perCpu(list: readonly number[], k: number, fallback: number): number {
  if (list.length === 0) return fallback;
  return list[Math.min(k, list.length - 1)] as number;
}

export interface Roles {
  readonly cpus: number;
  readonly batch: number;
  /** CPUs that call percpu_counter_sum(): `summer`, and `summer2` where a scenario has one. */
  readonly summers: readonly number[];
  readonly reader: number;
  readonly sums: number;
  /** Per CPU: how many adds and of what amount (0 adds for the summer and the reader). */
  readonly adds: readonly number[];
  readonly amounts: readonly number[];
  /** Adders loop forever (+amount, −amount) instead of making `adds` adds. */
  readonly forever: boolean;
}

const rolesCache = new WeakMap<Params, Roles>();

/**
 * Who does what, checked against the machine size. Memoised per parameter object: invariants
 * ask for it at every state of an exploration.
 */
export function rolesOf(p: Params): Roles {
  const known = rolesCache.get(p);
  if (known) return known;
  const r = computeRoles(p);
  rolesCache.set(p, r);
  return r;
}

function computeRoles(p: Params): Roles {
  const cpus = intParam(p, 'cpus');
  const reader = intParam(p, 'reader');
  const summers: number[] = [];
  for (const name of ['summer', 'summer2']) {
    if (!(name in p)) continue;
    const k = intParam(p, name);
    if (k >= cpus) throw new ParamError(`${name} must be a CPU below ${cpus} (or −1), got ${k}`);
    if (k < 0) continue;
    if (summers.includes(k)) throw new ParamError('the two summers must be different CPUs');
    summers.push(k);
  }
  if (reader >= cpus)
    throw new ParamError(`reader must be a CPU below ${cpus} (or −1), got ${reader}`);
  if (reader >= 0 && summers.includes(reader)) {
    throw new ParamError('the reader and a summer must be different CPUs');
  }
  if (listParam(p, 'slots').length > cpus) {
    throw new ParamError(`slots has ${listParam(p, 'slots').length} values for ${cpus} CPUs`);
  }
  const limit = intParam(p, 'batch');
  const far = listParam(p, 'slots').find((v) => Math.abs(v) >= limit);
  if (far !== undefined) {
    throw new ParamError(
      `an initial delta must be within ±(batch − 1) = ±${limit - 1}, got ${far}`,
    );
  }
  const adds: number[] = [];
  const amounts: number[] = [];
  for (let k = 0; k < cpus; k++) {
    const busy = summers.includes(k) || k === reader;
    const amount = perCpu(listParam(p, 'amounts'), k, 1);
    amounts.push(amount);
    adds.push(busy || amount === 0 ? 0 : perCpu(listParam(p, 'adds'), k, 0));
  }
  return {
    cpus,
    batch: intParam(p, 'batch'),
    summers,
    reader,
    sums: intParam(p, 'sums'),
    adds,
    amounts,
    forever: 'adders' in p && p.adders === 'forever',
  };
}

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
function sumName(i: number): string {
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

// ---- the add skeleton shared by the 2.6.39-style variants -------------------------------------

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

// ---- observables ---------------------------------------------------------------------------

/** The exact total: initial count + initial deltas + everything every context added. */
export function exactValue(m: Machine, s: Int32Array, p: Params): number | bigint {
  const initial = listParam(p, 'slots').reduce<number | bigint>(
    (a, v) => plus(a, v),
    intParam(p, 'count'),
  );
  return plus(initial, totalTally(m, s));
}

export function percpuObservables(
  p: Params,
  extra: readonly ObservableSpec[] = [],
): ObservableSpec[] {
  const r = rolesOf(p);
  const out: ObservableSpec[] = [
    {
      name: 'count',
      description: 'fbc->count, the global part',
      read: (m, s) => readCell(m, s, 'count'),
    },
  ];
  for (let k = 0; k < r.cpus; k++) {
    out.push({
      name: `slot${k}`,
      description: `CPU${k}'s delta`,
      read: (m, s) => readPerCpu(m, s, 'slots')[k] ?? null,
    });
  }
  out.push({
    name: 'exact',
    description: 'The true total: initial value + every add',
    read: exactValue,
  });
  r.summers.forEach((k, i) => {
    const slot = sumName(i);
    out.push(
      r.sums === 1
        ? {
            name: slot,
            description: `What CPU${k}'s percpu_counter_sum() returned`,
            read: (m, s) => readResults(m, s, slot)[0] ?? null,
          }
        : {
            name: `${slot}s`,
            description: `What each of CPU${k}'s percpu_counter_sum() calls returned`,
            read: (m, s) => readResults(m, s, slot),
          },
    );
  });
  if (r.reader >= 0) {
    out.push({
      name: 'read',
      description: 'What percpu_counter_read() returned',
      read: (m, s) => readResults(m, s, 'read')[0] ?? null,
    });
  }
  out.push(...extra);
  return out;
}

export const retriesObservable: ObservableSpec = {
  name: 'retries',
  description: 'How many times sums started over',
  read: (m, s) => totalRetries(m, s),
};

// ---- invariants ------------------------------------------------------------------------------

const str = (v: Value | undefined) => String(v);

/** Nothing lost: count + every delta (+ slowcount where it exists) = exact, once all is done. */
export function noLostUpdate(parts: readonly string[] = []): InvariantSpec {
  const what = ['count', 'the deltas', ...parts].join(' + ');
  return {
    id: 'no-lost-update',
    when: 'final',
    description: `Every add is counted: ${what} = exact`,
    final: (o, p) => {
      let total: number | bigint = o.count as number;
      for (let k = 0; k < intParam(p, 'cpus'); k++) total = plus(total, o[`slot${k}`] as number);
      for (const part of parts) total = plus(total, o[part] as number);
      return str(total) === str(o.exact)
        ? null
        : `${what} = ${str(total)}, but the exact total is ${str(o.exact)}`;
    },
  };
}

/**
 * At rest, percpu_counter_read() is within (batch − 1) × CPUs of the exact total. read() is
 * fbc->count, plus the named parts (e.g. slowcount) where the variant adds them.
 */
export function readWithinBound(parts: readonly string[] = []): InvariantSpec {
  const what = ['fbc->count', ...parts].join(' + ');
  return {
    id: 'read-within-bound',
    when: 'final',
    description: `At rest, percpu_counter_read() (${what}) is within (batch − 1) × CPUs of the exact total`,
    final: (o, p) => {
      const bound = (intParam(p, 'batch') - 1) * intParam(p, 'cpus');
      let read: number | bigint = o.count as number;
      for (const part of parts) read = plus(read, o[part] as number);
      const d = distance(o.exact as number, read);
      return d <= bound
        ? null
        : `${what} is ${str(read)}, ${str(d)} from the exact ${str(o.exact)}: more than (batch − 1) × CPUs = ${bound}`;
    },
  };
}

/**
 * Every sum lies between the exact total when it started and when it returned. Judged at every
 * state (it needs the totals recorded around each sum, which are not observables: they would
 * split outcomes by timing), so it is reported at the state where the bad sum returns.
 */
export const sumWithinWindow: InvariantSpec = {
  id: 'sum-within-window',
  when: 'always',
  description:
    'Each percpu_counter_sum() returns a value between the exact total when it started and when it returned (judged when all adds have one sign)',
  always: (m, s, p) => {
    const w = windowSetup(p);
    if (w.mixedSigns) return null;
    const initial = w.initial;
    for (let j = 0; j < rolesOf(p).summers.length; j++) {
      const why = outsideWindow(
        readResults(m, s, sumName(j)),
        readResults(m, s, `window${j + 1}`),
        initial,
      );
      if (why) return why;
    }
    return null;
  },
};

const windowCache = new WeakMap<Params, { mixedSigns: boolean; initial: number | bigint }>();

/** What the window check needs from the parameters, computed once per parameter object. */
function windowSetup(p: Params): { mixedSigns: boolean; initial: number | bigint } {
  let w = windowCache.get(p);
  if (!w) {
    // With adds of both signs the true total can leave the window between a sum's two
    // endpoints (+5 then −4), so a correct sum could fall outside it: not judged then.
    const amounts = [
      ...rolesOf(p).amounts,
      ...('irqAmount' in p ? [intParam(p, 'irqAmount')] : []),
    ];
    w = {
      // Endless adders add −amount after each +amount: mixed signs too.
      mixedSigns: rolesOf(p).forever || (amounts.some((a) => a > 0) && amounts.some((a) => a < 0)),
      initial: listParam(p, 'slots').reduce<number | bigint>(
        (a, v) => plus(a, v),
        intParam(p, 'count'),
      ),
    };
    windowCache.set(p, w);
  }
  return w;
}

function outsideWindow(
  sums: readonly (number | bigint)[],
  window: readonly (number | bigint)[],
  initial: number | bigint,
): string | null {
  for (let i = 0; i < sums.length; i++) {
    const a = plus(initial, window[2 * i] as number);
    const b = plus(initial, window[2 * i + 1] as number);
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const v = sums[i] as number;
    if (v < lo || v > hi) {
      const range =
        lo === hi ? `the exact total ${str(lo)}` : `the exact totals ${str(lo)}..${str(hi)}`;
      return `sum() returned ${str(v)} while the counter went through ${range}`;
    }
  }
  return null;
}

/** Sums retry at most once per CPU (the in-flight bit stops new folds). */
export const retriesBounded: InvariantSpec = {
  id: 'retries-bounded',
  when: 'final',
  description: 'Each sum retries at most once per CPU',
  final: (o, p) => {
    const limit =
      intParam(p, 'cpus') *
      Math.max(1, intParam(p, 'sums')) *
      Math.max(1, rolesOf(p).summers.length);
    return (o.retries as number) <= limit
      ? null
      : `the sums retried ${str(o.retries)} times, more than ${limit}`;
  },
};

/** Always: every per-CPU delta stays strictly within ±batch. */
export const slotBelowBatch: InvariantSpec = {
  id: 'slot-below-batch',
  when: 'always',
  description: 'Every per-CPU delta stays within −batch < delta < batch',
  always: (m, s, p) => {
    // Judged at every explored state: read the words directly, allocate nothing.
    const batch = intParam(p, 'batch');
    const cell = slotsCell(m);
    for (let k = 0; k < cell.count; k++) {
      const v = s[cell.base + k * cell.stride] as number;
      if (v >= batch || v <= -batch) return `CPU${k}'s delta is ${v}, not within ±${batch}`;
    }
    return null;
  },
};

const slotsCache = new WeakMap<Machine, PerCpuCell>();

function slotsCell(m: Machine): PerCpuCell {
  let cell = slotsCache.get(m);
  if (!cell) {
    const found = m.layout.cells.find((c) => c.name === 'slots');
    if (!found?.perCpu) throw new Error('no per-CPU slots');
    cell = found;
    slotsCache.set(m, cell);
  }
  return cell;
}
