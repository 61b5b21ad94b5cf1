// A program's clauses as Promela expressions over the model's state: its observables (printed at
// every end state for a report), its invariants (assertions) and herd7's condition. The same
// names and the same three-valued reading as src/lang/evaluate.ts (a record not made yet is
// "none", and an invariant that reads none holds), computed in Promela's 32-bit int: each
// 64-bit value read must fit, which the model asserts where it reads one.

import { POINTER_BASE } from '../../machine/isa.ts';
import type { Machine } from '../../machine/machine.ts';
import { initialState } from '../../machine/interpreter.ts';
import type { Expr, Stmt } from '../../lang/ast.ts';
import type { CompiledProgram } from '../../lang/compiled.ts';
import {
  accessorTarget,
  addressOperands,
  bindAtRest,
  type Bindings,
  counterValue,
  storageOf,
} from '../../lang/evaluate.ts';
import type { Storage } from '../../lang/module.ts';
import { PromelaRefusal, Words } from './words.ts';

/** A value: its int expression, and when it is defined (null: always). */
export interface Val {
  readonly v: string;
  readonly d: string | null;
}

const NONE: Bindings<Val> = { values: new Map(), storages: new Map(), structs: new Map() };
const both = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : `(${a} && ${b})`;

function small(v: bigint, what: string): string {
  if (v < -2147483647n || v > 2147483647n)
    throw new PromelaRefusal(`${what} is ${String(v)}, past Promela's 32-bit int`);
  return String(v);
}

export class ClauseWriter {
  /** Conditions every value read must meet: its high word is its low word's sign. */
  readonly fits = new Set<string>();
  private readonly w: Words;

  constructor(
    readonly p: CompiledProgram,
    readonly m: Machine,
  ) {
    this.w = new Words(m);
  }

  private word(addr: string, wide: boolean): string {
    if (wide) this.fits.add(`mem[${addr} + 1] == ((mem[${addr}] < 0) -> -1 : 0)`);
    return `mem[${addr}]`;
  }

  private cell(st: Storage & { k: 'cell' }): string {
    return this.word(String(st.cell.addr), st.cell.type === 's64');
  }

  private element(st: Storage & { k: 'percpu' }, k: number): string {
    return this.word(String(st.pc.base + k * st.pc.stride), st.pc.type === 's64');
  }

  private slotAt(name: string): { at: number; capacity: number } {
    const slot = this.m.layout.results.find((r) => r.name === name);
    if (!slot) throw new PromelaRefusal(`no result slot ${name}`);
    return { at: slot.offset, capacity: slot.capacity };
  }

  /** Value i of a result slot (a pair: its low word, asserted to fit). */
  private resultValue(at: number, i: string): string {
    const lo = `res[${String(at + 1)} + 2 * (${i})]`;
    this.fits.add(
      `res[${String(at)}] == 0 || res[${String(at + 2)} + 2 * (res[${String(at)}] - 1)] == ((res[${String(at + 1)} + 2 * (res[${String(at)}] - 1)] < 0) -> -1 : 0)`,
    );
    return lo;
  }

  /** Every value recorded as `name`, as (value, defined-when) pairs over the slot's capacity. */
  recorded(name: string): { count: string; values: { v: string; d: string }[] } {
    const { at, capacity } = this.slotAt(name);
    const count = `res[${String(at)}]`;
    const values = Array.from({ length: capacity }, (_, i) => ({
      v: this.resultValue(at, String(i)),
      d: `${count} > ${String(i)}`,
    }));
    return { count, values };
  }

  /** The last value recorded as `name`, or none. */
  lastRecorded(name: string): Val {
    const { at } = this.slotAt(name);
    return { v: this.resultValue(at, `res[${String(at)}] - 1`), d: `res[${String(at)}] > 0` };
  }

  /** The counter's value at the start: a constant. */
  initialCounter(): bigint {
    return counterValue(this.p, this.m, initialState(this.m), true);
  }

  /** count + Σ deltas + parts. */
  counter(): string {
    const a = this.p.anatomy;
    if (!a) throw new PromelaRefusal('the program declares no counter');
    const terms: string[] = [];
    const cellOf = (name: string) => this.m.layout.cells.find((c) => c.name === name);
    const add = (name: string) => {
      const c = cellOf(name);
      if (!c) throw new PromelaRefusal(`no cell ${name}`);
      if (c.perCpu)
        for (let k = 0; k < c.count; k++)
          terms.push(this.word(String(c.base + k * c.stride), c.type === 's64'));
      else terms.push(this.word(String(c.addr), c.type === 's64'));
    };
    if (a.count) add(a.count.name);
    if (a.deltas) add(a.deltas.name);
    for (const part of a.parts) add(part.name);
    return terms.length === 0 ? '0' : `(${terms.join(' + ')})`;
  }

  /** The exact total: the counter's initial value plus every context's tally. */
  exact(): string {
    const terms = [small(this.initialCounter(), 'the counter at the start')];
    for (let c = 0; c < this.m.contexts; c++) {
      this.fits.add(`${this.w.tallyHi(c)} == ((${this.w.tallyLo(c)} < 0) -> -1 : 0)`);
      terms.push(this.w.tallyLo(c));
    }
    return `(${terms.join(' + ')})`;
  }

  /** An expression of a clause. */
  expr(e: Expr, b: Bindings<Val> = NONE): Val {
    switch (e.kind) {
      case 'num':
        return { v: small(e.value, 'a number of a clause'), d: null };
      case 'regref': {
        const t = this.p.threads.find((x) => x.role === 'P' && x.index === e.thread);
        const r = t ? (this.m.programs[t.ctx]?.regNames.indexOf(e.name) ?? -1) : -1;
        if (!t || r < 0) throw new PromelaRefusal(`P${String(e.thread)} has no ${e.name}`);
        this.fits.add(`${this.w.hi(t.ctx, r)} == ((${this.w.lo(t.ctx, r)} < 0) -> -1 : 0)`);
        return { v: this.w.lo(t.ctx, r), d: null };
      }
      case 'name':
        return this.named(e, b);
      case 'member': {
        const st = this.storage(e, b);
        if (st.k !== 'cell') throw new PromelaRefusal('a per-CPU variable read whole');
        return { v: this.cell(st), d: null };
      }
      case 'unary': {
        if (e.op === '*' || e.op === '&') {
          if (e.arg.kind === 'call' && e.arg.callee === 'per_cpu_ptr') return this.perCpu(e.arg, b);
          const st = this.storage(e.arg, b);
          if (st.k !== 'cell') throw new PromelaRefusal('a per-CPU variable read whole');
          return { v: this.cell(st), d: null };
        }
        const a = this.expr(e.arg, b);
        const v = e.op === '-' ? `(-${a.v})` : e.op === '+' ? a.v : `(!${a.v})`;
        return { v, d: a.d };
      }
      case 'binary':
        return this.binary(e, b);
      case 'ternary': {
        const c = this.expr(e.cond, b);
        const t = this.expr(e.then, b);
        const f = this.expr(e.otherwise, b);
        const branch =
          t.d === null && f.d === null ? null : `(${c.v} -> ${t.d ?? '1'} : ${f.d ?? '1'})`;
        return { v: `(${c.v} -> ${t.v} : ${f.v})`, d: both(c.d, branch) };
      }
      case 'cast':
        return this.expr(e.arg, b);
      case 'call':
        return this.call(e, b);
      case 'index': {
        const name = e.object.kind === 'name' ? e.object.name : '';
        if (!this.p.recordCounts.has(name)) throw new PromelaRefusal('an index of no record');
        const i = this.expr(e.index, b);
        const { at } = this.slotAt(name);
        return {
          v: this.resultValue(at, i.v),
          d: both(i.d, `(${i.v} >= 0 && ${i.v} < res[${String(at)}])`),
        };
      }
      default:
        throw new PromelaRefusal('a clause the export cannot read');
    }
  }

  private binary(e: Expr & { kind: 'binary' }, b: Bindings<Val>): Val {
    const pointer = this.addressComparison(e);
    if (pointer) return pointer;
    const x = this.expr(e.left, b);
    const y = this.expr(e.right, b);
    const op = e.op;
    if (op === '&&' || op === '/\\') {
      const d =
        x.d === null && y.d === null ? null : `(${x.d ?? '1'} && (!${x.v} || ${y.d ?? '1'}))`;
      return { v: `(${x.v} && ${y.v})`, d };
    }
    if (op === '||' || op === '\\/') {
      const xv = x.d === null ? x.v : `(${x.d} && ${x.v})`;
      const yv = y.d === null ? y.v : `(${y.d} && ${y.v})`;
      return {
        v: `(${xv} || ${yv})`,
        d: x.d === null || y.d === null ? null : `(${x.d} || ${y.d})`,
      };
    }
    if (op === '=' || op === '==' || op === '!=') {
      const eq = `(${x.v} == ${y.v})`;
      let v: string;
      if (x.d === null && y.d === null) v = eq;
      else if (x.d !== null && y.d !== null)
        v = `((${x.d} && ${y.d} && ${eq}) || (!${x.d} && !${y.d}))`;
      else v = `(${x.d ?? y.d ?? '1'} && ${eq})`;
      return { v: op === '!=' ? `(!${v})` : v, d: null };
    }
    const known: Record<string, string> = {
      '+': '+',
      '-': '-',
      '*': '*',
      '/': '/',
      '%': '%',
      '<<': '<<',
      '>>': '>>',
      '&': '&',
      '|': '|',
      '^': '^',
      '<': '<',
      '<=': '<=',
      '>': '>',
      '>=': '>=',
    };
    const o = known[op];
    if (!o) throw new PromelaRefusal(`the operator ${op} in a clause`);
    const d = both(x.d, y.d);
    if (o === '/' || o === '%') return { v: `(${x.v} ${o} ${y.v})`, d: both(d, `(${y.v} != 0)`) };
    return { v: `(${x.v} ${o} ${y.v})`, d };
  }

  private named(e: Expr & { kind: 'name' }, b: Bindings<Val>): Val {
    const bound = b.values.get(e.name);
    if (bound) return bound;
    if (this.p.recordCounts.has(e.name)) return this.lastRecorded(e.name);
    const g = this.p.module.globals.get(e.name);
    if (g) {
      if (g.k !== 'scalar') throw new PromelaRefusal(`${e.name} read whole`);
      return { v: this.cell(g.storage), d: null };
    }
    const c = this.p.module.constantName(e.name, e.span);
    if (c !== null) return { v: small(c, e.name), d: null };
    switch (e.name) {
      case 'none':
        return { v: '0', d: '0' };
      case 'exact':
        return { v: this.exact(), d: null };
      case 'retries':
        return {
          v: `(${Array.from({ length: this.m.contexts }, (_, c) => `retr[${String(c)}]`).join(' + ')})`,
          d: null,
        };
      case 'irqs':
      case 'nmis': {
        const arr = e.name === 'irqs' ? 'nirq' : 'nnmi';
        return {
          v: `(${Array.from({ length: this.m.cpus }, (_, k) => `${arr}[${String(k)}]`).join(' + ')})`,
          d: null,
        };
      }
      default:
        throw new PromelaRefusal(`the name ${e.name} in a clause`);
    }
  }

  private storage(e: Expr, b: Bindings<Val>): Storage {
    return storageOf(this.p, e, b, () => {
      throw new PromelaRefusal('a location the export cannot find');
    });
  }

  private perCpu(e: Expr & { kind: 'call' }, b: Bindings<Val>): Val {
    const st = this.storage(e.args[0] as Expr, b);
    if (st.k !== 'percpu') throw new PromelaRefusal('per_cpu of no per-CPU variable');
    const k = this.p.module.smallConstant(e.args[1] as Expr, 'a CPU number', 0, this.m.cpus - 1);
    return { v: this.element(st, k), d: null };
  }

  private call(e: Expr & { kind: 'call' }, b: Bindings<Val>): Val {
    switch (e.callee) {
      case 'per_cpu':
        return this.perCpu(e, b);
      case 'READ_ONCE':
      case 'atomic_read':
      case 'atomic64_read':
      case 'atomic_long_read':
      case 'smp_load_acquire':
        return this.expr(accessorTarget(e), b);
      case 'count': {
        const name = (e.args[0] as Expr & { name: string }).name;
        return { v: this.recorded(name).count, d: null };
      }
      case 'all': {
        const name = (e.args[0] as Expr & { name: string }).name;
        const x = e.args[1] as Expr & { name: string };
        const cond = e.args[2] as Expr;
        const parts = this.recorded(name).values.map(({ v, d }) => {
          const values = new Map(b.values);
          values.set(x.name, { v, d: null });
          const c = this.expr(cond, { ...b, values });
          const ok = c.d === null ? c.v : `(!${c.d} || ${c.v})`;
          return `(!(${d}) || ${ok})`;
        });
        return { v: parts.length === 0 ? '1' : `(${parts.join(' && ')})`, d: null };
      }
      case 'abs': {
        const a = this.expr(e.args[0] as Expr, b);
        return { v: `((${a.v} < 0) -> -(${a.v}) : ${a.v})`, d: a.d };
      }
      case 'min':
      case 'max': {
        const a = this.expr(e.args[0] as Expr, b);
        const c = this.expr(e.args[1] as Expr, b);
        const o = e.callee === 'max' ? '>' : '<';
        return { v: `((${a.v} ${o} ${c.v}) -> ${a.v} : ${c.v})`, d: both(a.d, c.d) };
      }
      default:
        return this.pureFunction(e);
    }
  }

  private pureFunction(e: Expr & { kind: 'call' }): Val {
    const f = this.p.module.functions.get(e.callee);
    const body = f?.item.body.body.filter((st: Stmt) => st.kind !== 'empty') ?? [];
    const ret = body.length === 1 && body[0]?.kind === 'return' ? body[0].value : null;
    if (!f || !ret) throw new PromelaRefusal(`${e.callee} cannot be read at rest`);
    const bound = bindAtRest(f, e, {
      storage: (arg) => this.storage(arg, NONE),
      value: (arg) => this.expr(arg),
      refuse: (_at, why) => {
        throw new PromelaRefusal(why);
      },
    });
    return this.expr(ret, bound);
  }

  /** herd7's `1:r0=x`: a pointer compared with a global's address (evaluate.ts). */
  private addressComparison(e: Expr & { kind: 'binary' }): Val | null {
    const a = addressOperands(this.p, e);
    if (!a) return null;
    const r = this.expr(a.loc);
    const eq = `(${r.v} == ${String(POINTER_BASE + a.global.storage.cell.addr)})`;
    return { v: a.equal ? eq : `(!${eq})`, d: null };
  }
}
