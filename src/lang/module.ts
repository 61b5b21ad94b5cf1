// The declarations of a program, gathered before any code is compiled: the constants (`#define`),
// the machine settings (`#pragma lab`), the structs, the global and per-CPU variables laid out in
// memory, the functions, the threads and the final clauses. herd7's habit of declaring a global
// by naming it as a thread's parameter (`P0(int *x)`) or in the initial state (`{ x = 1; }`) is
// followed: such a variable is an int unless a declaration or the parameter says otherwise.

import {
  type Cell,
  LayoutBuilder,
  type LayoutOptions,
  type PerCpuCell,
} from '../machine/layout.ts';
import {
  type Declarator,
  type Expr,
  forEachExpr,
  type Item,
  type Param,
  type Program,
  type Stmt,
  type TypeRef,
  walkStmt,
} from './ast.ts';
import { LangFault, type Span } from './source.ts';
import { cellType, INT, isScalar, type Ty, typeName, typeOf, wordsOf } from './types.ts';

/** A struct type: its fields in order. */
export interface StructDef {
  readonly name: string;
  readonly fields: readonly { readonly name: string; readonly ty: Ty; readonly span: Span }[];
}

/** Where a scalar lives: a global cell, or one per CPU. */
export type Storage =
  | { readonly k: 'cell'; readonly cell: Cell; readonly ty: Ty }
  /** A per-CPU variable (DEFINE_PER_CPU, or a struct's `T __percpu *` field): element type ty. */
  | { readonly k: 'percpu'; readonly pc: PerCpuCell; readonly ty: Ty };

/** A global struct: each field's storage. */
export interface StructObject {
  readonly name: string;
  readonly def: StructDef;
  readonly fields: ReadonlyMap<string, Storage>;
}

export type Global =
  | { readonly k: 'scalar'; readonly name: string; readonly storage: Storage & { k: 'cell' } }
  | { readonly k: 'percpu'; readonly name: string; readonly storage: Storage & { k: 'percpu' } }
  | { readonly k: 'struct'; readonly name: string; readonly obj: StructObject };

export interface FunctionItem {
  readonly item: Item & { kind: 'function' };
  readonly ret: Ty;
  readonly params: readonly { readonly name: string; readonly ty: Ty; readonly span: Span }[];
}

export interface ThreadItem {
  readonly item: Item & { kind: 'thread' };
  /** A task's CPU (its `on cpu`, else its index); a handler's CPU (its index). */
  readonly cpu: number;
  readonly name: string;
}

export interface Settings {
  readonly cpus: number;
  readonly wordBits: 32 | 64;
  readonly loadOrder: 'lo-hi' | 'hi-lo';
  readonly storeOrder: 'lo-hi' | 'hi-lo';
  readonly loopBound: number;
  /** What Explore may do to the program (`#pragma lab bounds irqs=1 migrations=1`). */
  readonly bounds: Readonly<Partial<Record<BoundName, number>>>;
}

export type BoundName = 'irqs' | 'nmis' | 'preemptions' | 'migrations' | 'hotplugs';
const BOUND_NAMES: readonly BoundName[] = ['irqs', 'nmis', 'preemptions', 'migrations', 'hotplugs'];

/** Limits a program is held to, each refused by name when passed. */
export const LIMITS = {
  cpus: 64,
  tasks: 64,
  loopBound: 1000,
  /** The most interventions of one kind Explore may make. */
  bound: 15,
  /** Instructions of one thread after every call is inlined and every CPU loop unrolled. */
  instructions: 20_000,
  /** Nested inlined calls. */
  inlineDepth: 32,
  /** Words of memory. */
  memoryWords: 65_536,
} as const;

export const DEFAULT_LOOP_BOUND = 8;

export class Module {
  readonly defines = new Map<string, { value: Expr; span: Span }>();
  readonly structs = new Map<string, StructDef>();
  readonly globals = new Map<string, Global>();
  /**
   * CPU hotplug's cells, in a program with dead callbacks (DEADk()): cpu_online_mask and
   * cpu_dying_mask, globals the program reads, and the count of hotplug events. Null otherwise.
   */
  hotplug: { online: Cell; dying: Cell; count: Cell } | null = null;
  readonly functions = new Map<string, FunctionItem>();
  readonly threads: ThreadItem[] = [];
  readonly clauses: Item[] = [];
  settings!: Settings;
  private settingsRead = false;
  layout!: LayoutBuilder;
  /** Words the compiler adds for RCU's read-side state under sc and tso, made once each. */
  private readonly hidden = new Map<string, Cell>();

  /** A word of the compiler's own (a thread's RCU read-side state), made the first time asked. */
  hiddenCell(name: string, label: string): Cell {
    const known = this.hidden.get(name);
    if (known) return known;
    const cell = this.layout.cell(name, label, 's32');
    this.hidden.set(name, cell);
    return cell;
  }
  /** Register initial values from the litmus block: thread index → name → value. */
  readonly registerInits = new Map<number, Map<string, { value: Expr; span: Span }>>();
  /** Initial values to write once the layout exists. */
  private readonly inits: { target: Expr; value: Expr; span: Span }[] = [];
  private readonly constCache = new Map<string, bigint>();
  private readonly evaluating = new Set<string>();

  constructor(
    readonly program: Program,
    /** Values that replace #define constants (a scenario's parameters). */
    private readonly overrides: ReadonlyMap<string, bigint>,
    private readonly layoutOptions: LayoutOptions,
  ) {}

  // ---- constants -------------------------------------------------------------------------------

  /** The value of a constant expression (numbers, #defines, arithmetic), or a fault. */
  constant(e: Expr): bigint {
    switch (e.kind) {
      case 'num':
        return e.value;
      case 'name': {
        const v = this.constantName(e.name, e.span);
        if (v === null) throw new LangFault(e.span, `\`${e.name}\` is not a constant.`);
        return v;
      }
      case 'unary': {
        const a = this.constant(e.arg);
        if (e.op === '-') return BigInt.asIntN(64, -a);
        if (e.op === '+') return a;
        if (e.op === '~') return BigInt.asIntN(64, ~a);
        if (e.op === '!') return a === 0n ? 1n : 0n;
        break;
      }
      case 'binary': {
        const a = this.constant(e.left);
        const b = this.constant(e.right);
        const v = foldBinary(e.op, a, b);
        if (v === null) throw new LangFault(e.span, 'division by zero in a constant.');
        // The machine's arithmetic: 64-bit two's complement (and a chain of products stays small).
        return BigInt.asIntN(64, v);
      }
      case 'ternary':
        return this.constant(e.cond) !== 0n ? this.constant(e.then) : this.constant(e.otherwise);
      case 'cast':
        return this.constant(e.arg);
      case 'call':
        if (
          e.callee === 'ATOMIC_INIT' ||
          e.callee === 'ATOMIC64_INIT' ||
          e.callee === 'ATOMIC_LONG_INIT'
        ) {
          if (e.args.length === 1) return this.constant(e.args[0] as Expr);
        }
        if ((e.callee === 'max' || e.callee === 'min') && e.args.length === 2) {
          const a = this.constant(e.args[0] as Expr);
          const b = this.constant(e.args[1] as Expr);
          return e.callee === 'max' ? (a > b ? a : b) : a < b ? a : b;
        }
        break;
      default:
        break;
    }
    throw new LangFault(
      e.span,
      'this must be a constant: a number, a #define, or arithmetic on them.',
    );
  }

  /** A #define's (or a built-in constant's) value, or null for other names. */
  constantName(name: string, span: Span): bigint | null {
    const known = this.constCache.get(name);
    if (known !== undefined) return known;
    if (name === 'true') return 1n;
    if (name === 'false' || name === 'NULL') return 0n;
    // Once the settings are read (they read NR_CPUS themselves), NR_CPUS is the machine's.
    if ((name === 'nr_cpu_ids' || name === 'NR_CPUS') && this.settingsRead)
      return BigInt(this.settings.cpus);
    const over = this.overrides.get(name);
    if (over !== undefined) return over;
    const d = this.defines.get(name);
    if (!d) return null;
    if (this.evaluating.has(name))
      throw new LangFault(span, `\`${name}\` is defined in terms of itself.`);
    this.evaluating.add(name);
    try {
      const v = this.constant(d.value);
      this.constCache.set(name, v);
      return v;
    } finally {
      this.evaluating.delete(name);
    }
  }

  /** A small constant that must be a plain number (a CPU count, a bound). */
  smallConstant(e: Expr, what: string, min: number, max: number): number {
    const v = this.constant(e);
    if (v < BigInt(min) || v > BigInt(max))
      throw new LangFault(e.span, `${what} must be ${min} to ${max}, not ${String(v)}.`);
    return Number(v);
  }

  // ---- declarations ----------------------------------------------------------------------------

  declare(): void {
    const items = this.program.items;
    for (const it of items) {
      if (it.kind === 'define') {
        if (this.defines.has(it.name))
          throw new LangFault(it.span, `\`${it.name}\` is defined twice.`);
        this.defines.set(it.name, { value: it.value, span: it.span });
      }
    }
    this.settings = this.readSettings();
    this.settingsRead = true;
    // Every #define is a parameter of the program, used or not, so each must have a value.
    for (const [name, d] of this.defines) this.constantName(name, d.span);
    this.layout = new LayoutBuilder(this.settings.cpus, this.layoutOptions);
    this.declareHotplug();
    // Which struct fields are reached through a pointer (`fbc->count`): their labels say so.
    const arrows = new Set<string>();
    walkExprs(this.program, (e) => {
      if (e.kind === 'member' && e.arrow) arrows.add(e.field);
    });
    // A global, declared at the top level or in the init block, with its initial value.
    const declare = (type: TypeRef, d: Declarator) => {
      const ty = this.type({ ...type, pointers: type.pointers + d.pointers });
      this.declareGlobal(d.name, ty, d.span, arrows);
      if (d.init)
        this.inits.push({
          target: { kind: 'name', span: d.span, name: d.name },
          value: d.init,
          span: d.span,
        });
    };
    for (const it of items) {
      switch (it.kind) {
        case 'struct':
          this.defineStruct(it);
          break;
        case 'global':
          for (const d of it.declarators) declare(it.type, d);
          break;
        case 'percpu': {
          const ty = this.type(it.type);
          if (!isScalar(ty) && ty.k !== 'atomic')
            throw new LangFault(
              it.type.span,
              `a per-CPU variable holds a number, not ${typeName(ty)}.`,
            );
          if (this.globals.has(it.name))
            throw new LangFault(it.span, `\`${it.name}\` is declared twice.`);
          const pc = this.layout.perCpu(it.name, it.name, cellType(ty));
          this.globals.set(it.name, {
            k: 'percpu',
            name: it.name,
            storage: { k: 'percpu', pc, ty },
          });
          if (it.init)
            this.inits.push({
              target: { kind: 'name', span: it.span, name: it.name },
              value: it.init,
              span: it.span,
            });
          break;
        }
        case 'init':
          for (const e of it.entries) {
            if (e.kind === 'decl') {
              for (const d of e.declarators) declare(e.type, d);
            } else if (e.target.kind === 'regref') {
              const byThread =
                this.registerInits.get(e.target.thread) ??
                new Map<string, { value: Expr; span: Span }>();
              byThread.set(e.target.name, { value: e.value, span: e.span });
              this.registerInits.set(e.target.thread, byThread);
            } else {
              this.inits.push({ target: e.target, value: e.value, span: e.span });
            }
          }
          break;
        case 'function': {
          if (this.functions.has(it.name))
            throw new LangFault(it.span, `the function \`${it.name}\` is defined twice.`);
          this.functions.set(it.name, {
            item: it,
            ret: this.type(it.ret),
            params: it.params.map((p) => ({ name: p.name, ty: this.type(p.type), span: p.span })),
          });
          break;
        }
        case 'thread':
          this.declareThread(it, arrows);
          break;
        case 'exists':
        case 'filter':
        case 'locations':
        case 'observe':
        case 'invariant':
        case 'counter':
          this.clauses.push(it);
          break;
        default:
          break;
      }
    }
    // Globals herd7 declares by naming them: in the initial state, `x = 1;`.
    for (const init of this.inits) {
      const root = rootName(init.target);
      if (root !== null && !this.globals.has(root) && init.target.kind === 'name')
        this.declareGlobal(root, INT, init.span, arrows);
    }
    // …and by using them as a value there (`p = y;`: p points to y, so y is a location too).
    // (A register's initial value, `1:r2=b;`, names a location the same way.)
    const registerValues = [...this.registerInits.values()].flatMap((m) => [...m.values()]);
    for (const init of [...this.inits, ...registerValues]) {
      const v = init.value.kind === 'unary' && init.value.op === '&' ? init.value.arg : init.value;
      if (v.kind === 'name' && !this.globals.has(v.name) && !this.defines.has(v.name))
        this.declareGlobal(v.name, INT, v.span, arrows);
    }
    if (this.threads.filter((t) => t.item.role === 'P').length === 0)
      throw new LangFault(
        { start: 0, end: 0 },
        'the program has no thread.',
        'Write at least one, as P0() { … }.',
      );
  }

  private readSettings(): Settings {
    let loopBound = DEFAULT_LOOP_BOUND;
    let loadOrder: 'lo-hi' | 'hi-lo' = 'lo-hi';
    let storeOrder: 'lo-hi' | 'hi-lo' = 'lo-hi';
    const bounds: Partial<Record<BoundName, number>> = {};
    for (const it of this.program.items) {
      if (it.kind !== 'pragma') continue;
      switch (it.key) {
        case 'bounds':
          for (const part of it.value.split(/[\s,]+/).filter(Boolean)) {
            const kv = /^(\w+)=(\d+)$/.exec(part);
            const name = kv?.[1] as BoundName | undefined;
            if (!kv || !name || !BOUND_NAMES.includes(name) || Number(kv[2]) > LIMITS.bound)
              throw new LangFault(
                it.span,
                `\`${part}\` is not a bound: write name=N with N from 0 to ${LIMITS.bound}.`,
                `The bounds are ${BOUND_NAMES.join(', ')}, as in \`#pragma lab bounds irqs=1 migrations=1\`.`,
              );
            bounds[name] = Number(kv[2]);
          }
          break;
        case 'loop_bound': {
          const n = Number(it.value);
          if (!/^\d+$/.test(it.value) || n < 1 || n > LIMITS.loopBound)
            throw new LangFault(
              it.span,
              `the loop bound must be 1 to ${LIMITS.loopBound}, not \`${it.value}\`.`,
            );
          loopBound = n;
          break;
        }
        case 'load_order':
        case 'store_order': {
          const v = it.value.replace('_', '-');
          if (v !== 'lo-hi' && v !== 'hi-lo')
            throw new LangFault(it.span, `\`${it.key}\` is lo-hi or hi-lo, not \`${it.value}\`.`);
          if (it.key === 'load_order') loadOrder = v;
          else storeOrder = v;
          break;
        }
        default:
          throw new LangFault(
            it.span,
            `\`#pragma lab ${it.key}\` is not a setting the lab knows.`,
            'The settings are loop_bound, load_order, store_order and bounds.',
          );
      }
    }
    const bitsDef = this.defines.get('BITS_PER_LONG');
    let wordBits: 32 | 64 = 64;
    if (bitsDef || this.overrides.has('BITS_PER_LONG')) {
      const v = this.constantName('BITS_PER_LONG', bitsDef?.span ?? { start: 0, end: 0 });
      if (v !== 32n && v !== 64n)
        throw new LangFault(bitsDef?.span ?? { start: 0, end: 0 }, 'BITS_PER_LONG is 32 or 64.');
      wordBits = v === 32n ? 32 : 64;
    }
    // The CPUs: NR_CPUS when defined, else as many as the threads need.
    let needed = 1;
    for (const it of this.program.items) {
      if (it.kind !== 'thread') continue;
      const cpu = it.role === 'P' ? (it.cpu ?? it.index) : it.index;
      needed = Math.max(needed, cpu + 1);
    }
    let cpus = needed;
    const nr = this.defines.get('NR_CPUS');
    if (nr || this.overrides.has('NR_CPUS')) {
      const v = Number(this.constantName('NR_CPUS', nr?.span ?? { start: 0, end: 0 }));
      if (!Number.isInteger(v) || v < 1 || v > LIMITS.cpus)
        throw new LangFault(
          nr?.span ?? { start: 0, end: 0 },
          `NR_CPUS must be 1 to ${LIMITS.cpus}, not ${v}.`,
        );
      if (v < needed)
        throw new LangFault(
          nr?.span ?? { start: 0, end: 0 },
          `NR_CPUS is ${v}, but a thread runs on CPU ${needed - 1}.`,
        );
      cpus = v;
    }
    if (cpus > LIMITS.cpus)
      throw new LangFault(
        { start: 0, end: 0 },
        `the program needs ${cpus} CPUs; the lab runs at most ${LIMITS.cpus}.`,
      );
    return { cpus, wordBits, loadOrder, storeOrder, loopBound, bounds };
  }

  type(t: TypeRef): Ty {
    return typeOf(t, this.settings.wordBits, new Set(this.structs.keys()));
  }

  private defineStruct(it: Item & { kind: 'struct' }): void {
    if (this.structs.has(it.name))
      throw new LangFault(it.span, `struct ${it.name} is defined twice.`);
    const fields = it.fields.map((f) => {
      const ty = this.type(f.type);
      if (ty.k === 'struct')
        throw new LangFault(f.span, 'a struct inside a struct is not supported yet.');
      if (ty.k === 'void') throw new LangFault(f.span, 'a field cannot be void.');
      return { name: f.name, ty, span: f.span };
    });
    const seen = new Set<string>();
    for (const f of fields) {
      if (seen.has(f.name))
        throw new LangFault(f.span, `struct ${it.name} has two fields named \`${f.name}\`.`);
      seen.add(f.name);
    }
    this.structs.set(it.name, { name: it.name, fields });
  }

  /**
   * A program with dead callbacks can take CPUs offline: the masks are memory, as the kernel's
   * cpumasks are, so reading one is a step of the program.
   */
  private declareHotplug(): void {
    const dead = this.program.items.find((it) => it.kind === 'thread' && it.role === 'DEAD');
    if (!dead) return;
    if (this.settings.cpus > 32)
      throw new LangFault(dead.span, 'a program with CPU hotplug has at most 32 CPUs.');
    if (this.settings.cpus < 2)
      throw new LangFault(dead.span, 'CPU hotplug needs a second CPU to run the dead callbacks.');
    const mask: Ty = { k: 'int', bits: 32, unsigned: true, name: 'unsigned int' };
    const global = (name: string): Cell => {
      const cell = this.layout.cell(name, name, 's32');
      this.globals.set(name, { k: 'scalar', name, storage: { k: 'cell', cell, ty: mask } });
      return cell;
    };
    const online = global('cpu_online_mask');
    const dying = global('cpu_dying_mask');
    const count = this.layout.cell('@hotplugs', 'hotplug events', 's32');
    this.hotplug = { online, dying, count };
  }

  /** Declares a global (once; a second declaration must agree). */
  declareGlobal(name: string, ty: Ty, span: Span, arrows: ReadonlySet<string>): Global {
    const known = this.globals.get(name);
    if (known) {
      const was =
        known.k === 'struct' ? `struct ${known.obj.def.name}` : typeName(known.storage.ty);
      // herd7's C is untyped: a word one test declares `int *c = w;` its threads may name
      // `int *c` (a pointer to an int). One-word ints and pointers agree; the pointer wins.
      const oneWord = (t: Ty) => t.k === 'ptr' || (t.k === 'int' && wordsOf(t) === 1);
      // Likewise an SRCU domain one thread names `int *s` and reads as a word (herd7 gives it
      // no storage of its own: its events are at the location s): the SRCU type wins.
      const srcuWord = (a: Ty, b: Ty) => a.k === 'srcu' && b.k === 'int' && wordsOf(b) === 1;
      if (
        known.k === 'scalar' &&
        (srcuWord(known.storage.ty, ty) || srcuWord(ty, known.storage.ty))
      ) {
        if (ty.k !== 'srcu') return known;
        const upgraded: Global = { ...known, storage: { ...known.storage, ty } };
        this.globals.set(name, upgraded);
        return upgraded;
      }
      if (known.k === 'scalar' && oneWord(known.storage.ty) && oneWord(ty)) {
        if (ty.k !== 'ptr' || known.storage.ty.k === 'ptr') return known;
        const upgraded: Global = { ...known, storage: { ...known.storage, ty } };
        this.globals.set(name, upgraded);
        return upgraded;
      }
      if (
        was !== typeName(ty) &&
        !(known.k === 'scalar' && ty.k === 'int' && known.storage.ty.k === 'int')
      )
        throw new LangFault(span, `\`${name}\` is declared as ${was} and as ${typeName(ty)}.`);
      return known;
    }
    if (this.functions.has(name)) throw new LangFault(span, `\`${name}\` is already a function.`);
    let g: Global;
    if (ty.k === 'struct') {
      const def = this.structs.get(ty.name) as StructDef;
      const fields = new Map<string, Storage>();
      for (const f of def.fields) {
        const label = `${name}${arrows.has(f.name) ? '->' : '.'}${f.name}`;
        const path = `${name}.${f.name}`;
        if (f.ty.k === 'percpu') {
          const pc = this.layout.perCpu(path, label, cellType(f.ty.to));
          fields.set(f.name, { k: 'percpu', pc, ty: f.ty.to });
        } else {
          const cell = this.layout.cell(path, label, cellType(f.ty));
          fields.set(f.name, { k: 'cell', cell, ty: f.ty });
        }
      }
      g = { k: 'struct', name, obj: { name, def, fields } };
    } else if (ty.k === 'percpu') {
      throw new LangFault(span, 'a per-CPU variable is declared with DEFINE_PER_CPU(type, name).');
    } else if (ty.k === 'void') {
      throw new LangFault(span, 'a variable cannot be void.');
    } else {
      const cell = this.layout.cell(name, name, cellType(ty));
      g = { k: 'scalar', name, storage: { k: 'cell', cell, ty } };
    }
    this.globals.set(name, g);
    return g;
  }

  private declareThread(it: Item & { kind: 'thread' }, arrows: ReadonlySet<string>): void {
    const name = `${it.role}${it.index}`;
    if (this.threads.some((t) => t.name === name))
      throw new LangFault(it.span, `${name} is defined twice.`);
    const cpu = it.role === 'P' ? (it.cpu ?? it.index) : it.index;
    // herd7: a parameter `T *x` names the global x, of type T.
    for (const p of it.params) this.paramGlobal(p, arrows);
    this.threads.push({ item: it, cpu, name });
  }

  private paramGlobal(p: Param, arrows: ReadonlySet<string>): void {
    const ty = this.type(p.type);
    if (ty.k !== 'ptr')
      throw new LangFault(
        p.span,
        `a thread’s parameter names a global through a pointer, as \`int *${p.name}\`.`,
      );
    this.declareGlobal(p.name, ty.to, p.span, arrows);
  }

  /** Writes every initial value into the layout's memory. */
  applyInits(
    initial: Int32Array,
    value: (target: Expr, v: Expr) => { addr: number; words: 1 | 2; value: bigint }[],
  ): void {
    for (const init of this.inits) {
      for (const w of value(init.target, init.value)) {
        initial[w.addr] = Number(BigInt.asIntN(32, w.value));
        if (w.words === 2) initial[w.addr + 1] = Number(BigInt.asIntN(32, w.value >> 32n));
      }
    }
  }

  get initEntries(): readonly { target: Expr; value: Expr; span: Span }[] {
    return this.inits;
  }
}

/** The variable an initial-state target starts from: `x`, `fbc` of `fbc.count`, `c` of per_cpu(c, 1). */
function rootName(e: Expr): string | null {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'member') return rootName(e.object);
  if (e.kind === 'unary' && e.op === '*') return rootName(e.arg);
  if (e.kind === 'call' && e.args[0]) return rootName(e.args[0]);
  return null;
}

/** Constant folding of one binary operator; null for a division by zero. */
export function foldBinary(op: string, a: bigint, b: bigint): bigint | null {
  const bool = (x: boolean) => (x ? 1n : 0n);
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0n ? null : a / b;
    case '%':
      return b === 0n ? null : a % b;
    case '<<':
      return a << (b & 63n);
    case '>>':
      return a >> (b & 63n);
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '<':
      return bool(a < b);
    case '<=':
      return bool(a <= b);
    case '>':
      return bool(a > b);
    case '>=':
      return bool(a >= b);
    case '==':
    case '=':
      return bool(a === b);
    case '!=':
      return bool(a !== b);
    case '&&':
    case '/\\':
      return bool(a !== 0n && b !== 0n);
    case '||':
    case '\\/':
      return bool(a !== 0n || b !== 0n);
    default:
      return null;
  }
}

/** Calls `f` on every expression of the program (statements, initialisers, clauses). */
export function walkExprs(p: Program, f: (e: Expr) => void): void {
  const expr = (e: Expr | null): void => {
    forEachExpr(e, f);
  };
  const stmt = (s: Stmt | null): void => {
    walkStmt(s, f);
  };
  for (const it of p.items) {
    switch (it.kind) {
      case 'function':
      case 'thread':
        stmt(it.body);
        break;
      case 'global':
        it.declarators.forEach((d) => {
          expr(d.init);
        });
        break;
      case 'init':
        it.entries.forEach((e) => {
          if (e.kind === 'assign') {
            expr(e.target);
            expr(e.value);
          } else
            e.declarators.forEach((d) => {
              expr(d.init);
            });
        });
        break;
      case 'exists':
      case 'filter':
      case 'invariant':
        expr(it.prop);
        break;
      case 'observe':
        expr(it.value);
        break;
      case 'locations':
        it.locations.forEach(expr);
        break;
      case 'counter':
        it.entries.forEach((e) => {
          e.values.forEach(expr);
        });
        break;
      default:
        break;
    }
  }
}
