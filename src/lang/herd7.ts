// `lab export --format litmus`: a program that stays inside herd7's litmus C, written as a file
// herd7 accepts, so a user who outgrows the built-in explorer can take it to herd7. The lab's
// kernel-style globals become herd7's pointer parameters (`WRITE_ONCE(x, 1)` is written
// `WRITE_ONCE(*x, 1)` in a thread `P0(int *x)`), #define constants become their values, and
// anything herd7's C does not have is refused, naming the extension and its line.

import type { Expr, InitEntry, Item, Param, Program, Stmt, TypeRef } from './ast.ts';
import type { CompiledProgram } from './compiled.ts';
import { printProgram } from './printer.ts';
import { LangFault, type Span } from './source.ts';

/** Primitives herd7's linux-kernel.def defines (and so its C knows). */
const HERD_PRIMITIVES = new Set([
  'READ_ONCE',
  'WRITE_ONCE',
  'smp_store_release',
  'smp_load_acquire',
  'rcu_assign_pointer',
  'rcu_dereference',
  'smp_store_mb',
  'smp_mb',
  'smp_rmb',
  'smp_wmb',
  'smp_mb__before_atomic',
  'smp_mb__after_atomic',
  'smp_mb__after_spinlock',
  'smp_mb__after_unlock_lock',
  'barrier',
  'spin_lock',
  'spin_unlock',
  'spin_trylock',
  'spin_is_locked',
  'atomic_read',
  'atomic_set',
  'atomic_read_acquire',
  'atomic_set_release',
  'atomic_add',
  'atomic_sub',
  'atomic_inc',
  'atomic_dec',
  'atomic_xchg',
  'atomic_cmpxchg',
  'atomic_sub_and_test',
  'atomic_dec_and_test',
  'atomic_inc_and_test',
  'atomic_add_negative',
  'atomic_add_unless',
  'atomic_inc_not_zero',
  ...['xchg', 'cmpxchg'].flatMap((n) => [n, `${n}_relaxed`, `${n}_acquire`, `${n}_release`]),
  ...['add', 'sub', 'inc', 'dec'].flatMap((op) =>
    ['', '_relaxed', '_acquire', '_release'].flatMap((o) => [
      `atomic_${op}_return${o}`,
      `atomic_fetch_${op}${o}`,
    ]),
  ),
  ...['atomic_xchg', 'atomic_cmpxchg'].flatMap((n) => [
    `${n}_relaxed`,
    `${n}_acquire`,
    `${n}_release`,
  ]),
]);

/** Binary operators herd7's C reads. */
const HERD_OPERATORS = new Set(['+', '-', '*', '/', '&', '|', '^', '==', '!=', '=', '/\\', '\\/']);

/** What herd7's C has no form for, by the kind of item that needs it. */
const NOT_IN_HERD7 = {
  struct: 'structs',
  percpu: 'per-CPU variables (DEFINE_PER_CPU)',
  counter: 'counter declarations',
  observe: '`observe` clauses (use `locations`)',
  invariant: 'named invariants (use `~exists` or `forall`)',
  pragma: '`#pragma lab` settings',
} as const;

function refuse(span: Span, what: string): never {
  throw new LangFault(
    span,
    `herd7's litmus C has no ${what}, so this program cannot be exported as a litmus test.`,
    'Export it as the lab’s own text instead (--format lab).',
  );
}

/** The program as herd7 litmus text, or a LangFault naming what herd7 would not read. */
export function toLitmus(p: CompiledProgram): string {
  const mod = p.module;
  const ast = p.ast;
  // Globals a thread reads or writes: its pointer parameters.
  const scalars = new Map<string, TypeRef>();
  for (const [name, g] of mod.globals) {
    if (g.k === 'struct') refuse({ start: 0, end: 0 }, `structs (\`${name}\`)`);
    if (g.k === 'percpu') refuse({ start: 0, end: 0 }, `per-CPU variables (\`${name}\`)`);
    const ty = g.storage.ty;
    const base =
      ty.k === 'int'
        ? ty.bits === 64
          ? 'long'
          : 'int'
        : ty.k === 'atomic'
          ? ty.name
          : ty.k === 'lock'
            ? 'spinlock_t'
            : ty.k === 'ptr'
              ? 'int'
              : null;
    if (base === null) refuse({ start: 0, end: 0 }, `variables of this type (\`${name}\`)`);
    scalars.set(name, {
      span: { start: 0, end: 0 },
      base,
      pointers: ty.k === 'ptr' ? 1 : 0,
      percpu: false,
    });
  }
  const constant = (e: Expr): Expr => ({
    kind: 'num',
    span: e.span,
    value: mod.constant(e),
    text: String(mod.constant(e)),
  });
  const items: Item[] = [];
  // The initial state: every global's type and its value.
  const entries: InitEntry[] = [];
  for (const [name, t] of scalars) {
    const cell = mod.globals.get(name);
    const addr = cell?.k === 'scalar' ? cell.storage.cell.addr : -1;
    const value = addr >= 0 ? (p.machine.layout.initial[addr] ?? 0) : 0;
    const init: Expr | null =
      t.base === 'spinlock_t'
        ? null
        : t.base === 'atomic_t'
          ? {
              kind: 'call',
              span: t.span,
              callee: 'ATOMIC_INIT',
              calleeSpan: t.span,
              args: [num(value)],
            }
          : num(value);
    entries.push({
      kind: 'decl',
      span: t.span,
      type: t,
      declarators: [{ span: t.span, name, pointers: 0, init: t.pointers > 0 ? null : init }],
    });
  }
  items.push({ kind: 'init', span: { start: 0, end: 0 }, entries });
  for (const it of ast.items) {
    switch (it.kind) {
      case 'thread': {
        if (it.role !== 'P') refuse(it.span, 'interrupt handlers (IRQ, NMI)');
        if (it.cpu !== null) refuse(it.span, 'threads placed on a CPU (`on cpu`)');
        // Names the thread already takes as herd7's pointer parameters stay as written.
        const used = new Set<string>(it.params.map((q) => q.name));
        const direct = new Map([...scalars].filter(([n]) => !used.has(n)));
        const body = stmt(it.body, { globals: direct, used, constant }) as Stmt & { kind: 'block' };
        const params: Param[] = [...scalars.entries()]
          .filter(([n]) => used.has(n))
          .map(([n, t]) => ({ span: it.span, name: n, type: { ...t, pointers: t.pointers + 1 } }));
        items.push({ ...it, params, body });
        break;
      }
      case 'exists':
      case 'filter':
      case 'locations':
        items.push(it);
        break;
      case 'function':
        refuse(it.span, `functions (\`${it.name}\`): write the code in the threads`);
        break;
      case 'struct':
      case 'percpu':
      case 'counter':
      case 'observe':
      case 'invariant':
      case 'pragma':
        refuse(it.span, NOT_IN_HERD7[it.kind]);
        break;
      default:
        break;
    }
  }
  const out: Program = { name: ast.name ?? 'program', doc: ast.doc, items };
  return printProgram(out);
}

function num(v: number): Expr {
  return { kind: 'num', span: { start: 0, end: 0 }, value: BigInt(v), text: String(v) };
}

/** What a thread's rewriting needs: its globals, the ones it has used, and the constants. */
interface Rewrite {
  /** The globals the thread reaches through herd7's pointer parameters. */
  readonly globals: ReadonlyMap<string, TypeRef>;
  /** Filled in: the globals the thread uses, which become its parameters. */
  readonly used: Set<string>;
  /** A #define constant as its number. */
  readonly constant: (e: Expr) => Expr;
}

/** A statement in herd7's C: globals through pointers, constants as numbers. */
function stmt(s: Stmt, cx: Rewrite): Stmt {
  const e = (x: Expr) => expr(x, cx);
  const sub = (x: Stmt) => stmt(x, cx);
  switch (s.kind) {
    case 'block':
      return { ...s, body: s.body.map(sub) };
    case 'decl':
      for (const d of s.declarators) if (d.init) e(d.init);
      return {
        ...s,
        declarators: s.declarators.map((d) => ({ ...d, init: d.init ? e(d.init) : null })),
      };
    case 'expr':
      if (s.expr.kind === 'assign' && s.expr.op !== '=')
        refuse(s.span, `compound assignments (\`${s.expr.op}\`)`);
      if (s.expr.kind === 'incdec') refuse(s.span, '`++` and `--`');
      return { ...s, expr: e(s.expr) };
    case 'if':
      return {
        ...s,
        cond: e(s.cond),
        then: sub(s.then),
        otherwise: s.otherwise ? sub(s.otherwise) : null,
      };
    case 'empty':
      return s;
    case 'while':
    case 'do':
    case 'for':
    case 'for-each-cpu':
      return refuse(s.span, 'loops');
    case 'goto':
    case 'label':
      return refuse(s.span, '`goto`');
    case 'return':
      return refuse(s.span, '`return` in a thread');
    case 'break':
    case 'continue':
      return refuse(s.span, '`break` or `continue`');
  }
}

function expr(e: Expr, cx: Rewrite): Expr {
  const { globals, used, constant } = cx;
  const sub = (x: Expr) => expr(x, cx);
  switch (e.kind) {
    case 'num':
    case 'regref':
      return e;
    case 'name':
      if (globals.has(e.name)) {
        used.add(e.name);
        // A global read or written directly is herd7's *x.
        return { kind: 'unary', span: e.span, op: '*', arg: e };
      }
      try {
        return constant(e);
      } catch {
        return e;
      }
    case 'unary':
      if (e.op === '&' && e.arg.kind === 'name' && globals.has(e.arg.name)) {
        used.add(e.arg.name);
        return e.arg;
      }
      if (e.op === '*' && e.arg.kind === 'name' && globals.has(e.arg.name)) {
        // Already herd7's form: `*x` with x a pointer parameter.
        used.add(e.arg.name);
        return e;
      }
      if (e.op === '!' || e.op === '~') return refuse(e.span, `\`${e.op}\``);
      return { ...e, arg: sub(e.arg) };
    case 'binary':
      if (!HERD_OPERATORS.has(e.op)) return refuse(e.span, `the operator \`${e.op}\``);
      return { ...e, left: sub(e.left), right: sub(e.right) };
    case 'assign':
      return { ...e, target: sub(e.target), value: sub(e.value) };
    case 'call': {
      if (!HERD_PRIMITIVES.has(e.callee)) return refuse(e.calleeSpan, `\`${e.callee}\``);
      // The lab takes READ_ONCE(x) for a global x; herd7 writes READ_ONCE(*x).
      return { ...e, args: e.args.map(sub) };
    }
    case 'cast':
      if (e.type.base === 'void') return { ...e, arg: sub(e.arg) };
      return refuse(e.span, 'casts');
    case 'member':
      return refuse(e.span, 'struct fields');
    case 'ternary':
      return refuse(e.span, '`? :`');
    case 'incdec':
      return refuse(e.span, '`++` and `--`');
    case 'init-list':
      return refuse(e.span, 'initialiser lists');
    case 'index':
      return refuse(e.span, 'indexes');
  }
}
