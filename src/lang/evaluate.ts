// Reading a state through a program's own names: the expressions of final clauses, observables
// and invariants (`fbc.count + per_cpu(fbc.counters, 0) == exact`, `1:r0 = 0 /\ x = 1`), turned
// into functions of a machine state. Names are resolved when the clause is compiled; addresses
// when a state is read, from the machine's own layout (a live run's padded layout places cells
// elsewhere than the model's compact one), through the machine's readers (machine/read.ts);
// the language computes in bigint, so each value read becomes one here.

import { unwrap32 } from '../machine/int64.ts';
import { POINTER_BASE } from '../machine/isa.ts';
import {
  cpuBase,
  ctxBase,
  CPU_IRQS,
  CPU_NMIS,
  CTX_RETRIES,
  type Machine,
} from '../machine/machine.ts';
import {
  globalNamed,
  readCell,
  readElement,
  readResults,
  registerValue,
  totalTally,
} from '../machine/read.ts';
import type { Expr, Stmt } from './ast.ts';
import type { CompiledProgram, Scalar } from './compiled.ts';
import { foldBinary, type FunctionItem, type Global, type Storage } from './module.ts';
import { didYouMean, LangFault, type Span } from './source.ts';

export type Reader = (m: Machine, s: Int32Array) => Scalar;

/**
 * The counter's value in a state: count + every delta + the other parts, and the tagged word's
 * value (it >> 1) while its bit 0 says the counter is in atomic mode.
 */
export function counterValue(
  p: CompiledProgram,
  m: Machine,
  s: Int32Array,
  initial = false,
): bigint {
  const a = p.anatomy;
  if (!a) throw new Error('no counter');
  const from = initial ? m.layout.initial : s;
  let v = 0n;
  if (a.count) v += BigInt(readCell(m, from, a.count.name));
  if (a.deltas)
    for (let k = 0; k < m.cpus; k++) v += BigInt(readElement(m, from, a.deltas.name, k));
  for (const part of a.parts) v += BigInt(readCell(m, from, part.name));
  if (a.tagged) {
    const t = BigInt(readCell(m, from, a.tagged.name));
    if ((t & 1n) === 1n) v += t >> 1n;
  }
  return v;
}

/** The exact total: the counter's initial value plus everything the adds added. */
export function exactValue(p: CompiledProgram, m: Machine, s: Int32Array): bigint {
  return counterValue(p, m, s, true) + BigInt(totalTally(m, s));
}

/** The counter's value, read the way its global word wraps (an int count after 2^32 adds). */
export function counterReading(p: CompiledProgram, m: Machine, s: Int32Array): bigint {
  const v = counterValue(p, m, s);
  const a = p.anatomy;
  // The global part is what accumulates a run's adds (the deltas are bounded): an int count wraps
  // after 2^32 of them, and the value then stands for the one nearest the exact total.
  const narrow = a?.count?.type === 's32';
  return narrow ? BigInt(unwrap32(v, exactValue(p, m, s))) : v;
}

/**
 * Compiles a clause expression to a reader. `values` receives the value of every location read,
 * as written (`fbc.count`, `1:r0`), so a broken invariant can say what it saw.
 */
export function readerOf(
  p: CompiledProgram,
  e: Expr,
  seen?: (text: string, v: Scalar, lead?: boolean) => void,
): Reader {
  return new ClauseCompiler(p, seen).compile(e);
}

/** The text of a location as herd7 writes it: `x`, `0:r1`, `fbc.count`, `per_cpu(c,1)`. */
export function locationText(p: CompiledProgram, e: Expr): string {
  return p.source.slice(e.span.start, e.span.end).replace(/\s+/g, '');
}

/** Names a pure function's parameters stand for while its `return` expression is read. */
/**
 * What an expression is read with inside a function read at rest (bindAtRest): its parameters'
 * values (V: a reader here, Promela text in the export), storages, and struct pointers.
 */
export interface Bindings<V> {
  readonly values: ReadonlyMap<string, V>;
  readonly storages: ReadonlyMap<string, Storage>;
  /** Struct pointer parameters: the global struct each names. */
  readonly structs: ReadonlyMap<string, string>;
}

const NONE: Bindings<Reader> = { values: new Map(), storages: new Map(), structs: new Map() };

class ClauseCompiler {
  constructor(
    private readonly p: CompiledProgram,
    private readonly seen?: (text: string, v: Scalar, lead?: boolean) => void,
  ) {}

  private watch(e: Expr, r: Reader): Reader {
    const see = this.seen;
    if (!see) return r;
    const text = locationText(this.p, e);
    return (m, s) => {
      const v = r(m, s);
      see(text, v);
      return v;
    };
  }

  compile(e: Expr, bindings: Bindings<Reader> = NONE): Reader {
    switch (e.kind) {
      case 'num': {
        const v = e.value;
        return () => v;
      }
      case 'regref':
        return this.watch(e, this.register(e));
      case 'name': {
        const bound = bindings.values.get(e.name);
        if (bound) return bound;
        if (bindings.storages.has(e.name) || bindings.structs.has(e.name))
          throw new LangFault(e.span, `\`${e.name}\` is a pointer here: read through it.`);
        return this.watch(e, this.named(e));
      }
      case 'member': {
        const st = this.storage(e, bindings);
        if (st.k !== 'cell')
          throw new LangFault(
            e.span,
            'this is a per-CPU variable: read one CPU’s, as per_cpu(v, 0).',
          );
        const name = st.cell.name;
        return this.watch(e, (m, s) => BigInt(readCell(m, s, name)));
      }
      case 'unary': {
        if (e.op === '*' || e.op === '&') {
          if (e.arg.kind === 'call' && e.arg.callee === 'per_cpu_ptr')
            return this.watch(e, this.element(e.arg, bindings));
          const st = this.storage(e.arg, bindings);
          if (st.k !== 'cell')
            throw new LangFault(e.span, 'read one CPU’s element, as per_cpu(v, 0).');
          const name = st.cell.name;
          return this.watch(e, (m, s) => BigInt(readCell(m, s, name)));
        }
        const a = this.compile(e.arg, bindings);
        const op = e.op;
        return (m, s) => {
          const v = a(m, s);
          if (v === null) return null;
          if (op === '-') return -v;
          if (op === '+') return v;
          // In final clauses `~` is herd7's "not"; `!` is C's.
          return v === 0n ? 1n : 0n;
        };
      }
      case 'binary': {
        const pointerCompare = this.addressComparison(e);
        if (pointerCompare) return pointerCompare;
        const a = this.compile(e.left, bindings);
        const b = this.compile(e.right, bindings);
        const op = e.op;
        if (op === '&&' || op === '/\\')
          return (m, s) => {
            const x = a(m, s);
            if (x === null || x === 0n) return x === null ? null : 0n;
            const y = b(m, s);
            return y === null ? null : y !== 0n ? 1n : 0n;
          };
        if (op === '||' || op === '\\/')
          return (m, s) => {
            const x = a(m, s);
            if (x !== null && x !== 0n) return 1n;
            const y = b(m, s);
            return y === null ? x : y !== 0n ? 1n : 0n;
          };
        return (m, s) => {
          const x = a(m, s);
          const y = b(m, s);
          if (x === null || y === null)
            return op === '=' || op === '=='
              ? x === y
                ? 1n
                : 0n
              : op === '!='
                ? x === y
                  ? 0n
                  : 1n
                : null;
          return foldBinary(op, x, y);
        };
      }
      case 'ternary': {
        const c = this.compile(e.cond, bindings);
        const t = this.compile(e.then, bindings);
        const f = this.compile(e.otherwise, bindings);
        return (m, s) => {
          const v = c(m, s);
          if (v === null) return null;
          return v !== 0n ? t(m, s) : f(m, s);
        };
      }
      case 'cast':
        return this.compile(e.arg, bindings);
      case 'call':
        return this.call(e, bindings);
      case 'index': {
        const name = e.object.kind === 'name' ? e.object.name : null;
        if (name === null || !this.p.recordCounts.has(name))
          throw new LangFault(e.object.span, '`name[i]` reads the values a record(name, …) made.');
        const i = this.compile(e.index, bindings);
        return this.watch(e, (m, s) => {
          const at = i(m, s);
          if (at === null) return null;
          const v = readResults(m, s, name)[Number(at)];
          return v === undefined ? null : BigInt(v);
        });
      }
      default:
        throw new LangFault(e.span, 'this cannot be read from a state.');
    }
  }

  private register(e: Expr & { kind: 'regref' }): Reader {
    const t = this.p.threads.find((x) => x.role === 'P' && x.index === e.thread);
    if (!t) throw new LangFault(e.span, `there is no thread P${e.thread}.`);
    const names = this.p.machine.programs[t.ctx]?.regNames ?? [];
    const r = names.indexOf(e.name);
    // herd7's registers need no declaration and start at 0: one of herd7's form (`r1`) that the
    // thread never names reads 0, as herd7 prints it (`locations [0:r1]`).
    if (r < 0 && /^r\d+$/.test(e.name)) return () => 0n;
    if (r < 0)
      throw new LangFault(
        e.span,
        `P${e.thread} has no local variable \`${e.name}\`.`,
        didYouMean(
          e.name,
          names.filter((n) => !n.startsWith('%')),
        ),
      );
    const ctx = t.ctx;
    return (m, s) => BigInt(registerValue(m, s, ctx, r));
  }

  private named(e: Expr & { kind: 'name' }): Reader {
    const mod = this.p.module;
    if (this.p.recordCounts.has(e.name)) {
      const name = e.name;
      return (m, s) => {
        const v = readResults(m, s, name);
        return v.length === 0 ? null : BigInt(v[v.length - 1] as number | bigint);
      };
    }
    const g = mod.globals.get(e.name);
    if (g) {
      if (g.k !== 'scalar')
        throw new LangFault(
          e.span,
          `\`${e.name}\` is ${g.k === 'struct' ? 'a struct: read a field' : 'per-CPU: read per_cpu(v, cpu)'}.`,
        );
      const name = g.storage.cell.name;
      return (m, s) => BigInt(readCell(m, s, name));
    }
    const c = mod.constantName(e.name, e.span);
    if (c !== null) return () => c;
    switch (e.name) {
      case 'none':
        // No value (an observable a variant does not have).
        return () => null;
      case 'exact': {
        this.needCounter(e);
        const p = this.p;
        return (m, s) => exactValue(p, m, s);
      }
      case 'retries':
        return (m, s) => {
          let n = 0n;
          for (let k = 0; k < m.contexts; k++)
            n += BigInt(s[ctxBase(m, k) + CTX_RETRIES] as number);
          return n;
        };
      case 'irqs':
      case 'nmis': {
        const field = e.name === 'irqs' ? CPU_IRQS : CPU_NMIS;
        return (m, s) => {
          let n = 0n;
          for (let k = 0; k < m.cpus; k++) n += BigInt(s[cpuBase(m, k) + field] as number);
          return n;
        };
      }
      default:
        throw new LangFault(
          e.span,
          `\`${e.name}\` is not a global, a recorded value or a constant.`,
          didYouMean(e.name, [
            ...mod.globals.keys(),
            ...this.p.recordCounts.keys(),
            'exact',
            'retries',
            'irqs',
          ]),
        );
    }
  }

  private needCounter(e: Expr): void {
    if (!this.p.anatomy)
      throw new LangFault(
        e.span,
        '`exact` is the true total of a counter: declare the counter with `counter { … }`.',
      );
  }

  /** The storage a location expression names (`fbc.count`, `x`, through pointer parameters). */
  private storage(e: Expr, bindings: Bindings<Reader>): Storage {
    return storageOf(this.p, e, bindings, (at, why) => {
      throw new LangFault(at, why);
    });
  }

  private element(e: Expr & { kind: 'call' }, bindings: Bindings<Reader>): Reader {
    if (e.args.length !== 2)
      throw new LangFault(e.span, `\`${e.callee}\` takes a per-CPU variable and a CPU.`);
    const st = this.storage(e.args[0] as Expr, bindings);
    if (st.k !== 'percpu')
      throw new LangFault((e.args[0] as Expr).span, 'this is not a per-CPU variable.');
    const k = this.p.module.smallConstant(
      e.args[1] as Expr,
      'a CPU number',
      0,
      this.p.module.settings.cpus - 1,
    );
    const name = st.pc.name;
    return (m, s) => BigInt(readElement(m, s, name, k));
  }

  private call(e: Expr & { kind: 'call' }, bindings: Bindings<Reader>): Reader {
    switch (e.callee) {
      case 'per_cpu':
        return this.watch(e, this.element(e, bindings));
      case 'READ_ONCE':
      case 'atomic_read':
      case 'atomic64_read':
      case 'atomic_long_read':
      case 'smp_load_acquire':
        return this.watch(e, this.compile(accessorTarget(e), bindings));
      case 'count': {
        const name = this.recordName(e);
        return (m, s) => BigInt(readResults(m, s, name).length);
      }
      case 'all': {
        // all(name, x, condition): the condition holds for every value x recorded as name.
        const name = this.recordName(e);
        const x = e.args[1];
        const cond = e.args[2];
        if (e.args.length !== 3 || x?.kind !== 'name' || !cond)
          throw new LangFault(
            e.span,
            'write `all(name, x, condition)`: x stands for each value recorded as name.',
          );
        let current: bigint | null = null;
        const values = new Map(bindings.values);
        values.set(x.name, () => current);
        const c = this.compile(cond, { ...bindings, values });
        const see = this.seen;
        return (m, s) => {
          for (const x of readResults(m, s, name)) {
            const v = BigInt(x);
            current = v;
            const ok = c(m, s);
            if (ok !== null && ok === 0n) {
              // A failure names the value that failed: "read = 16".
              see?.(name, v, true);
              return 0n;
            }
          }
          return 1n;
        };
      }
      case 'abs': {
        const a = this.compile(e.args[0] as Expr, bindings);
        return (m, s) => {
          const v = a(m, s);
          return v === null ? null : v < 0n ? -v : v;
        };
      }
      case 'min':
      case 'max': {
        const a = this.compile(e.args[0] as Expr, bindings);
        const b = this.compile(e.args[1] as Expr, bindings);
        const max = e.callee === 'max';
        return (m, s) => {
          const x = a(m, s);
          const y = b(m, s);
          if (x === null || y === null) return null;
          return max ? (x > y ? x : y) : x < y ? x : y;
        };
      }
      default:
        return this.pureFunction(e);
    }
  }

  /** The record name a clause function's first argument names. */
  private recordName(e: Expr & { kind: 'call' }): string {
    const a = e.args[0];
    if (a?.kind !== 'name' || !this.p.recordCounts.has(a.name))
      throw new LangFault(
        a?.span ?? e.span,
        `\`${e.callee}\` takes the name of a record(name, …).`,
      );
    return a.name;
  }

  /** A function of the program whose body is one `return expr;` (percpu_counter_read()). */
  private pureFunction(e: Expr & { kind: 'call' }): Reader {
    const f = this.p.module.functions.get(e.callee);
    if (!f) throw new LangFault(e.calleeSpan, `\`${e.callee}\` cannot be read from a state.`);
    const body = f.item.body.body.filter((st: Stmt) => st.kind !== 'empty');
    const ret = body.length === 1 && body[0]?.kind === 'return' ? body[0].value : null;
    if (!ret)
      throw new LangFault(
        e.calleeSpan,
        `\`${e.callee}\` must be one \`return …;\` to be read at rest.`,
      );
    const bound = bindAtRest(f, e, {
      storage: (arg) => this.storage(arg, NONE),
      value: (arg) => this.compile(arg),
      refuse: (at, why) => {
        throw new LangFault(at, `${why}.`);
      },
    });
    return this.compile(ret, bound);
  }

  /**
   * herd7's `1:r0=x` and `y=x`: on the right of a condition's `=`, the name of a global is a
   * pointer to it (herd7's symbolic location), never its value. With `==` and `!=` (C's
   * comparisons in the lab's own clauses) that reading holds where the register is declared a
   * pointer.
   */
  private addressComparison(e: Expr & { kind: 'binary' }): Reader | null {
    const a = addressOperands(this.p, e);
    if (!a) return null;
    const r = this.compile(a.loc);
    const name = a.global.storage.cell.name;
    const eq = a.equal;
    return (m, s) => {
      const v = r(m, s);
      const addr = BigInt(POINTER_BASE + globalNamed(m, name).addr);
      return (v === addr) === eq ? 1n : 0n;
    };
  }
}

/**
 * The operands of herd7's `1:r0=x` or `y=x` (a location compared with a global's address; with
 * `==` and `!=`, a register declared a pointer), or null for an ordinary comparison. The clause
 * compiler and the Promela export (src/explore/promela/clauses.ts) both read comparisons so.
 */
export function addressOperands(
  p: CompiledProgram,
  e: Expr & { kind: 'binary' },
): { loc: Expr; global: Global & { k: 'scalar' }; equal: boolean } | null {
  if (e.op !== '=' && e.op !== '==' && e.op !== '!=') return null;
  const herdAtom = e.op === '=' && e.right.kind === 'name' && e.left.kind !== 'num';
  const [loc, other] = herdAtom
    ? [e.left, e.right]
    : e.left.kind === 'regref'
      ? [e.left, e.right]
      : e.right.kind === 'regref'
        ? [e.right, e.left]
        : [null, null];
  if (!loc || other.kind !== 'name') return null;
  if (!herdAtom && !(loc.kind === 'regref' && pointerLocal(p, loc))) return null;
  const g = p.module.globals.get(other.name);
  if (g?.k !== 'scalar') return null;
  return { loc, global: g, equal: e.op !== '!=' };
}

/**
 * What a read accessor in a clause reads: READ_ONCE(x) reads x; atomic_read(v),
 * atomic64_read(v), atomic_long_read(v) and smp_load_acquire(p) read *v. The clause compiler
 * and the Promela export read them alike.
 */
export function accessorTarget(e: Expr & { kind: 'call' }): Expr {
  const arg = e.args[0] as Expr;
  return e.callee === 'READ_ONCE' ? arg : { kind: 'unary', op: '*', arg, span: arg.span };
}

/**
 * The storage a location expression names (`fbc.count`, `x`, through pointer parameters), for
 * the clause compiler and the Promela export; `refuse` says why an expression names none.
 */
export function storageOf(
  p: CompiledProgram,
  e: Expr,
  bindings: Bindings<unknown>,
  refuse: (at: Span, why: string) => never,
): Storage {
  const mod = p.module;
  if (e.kind === 'unary' && (e.op === '&' || e.op === '*'))
    return storageOf(p, e.arg, bindings, refuse);
  if (e.kind === 'name') {
    const b = bindings.storages.get(e.name);
    if (b) return b;
    const g = mod.globals.get(e.name);
    if (g?.k === 'scalar' || g?.k === 'percpu') return g.storage;
    refuse(e.span, `\`${e.name}\` is not a global variable.`);
  }
  if (e.kind === 'member') {
    const obj = e.object.kind === 'unary' && e.object.op === '&' ? e.object.arg : e.object;
    const name = obj.kind === 'name' ? obj.name : null;
    const structName = name === null ? null : (bindings.structs.get(name) ?? name);
    const sg = structName === null ? undefined : mod.globals.get(structName);
    if (sg?.k !== 'struct') refuse(e.object.span, 'this is not a global struct.');
    const st = sg.obj.fields.get(e.field);
    if (!st) refuse(e.span, `struct ${sg.obj.def.name} has no field \`${e.field}\`.`);
    return st;
  }
  refuse(e.span, 'this is not a location.');
}

/**
 * Binds a pure function's parameters to call `e`'s arguments: a struct pointer to the struct's
 * name (`&name`), a pointer or per-CPU pointer to its storage, anything else to its value (read
 * by `to.value`). The clause compiler and the Promela export share it; `to.refuse` says why not.
 */
export function bindAtRest<V>(
  f: FunctionItem,
  e: Expr & { kind: 'call' },
  to: {
    storage: (arg: Expr) => Storage;
    value: (arg: Expr) => V;
    refuse: (at: Span, why: string) => never;
  },
): Bindings<V> {
  const values = new Map<string, V>();
  const storages = new Map<string, Storage>();
  const structs = new Map<string, string>();
  f.params.forEach((param, i) => {
    const arg = e.args[i];
    if (!arg) to.refuse(e.span, `\`${e.callee}\` takes ${String(f.params.length)} arguments`);
    if (param.ty.k === 'ptr' && param.ty.to.k === 'struct') {
      const inner = arg.kind === 'unary' && arg.op === '&' ? arg.arg : arg;
      if (inner.kind !== 'name') to.refuse(arg.span, 'pass the struct as &name');
      structs.set(param.name, inner.name);
    } else if (param.ty.k === 'ptr' || param.ty.k === 'percpu') {
      storages.set(param.name, to.storage(arg));
    } else values.set(param.name, to.value(arg));
  });
  return { values, storages, structs };
}

/** Whether thread N's local `r` is declared as a pointer. */
function pointerLocal(p: CompiledProgram, reg: Expr & { kind: 'regref' }): boolean {
  const t = p.module.threads.find((x) => x.item.role === 'P' && x.item.index === reg.thread);
  if (!t) return false;
  let found = false;
  const walk = (st: Stmt): void => {
    if (st.kind === 'decl')
      for (const d of st.declarators)
        if (d.name === reg.name && st.type.pointers + d.pointers > 0) found = true;
    if (st.kind === 'block') st.body.forEach(walk);
  };
  walk(t.item.body);
  return found;
}
