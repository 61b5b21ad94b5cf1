// herd7's names for unresolved values (`S8`, `S23`). herd7 gives every symbolic value a number
// from one counter as it builds each thread's events, P0 first: a register read takes the next
// number, a memory read the next, an operation on a symbolic value the next; a branch builds
// both its ways once, then what follows it once for each way (the way not taken first), so that
// code is numbered again and again. Solving a candidate merges the numbers of each unknown's
// copies (the reads that return it and the register reads that pass it on) and prints the
// highest. This file numbers a thread's code as herd7 does, following the run a candidate took,
// for the forms herd7's C tests write (loads, stores, fences, assignments, arithmetic, if and
// else); other forms have no number here (the caller then names the unknown on its own).

import type { Expr, Program, Stmt } from '../lang/ast.ts';
import { foldBinary } from '../lang/module.ts';
import type { ThreadRun } from './threads.ts';
import { isLockEvent } from './threads.ts';

/** Why numbering stopped: a form this file does not number as herd7 does. */
class Unnumbered extends Error {}

/** A register's value on the run followed: its number, and the read it copies (or −1). */
interface Held {
  readonly value: bigint;
  readonly copies: number;
}

/** One way of a thread's code, as herd7's event monad holds it while numbering. */
interface Way {
  /** Whether this is the run's own way (else its numbers are counted, never looked at). */
  readonly followed: boolean;
  readonly regs: Map<string, Held>;
  /** The run's reads consumed so far. */
  next: number;
}

/** What numbering a thread learns of the run followed: each read's numbers, and their uses. */
interface ThreadNumbers {
  /** For the run's k-th read: the number of the read, then those of its copies. */
  readonly reads: number[][];
  /**
   * The reads whose value the run computes with, tests or uses as an address: herd7 leaves an
   * equation on such a value when it is unknown, and drops the candidate.
   */
  readonly used: Set<number>;
}

/** The binary operators the numbering follows a value through (herd7 numbers no others here). */
const NUMBERED = new Set(['+', '-', '*', '&', '|', '^', '==', '!=', '<', '<=', '>', '>=']);

/** A binary operator on two values, as C computes it (the compiler's constant folding). */
function compute(op: string, a: bigint, b: bigint): bigint {
  const v = NUMBERED.has(op) ? foldBinary(op, a, b) : null;
  if (v === null) throw new Unnumbered(op);
  return v;
}

const LOADS: Readonly<Record<string, 'deref' | 'pointer'>> = {
  READ_ONCE: 'deref',
  rcu_dereference: 'deref',
  smp_load_acquire: 'pointer',
  atomic_read: 'pointer',
  atomic_read_acquire: 'pointer',
};

const STORES: Readonly<Record<string, 'deref' | 'pointer'>> = {
  WRITE_ONCE: 'deref',
  rcu_assign_pointer: 'deref',
  smp_store_mb: 'deref',
  smp_store_release: 'pointer',
  atomic_set: 'pointer',
  atomic_set_release: 'pointer',
};

const FENCES = new Set([
  'smp_mb',
  'smp_rmb',
  'smp_wmb',
  'barrier',
  'smp_mb__before_atomic',
  'smp_mb__after_atomic',
  'smp_mb__after_spinlock',
  'smp_mb__after_unlock_lock',
  'smp_mb__after_srcu_read_unlock',
  'rcu_read_lock',
  'rcu_read_unlock',
  'synchronize_rcu',
  'synchronize_rcu_expedited',
]);

/** Numbers one thread's code from `first`, following `run`; returns the next free number. */
function numberThread(
  body: Stmt,
  run: ThreadRun,
  first: number,
): { next: number; numbers: ThreadNumbers } {
  let counter = first;
  const reads = run.events.filter((e) => e.dir === 'R' && !isLockEvent(e.tags));
  const numbers: ThreadNumbers = { reads: reads.map(() => []), used: new Set() };
  const fresh = () => counter++;
  /** An operation (or an address) on values held on the way: their reads are used. */
  const use = (w: Way, ...held: Held[]) => {
    if (w.followed) for (const h of held) if (h.copies >= 0) numbers.used.add(h.copies);
  };

  /** A register read: a new number, which copies what the register holds. */
  const readReg = (w: Way, name: string): Held => {
    const n = fresh();
    const held = w.regs.get(name) ?? { value: 0n, copies: -1 };
    if (w.followed && held.copies >= 0) numbers.reads[held.copies]?.push(n);
    return held;
  };

  /** A memory read at the location `loc` evaluates to. */
  const readMem = (w: Way, loc: Expr): Held => {
    use(w, value(w, loc));
    const n = fresh();
    if (!w.followed) return { value: 0n, copies: -1 };
    const k = w.next++;
    const e = reads[k];
    if (!e) throw new Unnumbered('more reads than the run made');
    numbers.reads[k]?.push(n);
    return { value: e.value, copies: k };
  };

  /** The location a `*e` or `e` argument names, as herd7's macros take it. */
  const location = (arg: Expr | undefined, form: 'deref' | 'pointer'): Expr => {
    if (!arg) throw new Unnumbered('no argument');
    if (form === 'pointer') return arg;
    if (arg.kind === 'unary' && arg.op === '*') return arg.arg;
    throw new Unnumbered('not a dereference');
  };

  function value(w: Way, e: Expr): Held {
    switch (e.kind) {
      case 'num':
        return { value: e.value, copies: -1 };
      case 'name':
        return readReg(w, e.name);
      case 'cast':
        return value(w, e.arg);
      case 'unary':
        if (e.op === '*') return readMem(w, e.arg);
        throw new Unnumbered(e.op);
      case 'binary': {
        const a = value(w, e.left);
        const b = value(w, e.right);
        // herd7 adds or ors a literal 0 away (no new number); any other operation on a
        // register's value, symbolic while herd7 builds the events, takes a number.
        const literal = (x: Expr) => x.kind === 'num' && x.value === 0n;
        if ((e.op === '+' || e.op === '|') && (literal(e.left) || literal(e.right)))
          return literal(e.left) ? b : a;
        if (e.left.kind === 'num' && e.right.kind === 'num')
          return { value: compute(e.op, a.value, b.value), copies: -1 };
        fresh();
        use(w, a, b);
        return { value: compute(e.op, a.value, b.value), copies: -1 };
      }
      case 'call': {
        const form = LOADS[e.callee];
        if (form) return readMem(w, location(e.args[0], form));
        if (/^(atomic_)?xchg(_relaxed|_acquire|_release)?$/.test(e.callee)) {
          // herd7's exchange: the location, the value written, then the read.
          const [at, v] = e.args;
          if (!at || !v) throw new Unnumbered(e.callee);
          use(w, value(w, at));
          value(w, v);
          return readMem(w, { kind: 'num', span: e.span, value: 0n, text: '0' });
        }
        throw new Unnumbered(e.callee);
      }
      default:
        throw new Unnumbered(e.kind);
    }
  }

  /** The ways a statement leaves, in herd7's order, each numbered as it is built. */
  function statement(w: Way, s: Stmt): Way[] {
    switch (s.kind) {
      case 'empty':
        return [w];
      case 'block':
        return list(w, s.body);
      case 'decl':
        for (const d of s.declarators)
          if (d.init) w.regs.set(d.name, value(w, d.init));
          else if (!w.regs.has(d.name)) w.regs.set(d.name, { value: 0n, copies: -1 });
        return [w];
      case 'expr':
        expression(w, s.expr);
        return [w];
      case 'if':
        return branch(w, s);
      default:
        throw new Unnumbered(s.kind);
    }
  }

  function expression(w: Way, e: Expr): void {
    if (e.kind === 'assign' && e.op === '=') {
      if (e.target.kind === 'name') w.regs.set(e.target.name, value(w, e.value));
      else if (e.target.kind === 'unary' && e.target.op === '*') {
        use(w, value(w, e.target.arg));
        value(w, e.value);
      } else throw new Unnumbered('assignment');
      return;
    }
    if (e.kind === 'call') {
      if (FENCES.has(e.callee)) return;
      const form = STORES[e.callee];
      if (form) {
        use(w, value(w, location(e.args[0], form)));
        value(w, e.args[1] ?? { kind: 'num', span: e.span, value: 0n, text: '0' });
        return;
      }
    }
    value(w, e);
  }

  /** `if`: the condition, then both ways once; the ways come out not-taken first. */
  function branch(w: Way, s: Stmt & { kind: 'if' }): Way[] {
    const comparison =
      s.cond.kind === 'binary' && ['==', '!=', '<', '<=', '>', '>='].includes(s.cond.op);
    const c = value(w, s.cond);
    if (!comparison) {
      fresh();
      use(w, c);
    }
    const taken = c.value !== 0n;
    const copy = (followed: boolean): Way => ({
      followed,
      regs: new Map(w.regs),
      next: w.next,
    });
    const thenWays = statement(copy(w.followed && taken), s.then);
    const elseWays = s.otherwise
      ? statement(copy(w.followed && !taken), s.otherwise)
      : [copy(w.followed && !taken)];
    return [...thenWays, ...elseWays].reverse();
  }

  /** A statement list: the first statement's ways, then the rest once for each of them. */
  function list(w: Way, body: readonly Stmt[]): Way[] {
    const [head, ...rest] = body;
    if (!head) return [w];
    const out: Way[] = [];
    for (const v of statement(w, head)) out.push(...list(v, rest));
    return out.reverse();
  }

  const ways = list({ followed: true, regs: new Map(), next: 0 }, [body]);
  const followed = ways.filter((v) => v.followed);
  if (followed.length !== 1 || followed[0]?.next !== reads.length)
    throw new Unnumbered('the run is not one way of the code');
  return { next: counter, numbers };
}

/** herd7's numbers for a candidate's unknowns, and whether herd7 would drop the candidate. */
export interface Numbering {
  /** herd7's number for each unknown (token). */
  readonly names: Map<bigint, number>;
  /** An unknown is computed with, tested or used as an address: herd7 drops the candidate. */
  readonly dropped: boolean;
}

/**
 * herd7's number for each unknown of a candidate: `unknowns` maps each token to the reads (event
 * ids) that return it, `runs` are the candidate's runs, thread by thread, and `threadOf` gives a
 * read's thread and its place among the run's reads. Null when a thread's code has a form this
 * file does not number.
 */
export function herdNumbers(
  program: Program,
  runs: readonly ThreadRun[],
  threadOf: (id: number) => { thread: number; read: number },
  unknowns: ReadonlyMap<bigint, readonly number[]>,
): Numbering | null {
  const bodies = program.items
    .filter((it) => it.kind === 'thread' && it.role === 'P')
    .sort((a, b) => (a.kind === 'thread' && b.kind === 'thread' ? a.index - b.index : 0));
  if (bodies.length !== runs.length) return null;
  const numbered: ThreadNumbers[] = [];
  let next = 1;
  try {
    bodies.forEach((it, t) => {
      if (it.kind !== 'thread') return;
      const r = numberThread(it.body, runs[t] as ThreadRun, next);
      next = r.next;
      numbered.push(r.numbers);
    });
  } catch (e) {
    if (e instanceof Unnumbered) return null;
    throw e;
  }
  const names = new Map<bigint, number>();
  let dropped = false;
  for (const [token, reads] of unknowns) {
    let top = 0;
    for (const id of reads) {
      const { thread, read } = threadOf(id);
      const at = numbered[thread];
      if (at?.used.has(read)) dropped = true;
      for (const n of at?.reads[read] ?? []) top = Math.max(top, n);
    }
    names.set(token, top);
  }
  return { names, dropped };
}
