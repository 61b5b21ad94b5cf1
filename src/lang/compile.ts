// The compiler's entry: program text to a machine, in two passes. The first compiles every
// thread to learn which loops carry state (loops.ts) and how many values each record() slot
// takes; the second compiles again with hidden counters on those loops and the result slots
// laid out. Errors come back as values with spans; nothing throws across this boundary.

import { Op, POINTER_BASE, type Program as MachineProgram } from '../machine/isa.ts';
import type { LayoutOptions, ResultSlot } from '../machine/layout.ts';
import { compile as compileMachine, type MemoryModel, type TaskSpec } from '../machine/machine.ts';
import type { Expr, Program } from './ast.ts';
import { resolveAnatomy } from './anatomy.ts';
import { type Draft, Emitter } from './emit.ts';
import type { GenContext, PassInfo, SlotRef } from './gen.ts';
import { loopsNeedingBounds } from './loops.ts';
import { LIMITS, Module, type Storage, type StructObject, type ThreadItem } from './module.ts';
import { parse } from './parser.ts';
import { LangFault, LangFaults, type LangError, LineMap } from './source.ts';
import { StmtGen } from './statements.ts';
import { clausesOf } from './clauses.ts';
import type { CompiledProgram, CompiledThread } from './compiled.ts';
import { wordsOf } from './types.ts';

export interface CompileOptions {
  /** Values for the program's #define constants (its parameters). */
  readonly defines?: ReadonlyMap<string, bigint>;
  /** Memory layout: compact (the model) or padded (live workers). */
  readonly layout?: LayoutOptions;
  /** Loops that carry state stop at the loop bound (the model); live CPUs run them unbounded. */
  readonly loopBounds?: boolean;
  /**
   * The memory model: `sc` unless asked (docs/machine.md, "Store buffers"). Under `lkmm` the
   * machine is sequentially consistent (it is never stepped: the axiomatic engine answers) and
   * RCU compiles to the model's events instead of the machine's grace periods.
   */
  readonly memory?: MemoryModel | 'lkmm';
}

export type CompileResult =
  | { readonly ok: true; readonly program: CompiledProgram }
  | { readonly ok: false; readonly errors: readonly LangError[] };

/** Compiles program text; never throws on bad input. */
export function compileProgram(source: string, options: CompileOptions = {}): CompileResult {
  const parsed = parse(source);
  if (!parsed.ok) {
    // Only `;` were missing: the program meant is whole, and its other errors are real too.
    if (parsed.repaired === undefined) return parsed;
    const rest = compileProgram_(source, parsed.repaired, options);
    return { ok: false, errors: inOrder([...parsed.errors, ...(rest.ok ? [] : rest.errors)]) };
  }
  return compileProgram_(source, parsed.program, options);
}

/** Errors in the order of the text, each once. */
function inOrder(errors: readonly LangError[]): LangError[] {
  const seen = new Set<string>();
  return [...errors]
    .sort((a, b) => a.span.start - b.span.start)
    .filter((e) => {
      const key = `${e.span.start}:${e.span.end}:${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function compileProgram_(source: string, ast: Program, options: CompileOptions): CompileResult {
  try {
    return { ok: true, program: build(source, ast, options) };
  } catch (e) {
    if (e instanceof LangFaults) return { ok: false, errors: inOrder(e.all) };
    if (e instanceof LangFault) return { ok: false, errors: [e.toError()] };
    if (e instanceof RangeError && /call stack/i.test(e.message))
      return {
        ok: false,
        errors: [
          {
            span: { start: 0, end: 0 },
            message: 'the program nests too deeply to compile.',
            hint: '',
          },
        ],
      };
    throw e;
  }
}

function build(source: string, ast: Program, options: CompileOptions): CompiledProgram {
  const lines = new LineMap(source);
  const mod = new Module(ast, options.defines ?? new Map(), options.layout ?? {});
  mod.declare();
  const anatomy = resolveAnatomy(mod, mod.clauses);
  const loopBounds = options.loopBounds ?? true;
  const memory = options.memory ?? 'sc';
  const threads = orderThreads(mod.threads);

  // Pass 1: which loops carry state, and how many values each slot takes.
  const info: PassInfo = { loops: [], records: new Map() };
  // Pass 1's slots are stand-ins that tell the names apart: the offset is the name's number.
  const provisional = new Map<string, number>();
  const provisionalSlot = (name: string): SlotRef => {
    if (!provisional.has(name)) provisional.set(name, provisional.size);
    return { offset: provisional.get(name) as number, capacity: 1 };
  };
  /**
   * One pass over every thread: each thread's emitter, in thread order. Given `errors`, an error
   * in one of a thread's statements is kept there and the pass reads on, so it finds them all.
   */
  const pass = (
    ctx: Omit<GenContext, 'mod' | 'anatomy' | 'loopBounds' | 'memory'>,
    errors?: LangError[],
  ) =>
    new Map(
      threads.map((t) => {
        const e = new Emitter(t.name, lines, LIMITS.instructions);
        const gen = new StmtGen(e, { mod, anatomy, loopBounds, memory, ...ctx }, t);
        try {
          gen.compileThread(errors);
        } catch (fault) {
          if (!(fault instanceof LangFault) || errors === undefined) throw fault;
          errors.push(fault.toError());
        }
        return [t.name, e] as const;
      }),
    );
  const errors: LangError[] = [];
  const first = pass(
    {
      bounded: new Set(),
      stepless: new Set(),
      slot: provisionalSlot,
      info,
      notes: new Map(),
      amounts: [],
    },
    errors,
  );
  // The clauses read the compiled threads: with a thread that does not compile, they wait.
  LangFaults.throwAny(errors);
  const bounded = new Set<string>();
  const stepless = new Set<string>();
  for (const t of threads) {
    const e = first.get(t.name) as Emitter;
    const loops = info.loops.filter((l) => l.thread === t.name);
    for (const [k, why] of loopsNeedingBounds(e.drafts, loops, memory === 'tso')) {
      bounded.add(k);
      if (why === 'stepless') stepless.add(k);
    }
  }

  // The result slots, sized from the first pass.
  const slots = new Map<string, ResultSlot>();
  const recordCounts = new Map<string, number>();
  const bound = mod.settings.loopBound;
  for (const [name, r] of info.records) {
    const count = Math.max(1, r.sites * (r.inLoop ? Math.max(bound, 8) : 1));
    // One value at most in every run (sites on exclusive paths, as before each `return`): the
    // observable is that value, not a list.
    const base = provisional.get(name);
    const perRun =
      base === undefined
        ? r.sites
        : threads.reduce(
            (n, t) => n + recordsPerRun((first.get(t.name) as Emitter).drafts, base),
            0,
          );
    recordCounts.set(name, perRun <= 1 && !r.inLoop ? 1 : count);
    const capacity = Math.min(count, 64);
    const label = name.startsWith('@sum:') ? `${anatomy?.sum ?? 'sum'}()` : name;
    slots.set(name, mod.layout.result(name, label, capacity));
    if (name.startsWith('@sum:')) {
      const w = `@window:${name.slice(5)}`;
      slots.set(w, mod.layout.result(w, 'exact total around sum()', 2 * capacity));
    }
  }
  const slot = (name: string): SlotRef => {
    const s = slots.get(name);
    if (!s) throw new Error(`no result slot ${name}`);
    return { offset: s.offset, capacity: s.capacity };
  };

  // Pass 2: the programs.
  const notes = new Map<number, Set<string>>();
  const amounts: bigint[] = [];
  const programs = new Map<string, MachineProgram>();
  const second = pass({
    bounded,
    stepless,
    slot,
    info: { loops: [], records: new Map() },
    notes,
    amounts,
  });
  for (const [name, e] of second) programs.set(name, e.build(source));

  if (anatomy) {
    mod.layout.declareCounter({
      count: anatomy.count?.name ?? null,
      deltas: anatomy.deltas?.name ?? null,
      parts: anatomy.parts.map((c) => c.name),
      tagged: anatomy.tagged?.name ?? null,
      batch: anatomy.batch ? Number(mod.constant(anatomy.batch)) : null,
      limit: anatomy.limit,
      sequences: [...anatomy.sequences].map(([cell, kind]) => ({ cell, kind })),
    });
  }
  const layout = mod.layout.build();
  if (layout.memWords > LIMITS.memoryWords)
    throw new LangFault(
      { start: 0, end: 0 },
      `the program needs ${layout.memWords} words of memory; the lab has ${LIMITS.memoryWords}.`,
    );
  writeInitials(mod, layout.initial);

  const tasks: TaskSpec[] = [];
  const irq: (MachineProgram | null)[] = Array.from({ length: mod.settings.cpus }, () => null);
  const nmi: (MachineProgram | null)[] = Array.from({ length: mod.settings.cpus }, () => null);
  const dead: (MachineProgram | null)[] = Array.from({ length: mod.settings.cpus }, () => null);
  for (const t of threads) {
    const p = programs.get(t.name) as MachineProgram;
    if (t.item.role === 'P') tasks.push({ name: t.name, cpu: t.cpu, program: p });
    else if (t.item.role === 'IRQ') irq[t.cpu] = p;
    else if (t.item.role === 'DEAD') dead[t.cpu] = p;
    else nmi[t.cpu] = p;
  }

  if (tasks.length > LIMITS.tasks)
    throw new LangFault(
      { start: 0, end: 0 },
      `the program has ${tasks.length} tasks; the lab runs at most ${LIMITS.tasks}.`,
    );
  const machine = compileMachine({
    cpus: mod.settings.cpus,
    wordBits: mod.settings.wordBits,
    layout,
    tasks,
    irq,
    nmi,
    memory: memory === 'lkmm' ? 'sc' : memory,
    ...(mod.hotplug
      ? {
          hotplug: {
            online: mod.hotplug.online.addr,
            dying: mod.hotplug.dying.addr,
            count: mod.hotplug.count.addr,
            dead,
          },
        }
      : {}),
  });
  const compiled: CompiledThread[] = threads.map((t) => {
    const role = t.item.role;
    const ctx =
      role === 'P'
        ? tasks.findIndex((x) => x.name === t.name)
        : role === 'IRQ'
          ? (machine.irqCtx[t.cpu] as number)
          : role === 'DEAD'
            ? (machine.deadCtx[t.cpu] as number)
            : (machine.nmiCtx[t.cpu] as number);
    return { name: t.name, role, index: t.item.index, cpu: t.cpu, ctx };
  });
  const base: Omit<CompiledProgram, 'clauses'> = {
    name: ast.name ?? 'program',
    source,
    ast,
    module: mod,
    machine,
    anatomy,
    threads: compiled,
    slots,
    recordCounts,
    notes: new Map([...notes].map(([k, v]) => [k, [...v]])),
    addAmounts: amounts,
    clauseItems: mod.clauses,
    lines,
  };
  // The clauses read the compiled program (its threads' registers, its slots).
  const withoutClauses = {
    ...base,
    clauses: { observables: [], invariants: [], condition: null, filter: null, herdLocations: [] },
  };
  return { ...base, clauses: clausesOf(withoutClauses) };
}

/** Tasks in the order of their numbers (P0, P1, …), then the handlers. */
function orderThreads(threads: readonly ThreadItem[]): ThreadItem[] {
  const ranks = { P: 0, IRQ: 1, NMI: 2, DEAD: 3 } as const;
  const rank = (t: ThreadItem) => ranks[t.item.role];
  return [...threads].sort((a, b) => rank(a) - rank(b) || a.item.index - b.item.index);
}

/** Writes the initial values of the declarations and of the litmus block into memory. */
function writeInitials(mod: Module, initial: Int32Array): void {
  const put = (st: Storage, cpu: number | null, value: bigint) => {
    const words = wordsOf(st.ty);
    const addrs: number[] =
      st.k === 'cell'
        ? [st.cell.addr]
        : cpu !== null
          ? [st.pc.base + cpu * st.pc.stride]
          : Array.from({ length: st.pc.count }, (_, k) => st.pc.base + k * st.pc.stride);
    for (const a of addrs) {
      initial[a] = Number(BigInt.asIntN(32, value));
      if (words === 2) initial[a + 1] = Number(BigInt.asIntN(32, value >> 32n));
    }
  };
  /** An initial value: a constant, or the address of a global (`y = z;`, `int *p = &x;`). */
  const valueOf = (st: Storage, v: Expr): bigint => {
    // A global's name as a value is its address (herd7's `p = y;`), whatever p was declared as.
    const named = v.kind === 'name' && mod.globals.has(v.name);
    if (st.ty.k === 'ptr' || named) {
      const inner = v.kind === 'unary' && v.op === '&' ? v.arg : v;
      if (inner.kind === 'name' && mod.globals.has(inner.name)) {
        const g = mod.globals.get(inner.name);
        if (g?.k === 'scalar') return BigInt(POINTER_BASE + g.storage.cell.addr);
        throw new LangFault(
          v.span,
          `\`${inner.name}\` has no single address to start a pointer with.`,
        );
      }
    }
    return mod.constant(v);
  };
  const assign = (target: Expr, v: Expr): void => {
    const found = targetOf(mod, target);
    if (found.k === 'struct') {
      if (v.kind !== 'init-list')
        throw new LangFault(v.span, 'a struct starts with `{ .field = value, … }`.');
      const fields = found.obj.def.fields;
      v.entries.forEach((entry, i) => {
        const name = entry.field ?? fields[i]?.name;
        const st = name === undefined ? undefined : found.obj.fields.get(name);
        if (!st || name === undefined)
          throw new LangFault(
            entry.value.span,
            `struct ${found.obj.def.name} has no field ${entry.field ?? `number ${i + 1}`}.`,
          );
        put(st, null, valueOf(st, entry.value));
      });
      return;
    }
    if (v.kind === 'init-list') throw new LangFault(v.span, 'only a struct starts with `{ … }`.');
    if (found.st.ty.k === 'lock')
      throw new LangFault(v.span, 'a spinlock starts unlocked; it takes no initial value.');
    put(found.st, found.cpu, valueOf(found.st, v));
  };
  for (const init of mod.initEntries) assign(init.target, init.value);
}

type Target =
  | { readonly k: 'storage'; readonly st: Storage; readonly cpu: number | null }
  | { readonly k: 'struct'; readonly obj: StructObject };

/** What an initial-state target names: `x`, `fbc.count`, `per_cpu(c, 1)`, `*per_cpu_ptr(p, 1)`. */
function targetOf(mod: Module, e: Expr): Target {
  if (e.kind === 'name') {
    const g = mod.globals.get(e.name);
    if (!g) throw new LangFault(e.span, `\`${e.name}\` is not a global.`);
    if (g.k === 'struct') return { k: 'struct', obj: g.obj };
    return { k: 'storage', st: g.storage, cpu: null };
  }
  if (e.kind === 'member') {
    const obj = targetOf(mod, e.object);
    if (obj.k !== 'struct') throw new LangFault(e.object.span, 'this is not a struct.');
    const st = obj.obj.fields.get(e.field);
    if (!st) throw new LangFault(e.span, `struct ${obj.obj.def.name} has no field \`${e.field}\`.`);
    return { k: 'storage', st, cpu: null };
  }
  const percpu =
    e.kind === 'call' && e.callee === 'per_cpu'
      ? e
      : e.kind === 'unary' &&
          e.op === '*' &&
          e.arg.kind === 'call' &&
          e.arg.callee === 'per_cpu_ptr'
        ? e.arg
        : null;
  if (percpu && percpu.args.length === 2) {
    const inner = percpu.args[0] as Expr;
    const v = targetOf(
      mod,
      inner.kind === 'unary' && (inner.op === '&' || inner.op === '*') ? inner.arg : inner,
    );
    if (v.k !== 'storage' || v.st.k !== 'percpu')
      throw new LangFault(inner.span, 'this is not a per-CPU variable.');
    const cpu = mod.smallConstant(percpu.args[1] as Expr, 'a CPU number', 0, mod.settings.cpus - 1);
    return { k: 'storage', st: v.st, cpu };
  }
  throw new LangFault(e.span, 'an initial value goes to a global: x, s.field, or per_cpu(v, cpu).');
}

/**
 * The most records into slot `base` one run of a thread's instructions can make: the longest
 * path's count, back edges aside (a record inside a loop is counted as repeating elsewhere; one a
 * backward jump spans counts as unbounded).
 */
function recordsPerRun(drafts: readonly Draft[], base: number): number {
  const isRecord = (d: Draft) => (d.op === Op.Record || d.op === Op.RecordTotal) && d.base === base;
  const best = new Array<number>(drafts.length + 1).fill(0);
  for (let pc = drafts.length - 1; pc >= 0; pc--) {
    const d = drafts[pc] as Draft;
    const target = d.to ? d.to.pc : -1;
    if ((d.op === Op.Jump || d.op === Op.Branch) && target >= 0 && target <= pc)
      for (let q = target; q <= pc; q++) if (isRecord(drafts[q] as Draft)) return Infinity;
    const succs =
      d.op === Op.Jump
        ? [target]
        : d.op === Op.Halt
          ? []
          : d.op === Op.Branch
            ? [pc + 1, target]
            : [pc + 1];
    const next = Math.max(0, ...succs.filter((q) => q > pc).map((q) => best[q] ?? 0));
    best[pc] = (isRecord(d) ? 1 : 0) + next;
  }
  return best[0] ?? 0;
}
