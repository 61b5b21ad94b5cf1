// The syntax tree of a program, as the parser builds it and the printer writes it back. Every
// node has the span of the text it came from, so the compiler's errors and the instructions it
// emits point into the source.

import type { Span } from './source.ts';

/** A type as written: a base name, pointer stars and the `__percpu` mark. */
export interface TypeRef {
  readonly span: Span;
  /** Canonical base: `int`, `unsigned int`, `long`, `s64`, `atomic_t`, `spinlock_t`, `struct x`, `void`… */
  readonly base: string;
  /** `T *` is 1, `T **` 2. */
  readonly pointers: number;
  /** `T __percpu *p`: p points to a per-CPU variable. */
  readonly percpu: boolean;
}

export type Expr =
  | { readonly kind: 'num'; readonly span: Span; readonly value: bigint; readonly text: string }
  | { readonly kind: 'name'; readonly span: Span; readonly name: string }
  /** `N:r` in final clauses: thread N's local r at that state. */
  | { readonly kind: 'regref'; readonly span: Span; readonly thread: number; readonly name: string }
  | { readonly kind: 'unary'; readonly span: Span; readonly op: UnaryOp; readonly arg: Expr }
  | {
      readonly kind: 'binary';
      readonly span: Span;
      readonly op: BinaryOp;
      readonly left: Expr;
      readonly right: Expr;
    }
  | {
      readonly kind: 'assign';
      readonly span: Span;
      /** '=' or a compound operator such as '+='. */
      readonly op: string;
      readonly target: Expr;
      readonly value: Expr;
    }
  | {
      readonly kind: 'incdec';
      readonly span: Span;
      readonly op: '++' | '--';
      readonly prefix: boolean;
      readonly arg: Expr;
    }
  | {
      readonly kind: 'call';
      readonly span: Span;
      readonly callee: string;
      readonly calleeSpan: Span;
      readonly args: readonly Expr[];
    }
  | {
      readonly kind: 'member';
      readonly span: Span;
      readonly object: Expr;
      readonly field: string;
      readonly arrow: boolean;
    }
  | { readonly kind: 'cast'; readonly span: Span; readonly type: TypeRef; readonly arg: Expr }
  | {
      readonly kind: 'ternary';
      readonly span: Span;
      readonly cond: Expr;
      readonly then: Expr;
      readonly otherwise: Expr;
    }
  /** `sums[1]` in final clauses: the value a record() made second. */
  | { readonly kind: 'index'; readonly span: Span; readonly object: Expr; readonly index: Expr }
  /** `{ .field = value, … }` or `{ value, … }`: an initialiser. */
  | {
      readonly kind: 'init-list';
      readonly span: Span;
      readonly entries: readonly { readonly field: string | null; readonly value: Expr }[];
    };

/** `~` is bitwise not in code and logical not in final clauses (herd7's), as written. */
export type UnaryOp = '-' | '+' | '!' | '~' | '*' | '&';

export type BinaryOp =
  | '*'
  | '/'
  | '%'
  | '+'
  | '-'
  | '<<'
  | '>>'
  | '<'
  | '<='
  | '>'
  | '>='
  | '=='
  | '!='
  | '&'
  | '^'
  | '|'
  | '&&'
  | '||'
  /** herd7's `/\` and `\/` (and, or) and `=` (equals), kept as written for the printer. */
  | '/\\'
  | '\\/'
  | '=';

export interface Declarator {
  readonly span: Span;
  readonly name: string;
  /** Pointer stars on this declarator (`int *p, q`): added to the type's. */
  readonly pointers: number;
  readonly init: Expr | null;
}

export type Stmt =
  | { readonly kind: 'block'; readonly span: Span; readonly body: readonly Stmt[] }
  | {
      readonly kind: 'decl';
      readonly span: Span;
      readonly type: TypeRef;
      readonly declarators: readonly Declarator[];
    }
  | { readonly kind: 'expr'; readonly span: Span; readonly expr: Expr }
  | {
      readonly kind: 'if';
      readonly span: Span;
      readonly cond: Expr;
      readonly then: Stmt;
      readonly otherwise: Stmt | null;
    }
  | { readonly kind: 'while'; readonly span: Span; readonly cond: Expr; readonly body: Stmt }
  | { readonly kind: 'do'; readonly span: Span; readonly body: Stmt; readonly cond: Expr }
  | {
      readonly kind: 'for';
      readonly span: Span;
      readonly init: Stmt | null;
      readonly cond: Expr | null;
      readonly step: Expr | null;
      readonly body: Stmt;
    }
  /**
   * `for_each_online_cpu(cpu) body`, `for_each_possible_cpu(cpu) body` and
   * `for_each_cpu_or(cpu, a, b) body` (masks: its two cpumasks; empty for the others).
   */
  | {
      readonly kind: 'for-each-cpu';
      readonly span: Span;
      readonly macro: string;
      readonly variable: string;
      readonly masks: readonly Expr[];
      readonly body: Stmt;
    }
  | { readonly kind: 'break'; readonly span: Span }
  | { readonly kind: 'continue'; readonly span: Span }
  | { readonly kind: 'return'; readonly span: Span; readonly value: Expr | null }
  | { readonly kind: 'goto'; readonly span: Span; readonly label: string }
  | { readonly kind: 'label'; readonly span: Span; readonly label: string; readonly body: Stmt }
  | { readonly kind: 'empty'; readonly span: Span };

export interface Param {
  readonly span: Span;
  readonly type: TypeRef;
  readonly name: string;
}

/** An entry of the litmus `{ … }` block. */
export type InitEntry =
  /** `int x = 1;`, `atomic_t v = ATOMIC_INIT(1);`, `spinlock_t l;` */
  | {
      readonly kind: 'decl';
      readonly span: Span;
      readonly type: TypeRef;
      readonly declarators: readonly Declarator[];
    }
  /** `x = 1;`, `y = z;`, `fbc.count = 1000;`, `per_cpu(c, 1) = 5;`, `0:r1 = 2;` */
  | { readonly kind: 'assign'; readonly span: Span; readonly target: Expr; readonly value: Expr };

/** One line of a `counter { … }` declaration: `key value, …;`. */
export interface CounterEntry {
  readonly span: Span;
  readonly key: string;
  readonly values: readonly Expr[];
}

export type Item =
  | { readonly kind: 'init'; readonly span: Span; readonly entries: readonly InitEntry[] }
  | { readonly kind: 'define'; readonly span: Span; readonly name: string; readonly value: Expr }
  | { readonly kind: 'include'; readonly span: Span; readonly text: string }
  | {
      readonly kind: 'pragma';
      readonly span: Span;
      readonly key: string;
      readonly value: string;
    }
  | {
      readonly kind: 'struct';
      readonly span: Span;
      readonly name: string;
      readonly fields: readonly Param[];
    }
  | {
      readonly kind: 'global';
      readonly span: Span;
      readonly type: TypeRef;
      readonly declarators: readonly Declarator[];
    }
  | {
      readonly kind: 'percpu';
      readonly span: Span;
      readonly type: TypeRef;
      readonly name: string;
      readonly init: Expr | null;
    }
  | {
      readonly kind: 'function';
      readonly span: Span;
      readonly ret: TypeRef;
      readonly name: string;
      readonly params: readonly Param[];
      readonly body: Stmt & { readonly kind: 'block' };
    }
  | {
      readonly kind: 'thread';
      readonly span: Span;
      /** P: a task; IRQ, NMI: the handler of that CPU; DEAD: CPU k's hotplug dead callbacks. */
      readonly role: 'P' | 'IRQ' | 'NMI' | 'DEAD';
      readonly index: number;
      readonly params: readonly Param[];
      /** `on cpu K`: the CPU a task starts on (default: its index). */
      readonly cpu: number | null;
      readonly body: Stmt & { readonly kind: 'block' };
    }
  | {
      readonly kind: 'exists';
      readonly span: Span;
      /** exists, ~exists or forall. */
      readonly quantifier: 'exists' | '~exists' | 'forall';
      readonly prop: Expr;
    }
  | { readonly kind: 'filter'; readonly span: Span; readonly prop: Expr }
  | { readonly kind: 'locations'; readonly span: Span; readonly locations: readonly Expr[] }
  | {
      readonly kind: 'observe';
      readonly span: Span;
      readonly name: string;
      readonly value: Expr | null;
    }
  | {
      readonly kind: 'invariant';
      readonly span: Span;
      readonly when: 'final' | 'always';
      readonly id: string;
      readonly prop: Expr | null;
      readonly description: string | null;
    }
  | { readonly kind: 'counter'; readonly span: Span; readonly entries: readonly CounterEntry[] };

export interface Program {
  /** The litmus name (`C name`), or null. */
  readonly name: string | null;
  /** A herd7 doc string after the name, or null. */
  readonly doc: string | null;
  readonly items: readonly Item[];
}

// ---- walking the tree ---------------------------------------------------------------------------

/** An expression's direct sub-expressions. */
export function childExprs(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'unary':
    case 'incdec':
    case 'cast':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'assign':
      return [e.target, e.value];
    case 'call':
      return e.args;
    case 'member':
      return [e.object];
    case 'index':
      return [e.object, e.index];
    case 'ternary':
      return [e.cond, e.then, e.otherwise];
    case 'init-list':
      return e.entries.map((x) => x.value);
    default:
      return [];
  }
}

/** Calls `f` on `e` and every expression inside it, outermost first. */
export function forEachExpr(e: Expr | null, f: (e: Expr) => void): void {
  if (!e) return;
  // A stack of its own, not the call stack's: a sum of thousands of terms is a tree that deep.
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as Expr;
    f(x);
    const children = childExprs(x);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Expr);
  }
}

/**
 * Calls `onStmt` on `s` and every statement inside it, and `onExpr` on every expression they
 * hold (each sub-expression too), in the order they are written.
 */
export function walkStmt(
  s: Stmt | null,
  onExpr: (e: Expr) => void,
  onStmt: (s: Stmt) => void = () => undefined,
): void {
  if (!s) return;
  onStmt(s);
  const expr = (e: Expr | null) => {
    forEachExpr(e, onExpr);
  };
  const stmt = (x: Stmt | null) => {
    walkStmt(x, onExpr, onStmt);
  };
  switch (s.kind) {
    case 'block':
      s.body.forEach(stmt);
      break;
    case 'decl':
      for (const d of s.declarators) expr(d.init);
      break;
    case 'expr':
      expr(s.expr);
      break;
    case 'if':
      expr(s.cond);
      stmt(s.then);
      stmt(s.otherwise);
      break;
    case 'while':
    case 'do':
      expr(s.cond);
      stmt(s.body);
      break;
    case 'for':
      stmt(s.init);
      expr(s.cond);
      expr(s.step);
      stmt(s.body);
      break;
    case 'for-each-cpu':
    case 'label':
      stmt(s.body);
      break;
    case 'return':
      expr(s.value);
      break;
    default:
      break;
  }
}
