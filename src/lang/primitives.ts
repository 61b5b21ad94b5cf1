// The kernel primitives a program may call, each lowered to the machine's steps as the lab's
// machine model says (docs/language.md has the table): a LOCK-prefixed read-modify-write is one
// step; a this_cpu operation is x86's single instruction (a load and a store that nothing on the
// CPU can split); spin_lock is one step that takes the lock or spins; smp_mb() drains the store
// buffer under TSO and takes no step under sc, the other barriers are x86's compiler barriers and
// emit nothing (the listing says so). Primitives the
// machine does not model (RCU, SRCU, bottom halves, sleeping locks) are refused by name.

import { Cond, Mode, Op } from '../machine/isa.ts';
import type { Expr } from './ast.ts';
import type { Reg } from './emit.ts';
import type { ExprGen } from './expressions.ts';
import { LangFault, type Span } from './source.ts';
import { BOOL, INT, S64, type Ty, typeName, wordsOf } from './types.ts';
import type { MemPlace, Val } from './values.ts';
import { count } from '../machine/count.ts';
import { Tag } from '../machine/tags.ts';

type Call = Expr & { kind: 'call' };

interface Primitive {
  /** How many arguments it takes. */
  readonly args: number;
  readonly lower: (g: ExprGen, a: readonly Expr[], call: Call) => Val;
}

const VOID: Val = { k: 'void' };
const table = new Map<string, Primitive>();

function def(names: string | readonly string[], args: number, lower: Primitive['lower']): void {
  for (const n of typeof names === 'string' ? [names] : names) table.set(n, { args, lower });
}

/** `name` and its _relaxed, _acquire and _release forms (the same step on this machine). */
function ordered(name: string): string[] {
  return [name, `${name}_relaxed`, `${name}_acquire`, `${name}_release`];
}

// ---- arguments -----------------------------------------------------------------------------------

/** The memory a pointer argument points to (`&x`, or a pointer parameter `x`). */
function pointee(g: ExprGen, e: Expr): MemPlace {
  const p = g.deref(g.value(e), e.span);
  if (p.k !== 'mem')
    throw new LangFault(
      e.span,
      'this needs a pointer to one word of memory, such as `&x` or a parameter `int *x`.',
    );
  return p;
}

/** The memory an lvalue argument names (`x`, `*p`, `fbc->count`, `per_cpu(v, 1)`). */
function lvalue(g: ExprGen, e: Expr): MemPlace {
  const p = g.place(e);
  if (p.k === 'local')
    throw new LangFault(
      e.span,
      `\`${p.name}\` is a local variable: READ_ONCE and its kind are for shared memory.`,
      'Read a local directly.',
    );
  if (p.k !== 'mem') throw new LangFault(e.span, 'this needs a variable in memory.');
  return p;
}

/** This CPU's element of a per-CPU variable argument (`v`, or `*p` for a __percpu pointer). */
function thisCpuArg(g: ExprGen, e: Expr): MemPlace {
  const p = g.place(e);
  if (p.k !== 'pcpuvar')
    throw new LangFault(
      e.span,
      'a this_cpu operation takes a per-CPU variable: DEFINE_PER_CPU(type, v) and then v, or *p for a `T __percpu *p`.',
    );
  return g.thisCpu(p.pc, p.elem);
}

/** A local variable argument (the `flags` of local_irq_save, the `&old` of try_cmpxchg). */
function localArg(g: ExprGen, e: Expr, what: string): Reg {
  const inner = e.kind === 'unary' && e.op === '&' ? e.arg : e;
  const p = g.place(inner);
  if (p.k !== 'local') throw new LangFault(e.span, `${what} must be a local variable.`);
  return p.r;
}

function atomicPlace(g: ExprGen, e: Expr, bits: 32 | 64 | 'long'): MemPlace {
  const p = pointee(g, e);
  const want = bits === 'long' ? g.mod.settings.wordBits : bits;
  // herd7's atomic_t operations are macros over a location, and its tests apply them to an
  // `int *` too (`atomic_cmpxchg(a, 1, 0)`): an int is the word an atomic_t is.
  if (bits === 32 && p.ty.k === 'int' && p.ty.name === 'int')
    return { ...p, ty: { k: 'atomic', bits: 32, name: 'atomic_t' } };
  if (p.ty.k !== 'atomic' || p.ty.bits !== want) {
    const name = bits === 32 ? 'atomic_t' : bits === 64 ? 'atomic64_t' : 'atomic_long_t';
    throw new LangFault(
      e.span,
      `this needs a pointer to an ${name}, and this points to ${typeName(p.ty)}.`,
    );
  }
  return p;
}

function lockPlace(g: ExprGen, e: Expr): MemPlace {
  const p = pointee(g, e);
  if (p.ty.k !== 'lock')
    throw new LangFault(e.span, `this needs a pointer to a spinlock_t, not to ${typeName(p.ty)}.`);
  return p;
}

/** A register holding −v (for atomic_sub and friends). */
function negated(g: ExprGen, e: Expr): Reg | bigint {
  const v = g.value(e);
  g.checkNumber(v, e.span);
  if (v.k === 'const') return -v.v;
  const d = g.temp();
  g.e.mov(d, 0n);
  g.e.arith(Op.Sub, d, d, g.reg(v, e.span));
  return d;
}

function operandValue(g: ExprGen, e: Expr): Reg | bigint {
  const v = g.value(e);
  g.checkNumber(v, e.span);
  return v.k === 'const' ? v.v : g.reg(v, e.span);
}

function valueTy(p: MemPlace): Ty {
  return wordsOf(p.ty) === 2 ? S64 : INT;
}

// ---- accesses --------------------------------------------------------------------------------------
//
// Each access carries the tag the kernel's memory model gives its primitive
// (tools/memory-model/linux-kernel.def): the machine ignores it, the axiomatic engine reads it.

/** The tag of an ordered primitive's form: `_relaxed` is Once, `_acquire`, `_release`, else Mb. */
function orderTag(callee: string): number {
  if (callee.endsWith('_relaxed')) return Tag.Once;
  if (callee.endsWith('_acquire')) return Tag.Acquire;
  if (callee.endsWith('_release')) return Tag.Release;
  return Tag.Mb;
}

const read = (g: ExprGen, p: MemPlace, atomic: boolean, tag: number): Val => {
  const r = g.temp();
  g.loadInto(p, r, atomic, tag);
  return { k: 'reg', r, ty: valueTy(p) };
};

def(['READ_ONCE', 'rcu_dereference', 'rcu_access_pointer', 'rcu_dereference_raw'], 1, (g, [x]) =>
  read(g, lvalue(g, x as Expr), false, Tag.Once),
);
def(['WRITE_ONCE', 'rcu_assign_pointer', 'RCU_INIT_POINTER'], 2, (g, [x, v], c) => {
  const p = lvalue(g, x as Expr);
  const tag = c.callee === 'rcu_assign_pointer' ? Tag.Release : Tag.Once;
  g.storeFrom(p, g.reg(g.value(v as Expr), (v as Expr).span), false, tag);
  return VOID;
});
def('smp_load_acquire', 1, (g, [x]) => read(g, pointee(g, x as Expr), false, Tag.Acquire));
def('smp_store_release', 2, (g, [x, v]) => {
  g.storeFrom(
    pointee(g, x as Expr),
    g.reg(g.value(v as Expr), (v as Expr).span),
    false,
    Tag.Release,
  );
  return VOID;
});
def('smp_store_mb', 2, (g, [x, v], c) => {
  g.storeFrom(lvalue(g, x as Expr), g.reg(g.value(v as Expr), (v as Expr).span), false, Tag.Once);
  g.e.plain(Op.Fence, { tag: Tag.Mb });
  g.note(
    c.span,
    'smp_store_mb(): a store and a full barrier (an xchg on x86); under TSO the barrier drains the store buffer, under sc it takes no step',
  );
  return VOID;
});

// ---- barriers, as x86 has them ------------------------------------------------------------------
//
// Only a full barrier does anything on x86: it drains the store buffer (docs/machine.md). The
// others are compiler barriers there (arch/x86/include/asm/barrier.h) and take no step; each is
// still in the program, tagged, for the kernel's memory model (memory lkmm), where what it orders
// on weaker CPUs is what it is for.

const FULL_BARRIERS: Readonly<Record<string, string>> = {
  smp_mb: 'a full barrier',
  mb: 'a full barrier',
};
for (const [name, what] of Object.entries(FULL_BARRIERS)) {
  def(name, 0, (g, _a, c) => {
    g.e.plain(Op.Fence, { tag: Tag.Mb });
    g.note(
      c.span,
      `${name}(): ${what}. Under TSO (memory tso) it drains this CPU's store buffer, one step; the sequentially consistent machine (memory sc) has nothing to drain and takes no step`,
    );
    return VOID;
  });
}
const X86_NO_OPS: Readonly<Record<string, readonly [number, string]>> = {
  smp_rmb: [
    Tag.Rmb,
    'a read barrier: a compiler barrier on x86, where loads are not reordered with loads',
  ],
  smp_wmb: [
    Tag.Wmb,
    'a write barrier: a compiler barrier on x86, where stores are not reordered with stores',
  ],
  rmb: [Tag.Rmb, 'a read barrier (lfence on x86): it does not drain the store buffer'],
  wmb: [Tag.Wmb, 'a write barrier (sfence on x86): it orders nothing plain stores need'],
  smp_mb__before_atomic: [
    Tag.BeforeAtomic,
    'a full barrier before an atomic: nothing on x86, where the atomic is LOCK-prefixed and drains the buffer itself',
  ],
  smp_mb__after_atomic: [
    Tag.AfterAtomic,
    'a full barrier after an atomic: nothing on x86, where the atomic is LOCK-prefixed and drains the buffer itself',
  ],
  smp_mb__after_spinlock: [
    Tag.AfterSpinlock,
    'nothing on x86: taking the lock was a LOCK operation, a full barrier',
  ],
  smp_mb__after_unlock_lock: [
    Tag.AfterUnlockLock,
    'nothing on x86: an unlock followed by a LOCKed lock is a full barrier',
  ],
  smp_read_barrier_depends: [0, 'a dependency barrier: nothing on x86, and gone from the kernel'],
};
for (const [name, [tag, what]] of Object.entries(X86_NO_OPS)) {
  def(name, 0, (g, _a, c) => {
    if (tag !== 0) g.e.plain(Op.NoFence, { tag });
    g.note(
      c.span,
      `${name}(): ${what}. It takes no step under sc and tso; under the kernel's memory model (memory lkmm) it orders what the model says it orders`,
    );
    return VOID;
  });
}
def('barrier', 0, (g, _a, c) => {
  g.e.plain(Op.NoFence, { tag: Tag.Barrier });
  g.note(
    c.span,
    'barrier(): a compiler barrier; the lab keeps every access in program order anyway',
  );
  return VOID;
});
def('cpu_relax', 0, (g, _a, c) => {
  g.note(c.span, 'cpu_relax(): a pause in a spin loop; it takes no step in the model');
  return VOID;
});

// ---- atomic_t, atomic64_t, atomic_long_t ------------------------------------------------------------

for (const [prefix, bits] of [
  ['atomic', 32],
  ['atomic64', 64],
  ['atomic_long', 'long'],
] as const) {
  const at = (g: ExprGen, e: Expr) => atomicPlace(g, e, bits);
  /** A LOCK-prefixed read-modify-write of p: dst gets the new value (add) or the old (or, and, xor). */
  const rmw = (
    g: ExprGen,
    op: number,
    p: MemPlace,
    v: Reg | bigint,
    dst: Reg | null,
    tag: number,
  ) => {
    const d = g.e.atomic(op, g.operand(p, wordsOf(p.ty) === 2 ? 64 : 32), v, dst);
    d.tag = tag;
    g.markWrite(d, p);
  };
  def([`${prefix}_read`, `${prefix}_read_acquire`], 1, (g, [x], c) =>
    read(g, at(g, x as Expr), true, c.callee.endsWith('_acquire') ? Tag.Acquire : Tag.Once),
  );
  def([`${prefix}_set`, `${prefix}_set_release`], 2, (g, [x, v], c) => {
    const p = at(g, x as Expr);
    const tag = c.callee.endsWith('_release') ? Tag.Release : Tag.Once;
    g.storeFrom(p, g.reg(g.value(v as Expr), (v as Expr).span), true, tag);
    return VOID;
  });
  // The forms that return nothing: their read is `Noreturn` (no smp_rmb() orders it).
  def(`${prefix}_add`, 2, (g, [v, x]) => {
    rmw(g, Op.AtomicAdd, at(g, x as Expr), operandValue(g, v as Expr), null, Tag.Noreturn);
    return VOID;
  });
  def(`${prefix}_sub`, 2, (g, [v, x]) => {
    rmw(g, Op.AtomicAdd, at(g, x as Expr), negated(g, v as Expr), null, Tag.Noreturn);
    return VOID;
  });
  def(`${prefix}_inc`, 1, (g, [x]) => {
    rmw(g, Op.AtomicAdd, at(g, x as Expr), 1n, null, Tag.Noreturn);
    return VOID;
  });
  def(`${prefix}_dec`, 1, (g, [x]) => {
    rmw(g, Op.AtomicAdd, at(g, x as Expr), -1n, null, Tag.Noreturn);
    return VOID;
  });
  // The _return forms give the new value, the fetch_ forms the old one.
  type Delta = (g: ExprGen, a: readonly Expr[]) => { x: Expr; v: Reg | bigint };
  const returning = (name: string, args: number, delta: Delta, fetch: boolean) => {
    def(ordered(name), args, (g, a, c) => {
      const { x, v } = delta(g, a);
      const p = at(g, x);
      const d = g.temp();
      rmw(g, Op.AtomicAdd, p, v, d, orderTag(c.callee));
      if (fetch) g.e.arith(Op.Sub, d, d, v);
      return { k: 'reg', r: d, ty: valueTy(p) };
    });
  };
  for (const fetch of [false, true]) {
    const name = (op: string) => (fetch ? `${prefix}_fetch_${op}` : `${prefix}_${op}_return`);
    returning(
      name('add'),
      2,
      (g, [v, x]) => ({ x: x as Expr, v: operandValue(g, v as Expr) }),
      fetch,
    );
    returning(name('sub'), 2, (g, [v, x]) => ({ x: x as Expr, v: negated(g, v as Expr) }), fetch);
    returning(name('inc'), 1, (_g, [x]) => ({ x: x as Expr, v: 1n }), fetch);
    returning(name('dec'), 1, (_g, [x]) => ({ x: x as Expr, v: -1n }), fetch);
  }
  def(ordered(`${prefix}_xchg`), 2, (g, [x, v], c) =>
    xchg(g, at(g, x as Expr), v as Expr, orderTag(c.callee)),
  );
  def(ordered(`${prefix}_cmpxchg`), 3, (g, [x, o, n], c) =>
    cmpxchg(g, at(g, x as Expr), o as Expr, n as Expr, orderTag(c.callee)),
  );
  def(ordered(`${prefix}_try_cmpxchg`), 3, (g, [x, o, n], c) =>
    tryCmpxchg(g, at(g, x as Expr), o as Expr, n as Expr, orderTag(c.callee)),
  );
  const tested = (
    names: readonly string[],
    args: number,
    cond: number,
    delta: (g: ExprGen, a: readonly Expr[]) => { x: Expr; v: Reg | bigint },
  ) => {
    def(names, args, (g, a, c) => {
      const { x, v } = delta(g, a);
      const p = at(g, x);
      const d = g.temp();
      rmw(g, Op.AtomicAdd, p, v, d, orderTag(c.callee));
      g.e.setCond(cond, d, d, 0n);
      return { k: 'reg', r: d, ty: BOOL };
    });
  };
  tested([`${prefix}_sub_and_test`], 2, Cond.Eq, (g, [v, x]) => ({
    x: x as Expr,
    v: negated(g, v as Expr),
  }));
  tested([`${prefix}_dec_and_test`], 1, Cond.Eq, (_g, [x]) => ({ x: x as Expr, v: -1n }));
  tested([`${prefix}_inc_and_test`], 1, Cond.Eq, (_g, [x]) => ({ x: x as Expr, v: 1n }));
  tested(ordered(`${prefix}_add_negative`), 2, Cond.Lt, (g, [v, x]) => ({
    x: x as Expr,
    v: operandValue(g, v as Expr),
  }));
  def(`${prefix}_add_unless`, 3, (g, [x, a, u]) =>
    addUnless(g, at(g, x as Expr), a as Expr, u as Expr, false),
  );
  def(`${prefix}_fetch_add_unless`, 3, (g, [x, a, u]) =>
    addUnless(g, at(g, x as Expr), a as Expr, u as Expr, true),
  );
  def(`${prefix}_inc_not_zero`, 1, (g, [x], c) =>
    addUnless(
      g,
      at(g, x as Expr),
      { kind: 'num', span: c.span, value: 1n, text: '1' },
      { kind: 'num', span: c.span, value: 0n, text: '0' },
      false,
    ),
  );
  // The bit operations: one LOCK instruction each, returning the old value where asked.
  for (const [op, code, invert] of [
    ['or', Op.AtomicOr, false],
    ['and', Op.AtomicAnd, false],
    ['andnot', Op.AtomicAnd, true],
    ['xor', Op.AtomicXor, false],
  ] as const) {
    const mask = (g: ExprGen, v: Expr): Reg | bigint => {
      const m = operandValue(g, v);
      if (!invert) return m;
      if (typeof m === 'bigint') return ~m;
      const d = g.temp();
      g.e.arith(Op.Xor, d, m, -1n);
      return d;
    };
    def(`${prefix}_${op}`, 2, (g, [v, x]) => {
      rmw(g, code, at(g, x as Expr), mask(g, v as Expr), null, Tag.Noreturn);
      return VOID;
    });
    def(ordered(`${prefix}_fetch_${op}`), 2, (g, [v, x], c) => {
      const p = at(g, x as Expr);
      const d = g.temp();
      rmw(g, code, p, mask(g, v as Expr), d, orderTag(c.callee));
      return { k: 'reg', r: d, ty: valueTy(p) };
    });
  }
}

/** dst = xchg(*p, v): the value found; it stored v. */
function xchg(g: ExprGen, p: MemPlace, v: Expr, tag: number): Val {
  const d = g.temp();
  const ins = g.e.xchg(d, g.operand(p), g.reg(g.value(v), v.span));
  ins.tag = tag;
  g.markWrite(ins, p);
  return { k: 'reg', r: d, ty: valueTy(p) };
}

/** dst = cmpxchg(*p, old, new): the value found; it stored `new` if that was `old`. */
function cmpxchg(g: ExprGen, p: MemPlace, o: Expr, n: Expr, tag: number): Val {
  const expected = g.reg(g.value(o), o.span);
  const next = g.reg(g.value(n), n.span);
  const d = g.temp();
  const ins = g.e.cmpxchg(d, g.operand(p), expected, next);
  ins.tag = tag;
  g.markWrite(ins, p);
  return { k: 'reg', r: d, ty: valueTy(p) };
}

/**
 * try_cmpxchg(p, &old, new): true if it stored; else old = the value found. The flag is set on
 * each path by a constant, so a loop around it (`while (!try_cmpxchg(…))`) is seen to exit on
 * success only (tally.ts places an add's tally by following such flags).
 */
function tryCmpxchg(g: ExprGen, p: MemPlace, o: Expr, n: Expr, tag: number): Val {
  const old = localArg(g, o, 'try_cmpxchg’s expected value (&old)');
  const next = g.reg(g.value(n), n.span);
  const d = g.temp();
  const ins = g.e.cmpxchg(d, g.operand(p), old, next);
  ins.tag = tag;
  g.markWrite(ins, p);
  return outcomeOf(g, d, old);
}

/**
 * ok = (found == old), as a constant on each path; on failure old = found. `matched` emits what
 * runs only when they match (a local cmpxchg's store).
 */
function outcomeOf(g: ExprGen, found: Reg, old: Reg, matched: () => void = () => undefined): Val {
  const ok = g.temp();
  const fail = g.e.label();
  const join = g.e.label();
  g.e.branch(Cond.Ne, found, old, fail);
  matched();
  g.e.mov(ok, 1n);
  g.e.jump(join);
  g.e.bind(fail);
  g.e.mov(ok, 0n);
  g.e.mov(old, found);
  g.e.bind(join);
  return { k: 'reg', r: ok, ty: BOOL };
}

/**
 * add_unless(p, a, u): adds a unless the value is u, in one step (the kernel's cmpxchg loop, seen
 * from outside); says whether it added, or gives the old value (fetch_add_unless). Fully ordered
 * when it adds, as the kernel's memory model has it.
 */
function addUnless(g: ExprGen, p: MemPlace, a: Expr, u: Expr, fetch: boolean): Val {
  const amount = operandValue(g, a);
  const unless = g.reg(g.value(u), u.span);
  const old = g.temp();
  const d = g.e.atomic(Op.AddUnless, g.operand(p, wordsOf(p.ty) === 2 ? 64 : 32), amount, old);
  d.src2 = unless.index;
  d.tag = Tag.Mb;
  g.markWrite(d, p);
  if (fetch) return { k: 'reg', r: old, ty: valueTy(p) };
  const added = g.temp();
  g.e.setCond(Cond.Ne, added, old, unless);
  return { k: 'reg', r: added, ty: BOOL };
}

// ---- xchg and cmpxchg on plain words -------------------------------------------------------------------

def(ordered('xchg'), 2, (g, [x, v], c) =>
  xchg(g, pointee(g, x as Expr), v as Expr, orderTag(c.callee)),
);
def([...ordered('cmpxchg'), 'cmpxchg64', 'cmpxchg64_relaxed'], 3, (g, [x, o, n], c) =>
  cmpxchg(g, pointee(g, x as Expr), o as Expr, n as Expr, orderTag(c.callee)),
);
def(ordered('try_cmpxchg'), 3, (g, [x, o, n], c) =>
  tryCmpxchg(g, pointee(g, x as Expr), o as Expr, n as Expr, orderTag(c.callee)),
);
def(['cmpxchg_local', 'cmpxchg64_local'], 3, (g, [x, o, n]) =>
  localCmpxchg(g, pointee(g, x as Expr), o as Expr, n as Expr),
);

/**
 * x86's cmpxchg without LOCK (cmpxchg_local, this_cpu_cmpxchg): one instruction, so nothing on
 * this CPU comes between its load and its store, but another CPU may.
 */
function localCmpxchg(g: ExprGen, p: MemPlace, o: Expr, n: Expr): Val {
  const expected = g.reg(g.value(o), o.span);
  const next = g.reg(g.value(n), n.span);
  const d = g.temp();
  const done = g.e.label();
  g.loadInto(p, d, true, Tag.Once);
  g.e.branch(Cond.Ne, d, expected, done);
  const st = g.storeFrom(p, next, true, Tag.Once);
  st.tail = true;
  g.e.bind(done);
  return { k: 'reg', r: d, ty: valueTy(p) };
}

// ---- locks ---------------------------------------------------------------------------------------------

for (const raw of ['', 'raw_']) {
  def(`${raw}spin_lock`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    g.markWrite(g.e.lockOp(Op.SpinLock, g.operand(p, 32)), p);
    return VOID;
  });
  def(`${raw}spin_unlock`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    g.markWrite(g.e.lockOp(Op.SpinUnlock, g.operand(p, 32)), p);
    return VOID;
  });
  def(`${raw}spin_trylock`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    const d = g.temp();
    g.markWrite(g.e.lockOp(Op.SpinTrylock, g.operand(p, 32), d), p);
    return { k: 'reg', r: d, ty: BOOL };
  });
  def(`${raw}spin_is_locked`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    const d = g.temp();
    // Tagged as the memory model's lock test: it sees the lock held (RL) or free (RU).
    g.e.load(d, g.operand(p, 32)).tag = Tag.Rl;
    g.e.setCond(Cond.Ne, d, d, 0n);
    return { k: 'reg', r: d, ty: BOOL };
  });
  def(`${raw}spin_lock_irqsave`, 2, (g, [x, f]) => {
    const p = lockPlace(g, x as Expr);
    g.e.plain(Op.IrqSave, { dst: localArg(g, f as Expr, 'the flags').index });
    g.markWrite(g.e.lockOp(Op.SpinLock, g.operand(p, 32)), p);
    return VOID;
  });
  def(`${raw}spin_unlock_irqrestore`, 2, (g, [x, f]) => {
    const p = lockPlace(g, x as Expr);
    g.markWrite(g.e.lockOp(Op.SpinUnlock, g.operand(p, 32)), p);
    g.e.plain(Op.IrqRestore, { src: localArg(g, f as Expr, 'the flags').index });
    return VOID;
  });
  def(`${raw}spin_lock_irq`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    g.e.plain(Op.IrqDisable);
    g.markWrite(g.e.lockOp(Op.SpinLock, g.operand(p, 32)), p);
    return VOID;
  });
  def(`${raw}spin_unlock_irq`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    g.markWrite(g.e.lockOp(Op.SpinUnlock, g.operand(p, 32)), p);
    g.e.plain(Op.IrqEnable);
    return VOID;
  });
  def(`${raw}spin_lock_init`, 1, (g, [x]) => {
    const p = lockPlace(g, x as Expr);
    const z = g.temp();
    g.e.mov(z, 0n);
    g.e.store(g.operand(p, 32), z);
    return VOID;
  });
}

// ---- lglock (2.6.39 include/linux/lglock.h): one spinlock per CPU -------------------------------------
//
// A lock declared as `spinlock_t __percpu *lock`. lg_local_lock takes this CPU's (the API's
// preempt_disable() is folded into the lock step, which disables preemption anyway);
// lg_global_lock takes every CPU's lock in CPU order, one step each.

/** The per-CPU lock variable an lglock argument names. */
function lglockArg(g: ExprGen, e: Expr): { pc: import('../machine/layout.ts').PerCpuCell } {
  const v = g.value(e);
  if (v.k !== 'pcpu' || v.elem.k !== 'lock')
    throw new LangFault(
      e.span,
      'an lglock here is a per-CPU spinlock: a `spinlock_t __percpu *` field.',
    );
  return { pc: v.pc };
}

def(['lg_local_lock', 'lg_local_unlock'], 1, (g, [x], c) => {
  const { pc } = lglockArg(g, x as Expr);
  const p = g.thisCpu(pc, { k: 'lock', name: 'spinlock_t' });
  const op = c.callee === 'lg_local_lock' ? Op.SpinLock : Op.SpinUnlock;
  g.markWrite(g.e.lockOp(op, g.operand(p, 32)), p);
  return VOID;
});
def(['lg_global_lock', 'lg_global_unlock'], 1, (g, [x], c) => {
  const { pc } = lglockArg(g, x as Expr);
  const op = c.callee === 'lg_global_lock' ? Op.SpinLock : Op.SpinUnlock;
  const i = g.temp();
  g.e.mov(i, 0n);
  for (let k = 0; k < pc.count; k++) {
    const p = g.element(
      pc,
      { k: 'lock', name: 'spinlock_t' },
      { k: 'reg', r: i, ty: INT },
      (x as Expr).span,
    );
    g.markWrite(g.e.lockOp(op, g.operand(p, 32)), p);
    g.e.arith(Op.Add, i, i, 1n);
  }
  return VOID;
});

// ---- preemption, interrupts, CPU numbers --------------------------------------------------------------

def('preempt_disable', 0, (g) => {
  g.e.plain(Op.PreemptDisable);
  return VOID;
});
def(['preempt_enable', 'preempt_enable_no_resched'], 0, (g) => {
  g.e.plain(Op.PreemptEnable);
  return VOID;
});
def(['smp_processor_id', 'raw_smp_processor_id'], 0, (g) => {
  const d = g.temp();
  g.e.plain(Op.CpuId, { dst: d.index });
  return { k: 'reg', r: d, ty: INT };
});
def('get_cpu', 0, (g) => {
  g.e.plain(Op.PreemptDisable);
  const d = g.temp();
  g.e.plain(Op.CpuId, { dst: d.index });
  return { k: 'reg', r: d, ty: INT };
});
def('put_cpu', 0, (g) => {
  g.e.plain(Op.PreemptEnable);
  return VOID;
});
def(['num_online_cpus', 'num_possible_cpus', 'num_present_cpus'], 0, (g) => ({
  k: 'const',
  v: BigInt(g.mod.settings.cpus),
  ty: INT,
}));
for (const raw of ['', 'raw_']) {
  def(`${raw}local_irq_save`, 1, (g, [f]) => {
    g.e.plain(Op.IrqSave, { dst: localArg(g, f as Expr, 'the flags').index });
    return VOID;
  });
  def(`${raw}local_irq_restore`, 1, (g, [f]) => {
    g.e.plain(Op.IrqRestore, { src: localArg(g, f as Expr, 'the flags').index });
    return VOID;
  });
  def(`${raw}local_irq_disable`, 0, (g) => {
    g.e.plain(Op.IrqDisable);
    return VOID;
  });
  def(`${raw}local_irq_enable`, 0, (g) => {
    g.e.plain(Op.IrqEnable);
    return VOID;
  });
}

// ---- per-CPU operations ----------------------------------------------------------------------------------

def(['this_cpu_ptr', 'raw_cpu_ptr'], 1, (g, [x]) => {
  const v = g.value(x as Expr);
  if (v.k !== 'pcpu')
    throw new LangFault(
      (x as Expr).span,
      'this_cpu_ptr() takes a per-CPU pointer: &v for DEFINE_PER_CPU(T, v), or a `T __percpu *`.',
    );
  const d = g.temp();
  g.e.plain(Op.AddrGen, { dst: d.index, mode: Mode.ThisCpu, base: v.pc.base, stride: v.pc.stride });
  return {
    k: 'reg',
    r: d,
    ty: { k: 'ptr', to: v.elem },
    points: { k: 'percpu', pc: v.pc, ty: v.elem },
  };
});
def('per_cpu_ptr', 2, (g, [x, cpu]) => {
  const v = g.value(x as Expr);
  if (v.k !== 'pcpu')
    throw new LangFault((x as Expr).span, 'per_cpu_ptr() takes a per-CPU pointer.');
  const idx = g.value(cpu as Expr);
  g.checkNumber(idx, (cpu as Expr).span);
  return { k: 'elem', pc: v.pc, elem: v.elem, idx, ty: { k: 'ptr', to: v.elem } };
});
def('per_cpu', 2, (g, _a, c) => read(g, g.perCpuElement(c), false, 0));

for (const pre of ['this_cpu', '__this_cpu', 'raw_cpu']) {
  def(`${pre}_read`, 1, (g, [x]) => read(g, thisCpuArg(g, x as Expr), true, Tag.Once));
  def(`${pre}_write`, 2, (g, [x, v]) => {
    const p = thisCpuArg(g, x as Expr);
    g.storeFrom(p, g.reg(g.value(v as Expr), (v as Expr).span), true, Tag.Once);
    return VOID;
  });
  const local = (
    name: string,
    args: number,
    op: (g: ExprGen, a: readonly Expr[], prev: Reg, next: Reg) => void,
    result: 'none' | 'new' | 'old',
  ) => {
    def(`${pre}_${name}`, args, (g, a) => {
      const p = thisCpuArg(g, a[0] as Expr);
      const prev = g.temp();
      const next = g.temp();
      g.loadInto(p, prev, true, Tag.Once);
      op(g, a, prev, next);
      const st = g.storeFrom(p, next, true, Tag.Once);
      st.tail = true;
      if (result === 'none') return VOID;
      return { k: 'reg', r: result === 'new' ? next : prev, ty: valueTy(p) };
    });
  };
  const add =
    (sign: 1n | -1n, fixed: bigint | null) =>
    (g: ExprGen, a: readonly Expr[], prev: Reg, next: Reg) => {
      if (fixed !== null) g.e.arith(Op.Add, next, prev, fixed);
      else {
        const v = sign === 1n ? operandValue(g, a[1] as Expr) : negated(g, a[1] as Expr);
        g.e.arith(Op.Add, next, prev, v);
      }
    };
  local('add', 2, add(1n, null), 'none');
  local('sub', 2, add(-1n, null), 'none');
  local('inc', 1, add(1n, 1n), 'none');
  local('dec', 1, add(1n, -1n), 'none');
  local('add_return', 2, add(1n, null), 'new');
  local('sub_return', 2, add(-1n, null), 'new');
  local('inc_return', 1, add(1n, 1n), 'new');
  local('dec_return', 1, add(1n, -1n), 'new');
  local(
    'xchg',
    2,
    (g, a, _prev, next) => {
      g.valueInto(a[1] as Expr, next);
    },
    'old',
  );
  local(
    'and',
    2,
    (g, a, prev, next) => {
      g.e.arith(Op.And, next, prev, operandValue(g, a[1] as Expr));
    },
    'none',
  );
  local(
    'or',
    2,
    (g, a, prev, next) => {
      g.e.arith(Op.Or, next, prev, operandValue(g, a[1] as Expr));
    },
    'none',
  );
  def(`${pre}_cmpxchg`, 3, (g, [x, o, n]) => {
    const p = thisCpuArg(g, x as Expr);
    return localCmpxchg(g, p, o as Expr, n as Expr);
  });
  def(`${pre}_try_cmpxchg`, 3, (g, [x, o, n]) => {
    const p = thisCpuArg(g, x as Expr);
    const old = localArg(g, o as Expr, 'this_cpu_try_cmpxchg’s expected value (&old)');
    const next = g.reg(g.value(n as Expr), (n as Expr).span);
    const d = g.temp();
    g.loadInto(p, d, true, Tag.Once);
    return outcomeOf(g, d, old, () => {
      g.storeFrom(p, next, true, Tag.Once).tail = true;
    });
  });
}

// ---- small helpers of kernel C ---------------------------------------------------------------------------

def('abs', 1, (g, [x]) => {
  const v = g.value(x as Expr);
  g.checkNumber(v, (x as Expr).span);
  if (v.k === 'const') return { ...v, v: v.v < 0n ? -v.v : v.v };
  const r = g.reg(v, (x as Expr).span);
  const d = g.temp();
  const done = g.e.label();
  g.e.mov(d, r);
  g.e.branch(Cond.Ge, r, 0n, done);
  g.e.mov(d, 0n);
  g.e.arith(Op.Sub, d, d, r);
  g.e.bind(done);
  return { k: 'reg', r: d, ty: v.k === 'reg' ? v.ty : INT };
});
for (const name of ['min', 'max']) {
  def(name, 2, (g, [a, b]) => {
    const x = g.reg(g.value(a as Expr), (a as Expr).span);
    const y = g.reg(g.value(b as Expr), (b as Expr).span);
    const d = g.temp();
    const done = g.e.label();
    g.e.mov(d, x);
    g.e.branch(name === 'min' ? Cond.Le : Cond.Ge, x, y, done);
    g.e.mov(d, y);
    g.e.bind(done);
    return { k: 'reg', r: d, ty: S64 };
  });
}

// ---- RCU and SRCU ------------------------------------------------------------------------------------
//
// Under the kernel's memory model (memory lkmm) they are the model's events: rcu_read_lock() a
// fence tagged Rcu-lock, srcu_read_lock(s) a read of s tagged Srcu-lock (tools/memory-model/
// linux-kernel.def), and the model's RCU axiom judges them. Under sc and tso the machine runs a
// grace period: each thread has a word of read-side state (nesting in the low byte, a count of
// the sections it has left above it); synchronize_rcu() notes, for every other thread inside a
// section, that word, and waits until it changes (the thread has left that section) or the
// thread is outside any. So it waits exactly for the readers that were inside when it began.

/** A thread's read-side word: for RCU, or for the SRCU domain `srcu`. */
function readerWord(g: ExprGen, thread: string, srcu: MemPlace | null): MemPlace {
  const name = srcu ? `${srcu.owner ?? 'srcu'}@${thread}` : `rcu@${thread}`;
  const label = srcu
    ? `${thread}'s ${srcu.owner ?? 'SRCU'} readers`
    : `${thread}'s RCU read-side state`;
  const cell = g.mod.hiddenCell(name, label);
  return { k: 'mem', mode: Mode.Abs, base: cell.addr, stride: 0, reg: null, ty: INT, owner: name };
}

function enterReader(g: ExprGen, srcu: MemPlace | null): void {
  const d = g.e.atomic(Op.AtomicAdd, g.operand(readerWord(g, g.thread.name, srcu)), 1n, null);
  d.say = srcu
    ? `{who} enters a read-side section of ${srcu.owner ?? 'its SRCU domain'}`
    : '{who} enters an RCU read-side critical section';
}

function leaveReader(g: ExprGen, srcu: MemPlace | null): void {
  const word = g.operand(readerWord(g, g.thread.name, srcu));
  const nest = g.temp();
  const left = g.e.atomic(Op.AtomicAdd, word, -1n, nest);
  left.say = srcu
    ? `{who} leaves a read-side section of ${srcu.owner ?? 'its SRCU domain'}`
    : '{who} leaves an RCU read-side critical section';
  const inner = g.e.label();
  g.e.branch(Cond.BitSet, nest, 0xffn, inner);
  g.e.atomic(Op.AtomicAdd, word, 256n, null).say =
    '{who} is outside every read-side section: a grace period waiting for it may end';
  g.e.bind(inner);
}

function gracePeriod(g: ExprGen, srcu: MemPlace | null): void {
  g.e.plain(Op.Fence, { tag: Tag.Mb });
  for (const t of g.mod.threads) {
    if (t.item.role !== 'P' || t.name === g.thread.name) continue;
    const word = g.operand(readerWord(g, t.name, srcu));
    const seen = g.temp();
    g.e.load(seen, word).say =
      `{who} starts a grace period and looks at ${t.name}'s read-side state: {v}`;
    const done = g.e.label();
    g.e.branch(Cond.BitClear, seen, 0xffn, done);
    const again = g.e.label();
    g.e.bind(again);
    const now = g.temp();
    g.e.load(now, word).say = `{who} waits for ${t.name} to leave its read-side section`;
    g.e.branch(Cond.Eq, now, seen, again);
    g.e.bind(done);
  }
  g.e.plain(Op.Fence, { tag: Tag.Mb });
}

/** The srcu_struct an SRCU primitive names. */
function srcuPlace(g: ExprGen, e: Expr): MemPlace {
  const p = pointee(g, e);
  if (p.ty.k !== 'srcu' || p.mode !== Mode.Abs)
    throw new LangFault(
      e.span,
      'this needs a pointer to a struct srcu_struct, as `s` for a parameter `struct srcu_struct *s`.',
    );
  return p;
}

function inHandler(g: ExprGen, c: Call): void {
  if (g.thread.item.role !== 'P')
    throw new LangFault(
      c.span,
      `\`${c.callee}\` in an interrupt handler is not modelled: read-side sections belong to the threads P0, P1, …`,
    );
}

def('rcu_read_lock', 0, (g, _a, c) => {
  inHandler(g, c);
  if (g.ctx.memory === 'lkmm') g.e.plain(Op.NoFence, { tag: Tag.RcuLock });
  else enterReader(g, null);
  return VOID;
});
def('rcu_read_unlock', 0, (g, _a, c) => {
  inHandler(g, c);
  if (g.ctx.memory === 'lkmm') g.e.plain(Op.NoFence, { tag: Tag.RcuUnlock });
  else leaveReader(g, null);
  return VOID;
});
def(['synchronize_rcu', 'synchronize_rcu_expedited'], 0, (g, _a, c) => {
  inHandler(g, c);
  if (g.ctx.memory === 'lkmm') g.e.plain(Op.NoFence, { tag: Tag.SyncRcu });
  else gracePeriod(g, null);
  return VOID;
});
def(['srcu_read_lock', 'srcu_down_read'], 1, (g, [s], c) => {
  inHandler(g, c);
  const p = srcuPlace(g, s as Expr);
  if (g.ctx.memory === 'lkmm') return read(g, p, false, Tag.SrcuLock);
  enterReader(g, p);
  return { k: 'const', v: 0n, ty: INT };
});
def(['srcu_read_unlock', 'srcu_up_read'], 2, (g, [s, i], c) => {
  inHandler(g, c);
  const p = srcuPlace(g, s as Expr);
  const idx = g.reg(g.value(i as Expr), (i as Expr).span);
  if (g.ctx.memory === 'lkmm') g.storeFrom(p, idx, false, Tag.SrcuUnlock);
  else leaveReader(g, p);
  return VOID;
});
def(['synchronize_srcu', 'synchronize_srcu_expedited'], 1, (g, [s], c) => {
  inHandler(g, c);
  const p = srcuPlace(g, s as Expr);
  if (g.ctx.memory === 'lkmm')
    g.e.plain(Op.NoFence, { tag: Tag.SyncSrcu, mode: Mode.Abs, base: p.base, width: 32 });
  else gracePeriod(g, p);
  return VOID;
});
def('smp_mb__after_srcu_read_unlock', 0, (g) => {
  g.e.plain(Op.NoFence, { tag: Tag.AfterSrcuReadUnlock });
  return VOID;
});

// ---- what the machine does not model ----------------------------------------------------------------------

const REFUSED: Readonly<Record<string, string>> = {
  call_rcu: 'RCU callbacks are not modelled.',
  rcu_barrier: 'RCU callbacks are not modelled.',
  local_bh_disable: 'softirqs (bottom halves) are not modelled; the machine has IRQs and NMIs.',
  local_bh_enable: 'softirqs (bottom halves) are not modelled; the machine has IRQs and NMIs.',
  spin_lock_bh: 'softirqs (bottom halves) are not modelled: use spin_lock_irqsave, or spin_lock.',
  spin_unlock_bh: 'softirqs (bottom halves) are not modelled.',
  read_lock: 'reader-writer locks are not modelled: use a spinlock.',
  read_unlock: 'reader-writer locks are not modelled.',
  write_lock: 'reader-writer locks are not modelled: use a spinlock.',
  write_unlock: 'reader-writer locks are not modelled.',
  mutex_lock: 'sleeping locks are not modelled: a task never sleeps here; use a spinlock.',
  mutex_unlock: 'sleeping locks are not modelled.',
  down: 'semaphores are not modelled.',
  up: 'semaphores are not modelled.',
  schedule:
    'a task cannot give up its CPU by itself here: preemption is a scheduler event (pre0 in a schedule).',
  msleep: 'time is not modelled: a step is a step.',
  udelay: 'time is not modelled: a step is a step.',
  kmalloc: 'allocation is not modelled: declare the variables the program needs.',
  kfree: 'allocation is not modelled.',
  alloc_percpu:
    'per-CPU allocation is implicit: a `T __percpu *` field of a global struct gets one element per CPU.',
  free_percpu: 'per-CPU allocation is implicit.',
  printk: 'there is no console: record(name, value) makes a value an observable.',
  pr_info: 'there is no console: record(name, value) makes a value an observable.',
  BUG_ON: 'write the condition as an invariant: `invariant always name: …`.',
  WARN_ON: 'write the condition as an invariant: `invariant always name: …`.',
  WARN_ON_ONCE: 'write the condition as an invariant: `invariant always name: …`.',
  irqs_disabled: 'reading the interrupt flag is not supported yet.',
  in_interrupt: 'reading the context is not supported yet.',
  might_sleep: 'sleeping is not modelled.',
  lockdep_assert_held: 'lockdep is not modelled.',
  this_cpu_generic_read:
    'write the generic fallback out: preempt_disable(); v = __this_cpu_read(x); preempt_enable().',
};

/** Every name a program may call besides its own functions (for "did you mean"). */
export function primitiveNames(): string[] {
  return [...table.keys(), 'record'];
}

export function refusedReason(name: string): string | undefined {
  return REFUSED[name];
}

/** The primitive of this name, or undefined. */
export function primitive(name: string): Primitive | undefined {
  return table.get(name);
}

/** Checks a call's argument count against the primitive's. */
export function checkArity(p: Primitive, call: Call, span: Span): void {
  if (call.args.length !== p.args)
    throw new LangFault(
      span,
      `\`${call.callee}\` takes ${count(p.args, 'argument')}, not ${call.args.length}.`,
    );
}
