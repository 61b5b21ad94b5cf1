// A program's counter, as it declares it (`counter { … }`): which variable is the global count,
// which the per-CPU deltas, what else makes up the value, the batch, how far the cheap read may
// be off, and which functions add, sum and read. The charts, Live, Scaling, the exact total and
// the counter's built-in invariants read this declaration instead of guessing from names.

import type { Cell, PerCpuCell } from '../machine/layout.ts';
import type { CounterEntry, Expr, Item } from './ast.ts';
import type { Module, Storage } from './module.ts';
import { didYouMean, LangFault, type Span } from './source.ts';

/** What a sequence-like word means, for its chart. */
export type SequenceKind = 'inflight' | 'changes' | 'sums' | 'folds';
const SEQUENCE_KINDS: readonly SequenceKind[] = ['inflight', 'changes', 'sums', 'folds'];

export interface AddFunction {
  readonly name: string;
  /** The parameter that holds the amount, or null when one call adds 1. */
  readonly amount: string | null;
}

export interface Anatomy {
  readonly span: Span;
  /** The global part (fbc->count, nr_files), or null when the counter is per-CPU only. */
  readonly count: Cell | null;
  /** The per-CPU deltas, or null for a counter with one global word. */
  readonly deltas: PerCpuCell | null;
  /** Other words that are part of the value (slowcount). */
  readonly parts: readonly Cell[];
  /**
   * A word that holds the value shifted left by one with bit 0 set while the counter is in its
   * atomic mode, and something else (the per-CPU pointer) once it is not: part of the value
   * only while bit 0 is set. A counter that starts atomic and upgrades to per-CPU.
   */
  readonly tagged: Cell | null;
  /** Names of every cell the value is made of. */
  readonly valueCells: ReadonlySet<string>;
  /** The cell a write to which is a fold (the count, when there are deltas), or null. */
  readonly foldsInto: string | null;
  readonly sequences: ReadonlyMap<string, SequenceKind>;
  /** The bound on a delta: reaching ±batch folds it (percpu_counter), or passing ±threshold does. */
  readonly batch: Expr | null;
  readonly limit: 'batch' | 'threshold';
  /** How far read() may be from the exact total at rest, or null. */
  readonly error: Expr | null;
  readonly adds: ReadonlyMap<string, AddFunction>;
  readonly sum: string | null;
  /** read()'s call, as written (`percpu_counter_read(&fbc)`), or null. */
  readonly read: (Expr & { kind: 'call' }) | null;
}

const KEYS = [
  'count',
  'deltas',
  'parts',
  'tagged',
  'batch',
  'threshold',
  'error',
  'add',
  'sum',
  'read',
  'sequence',
];

/** The program's counter declaration, resolved against its globals; null when it has none. */
export function resolveAnatomy(mod: Module, clauses: readonly Item[]): Anatomy | null {
  const decls = clauses.filter((c): c is Item & { kind: 'counter' } => c.kind === 'counter');
  if (decls.length === 0) return null;
  if (decls.length > 1)
    throw new LangFault((decls[1] as Item).span, 'a program declares one counter.');
  const decl = decls[0] as Item & { kind: 'counter' };
  let count: Cell | null = null;
  let deltas: PerCpuCell | null = null;
  const parts: Cell[] = [];
  let tagged: Cell | null = null;
  const sequences = new Map<string, SequenceKind>();
  let batch: Expr | null = null;
  let limit: 'batch' | 'threshold' = 'batch';
  let error: Expr | null = null;
  const adds = new Map<string, AddFunction>();
  let sum: string | null = null;
  let read: (Expr & { kind: 'call' }) | null = null;
  const once = (e: CounterEntry, was: unknown) => {
    if (was !== null) throw new LangFault(e.span, `the counter names its ${e.key} twice.`);
  };
  for (const e of decl.entries) {
    if (!KEYS.includes(e.key))
      throw new LangFault(
        e.span,
        `\`${e.key}\` is not a part of a counter.`,
        didYouMean(e.key, KEYS) || `The parts are ${KEYS.join(', ')}.`,
      );
    const first = e.values[0];
    if (!first) throw new LangFault(e.span, `\`${e.key}\` needs a value.`);
    switch (e.key) {
      case 'count':
        once(e, count);
        count = cellOf(mod, first, 'the count');
        break;
      case 'deltas': {
        once(e, deltas);
        const st = storageOf(mod, first);
        if (st.k !== 'percpu')
          throw new LangFault(first.span, 'the deltas are a per-CPU variable.');
        deltas = st.pc;
        break;
      }
      case 'parts':
        for (const v of e.values) parts.push(cellOf(mod, v, 'a part of the value'));
        break;
      case 'tagged':
        once(e, tagged);
        tagged = cellOf(mod, first, 'the tagged word');
        break;
      case 'batch':
      case 'threshold':
        if (batch !== null)
          throw new LangFault(e.span, 'the counter names its batch (or threshold) twice.');
        mod.constant(first);
        batch = first;
        limit = e.key;
        break;
      case 'error':
        once(e, error);
        mod.constant(first);
        error = first;
        break;
      case 'add': {
        const f = functionOf(mod, first);
        let amount: string | null = null;
        if (first.kind === 'call') {
          const arg = first.args[0];
          if (first.args.length !== 1 || arg?.kind !== 'name')
            throw new LangFault(
              first.span,
              'name the parameter that holds the amount, as `add f(amount)`.',
            );
          amount = arg.name;
        } else {
          // The parameter named `amount`, else the only integer one, else an add of 1.
          const ints = f.params.filter((p) => p.ty.k === 'int');
          amount =
            f.params.find((p) => p.name === 'amount')?.name ??
            (ints.length === 1 ? (ints[0]?.name ?? null) : null);
        }
        if (amount !== null && !f.params.some((p) => p.name === amount))
          throw new LangFault(first.span, `\`${f.item.name}\` has no parameter \`${amount}\`.`);
        adds.set(f.item.name, { name: f.item.name, amount });
        break;
      }
      case 'sum':
        once(e, sum);
        sum = functionOf(mod, first).item.name;
        break;
      case 'read':
        once(e, read);
        if (first.kind !== 'call')
          throw new LangFault(
            first.span,
            'write read() as a call, as `read percpu_counter_read(&fbc)`.',
          );
        functionOf(mod, first);
        read = first;
        break;
      case 'sequence': {
        const cell = cellOf(mod, first, 'a sequence word');
        const kindExpr = e.values[1];
        let kind: SequenceKind = 'changes';
        if (kindExpr) {
          const k = kindExpr.kind === 'name' ? kindExpr.name : '';
          if (!SEQUENCE_KINDS.includes(k as SequenceKind))
            throw new LangFault(kindExpr.span, `a sequence word is ${SEQUENCE_KINDS.join(', ')}.`);
          kind = k as SequenceKind;
        }
        sequences.set(cell.name, kind);
        break;
      }
      default:
        break;
    }
  }
  if (count === null && deltas === null)
    throw new LangFault(decl.span, 'a counter needs its count, its deltas, or both.');
  const valueCells = new Set<string>();
  if (count) valueCells.add(count.name);
  if (deltas) valueCells.add(deltas.name);
  for (const p of parts) valueCells.add(p.name);
  if (tagged) valueCells.add(tagged.name);
  return {
    span: decl.span,
    count,
    deltas,
    parts,
    tagged,
    valueCells,
    foldsInto: count !== null && deltas !== null ? count.name : null,
    sequences,
    batch,
    limit,
    error,
    adds,
    sum,
    read,
  };
}

/** The storage an expression such as `fbc.count`, `&fbc->counters` or `nr_files` names. */
export function storageOf(mod: Module, e: Expr): Storage {
  if (e.kind === 'unary' && (e.op === '&' || e.op === '*')) return storageOf(mod, e.arg);
  if (e.kind === 'name') {
    const g = mod.globals.get(e.name);
    if (!g)
      throw new LangFault(
        e.span,
        `\`${e.name}\` is not a global variable.`,
        didYouMean(e.name, mod.globals.keys()),
      );
    if (g.k === 'struct')
      throw new LangFault(e.span, `name a field of \`${e.name}\`, as \`${e.name}.count\`.`);
    return g.storage;
  }
  if (e.kind === 'member' && e.object.kind === 'name') {
    const g = mod.globals.get(e.object.name);
    if (g?.k !== 'struct')
      throw new LangFault(e.object.span, `\`${e.object.name}\` is not a global struct.`);
    const st = g.obj.fields.get(e.field);
    if (!st)
      throw new LangFault(
        e.span,
        `struct ${g.obj.def.name} has no field \`${e.field}\`.`,
        didYouMean(e.field, g.obj.fields.keys()),
      );
    return st;
  }
  throw new LangFault(e.span, 'name a global variable here, as `x` or `fbc.count`.');
}

function cellOf(mod: Module, e: Expr, what: string): Cell {
  const st = storageOf(mod, e);
  if (st.k !== 'cell')
    throw new LangFault(e.span, `${what} is one global word, not a per-CPU variable.`);
  return st.cell;
}

function functionOf(mod: Module, e: Expr) {
  const name = e.kind === 'call' ? e.callee : e.kind === 'name' ? e.name : null;
  if (name === null) throw new LangFault(e.span, 'name a function of the program here.');
  const f = mod.functions.get(name);
  if (!f)
    throw new LangFault(
      e.span,
      `\`${name}\` is not a function of the program.`,
      didYouMean(name, mod.functions.keys()),
    );
  return f;
}
