// Expressions of a thread: each evaluated left to right into a value, each memory access it makes
// one step of the machine (`x + y` on two globals is two loads). Constants fold; comparisons
// against a constant become one branch; && and || short-circuit, so the loads on their right
// happen only when C says they do.

import { Cond, Mode, Op } from '../machine/isa.ts';
import type { Expr } from './ast.ts';
import type { Draft, Label, Reg } from './emit.ts';
import { type Binding, GenBase } from './gen.ts';
import { foldBinary } from './module.ts';
import { didYouMean, LangFault, type Span } from './source.ts';
import { INT, S64, type Ty, typeName, wordsOf } from './types.ts';
import type { MemPlace, Place, Val } from './values.ts';

const ARITH: Readonly<Record<string, number>> = {
  '+': Op.Add,
  '-': Op.Sub,
  '*': Op.Mul,
  '/': Op.Div,
  '%': Op.Mod,
  '&': Op.And,
  '|': Op.Or,
  '^': Op.Xor,
  '<<': Op.Shl,
  '>>': Op.Shr,
};

const COMPARE: Readonly<Record<string, number>> = {
  '==': Cond.Eq,
  '!=': Cond.Ne,
  '<': Cond.Lt,
  '<=': Cond.Le,
  '>': Cond.Gt,
  '>=': Cond.Ge,
};

/**
 * For each comparison, [mirror, negation]: a OP b ⇔ b MIRROR a, and !(a OP b) ⇔ a NEGATION b.
 */
const FLIPS: Readonly<Record<number, readonly [number, number]>> = {
  [Cond.Eq]: [Cond.Eq, Cond.Ne],
  [Cond.Ne]: [Cond.Ne, Cond.Eq],
  [Cond.Lt]: [Cond.Gt, Cond.Ge],
  [Cond.Le]: [Cond.Ge, Cond.Gt],
  [Cond.Gt]: [Cond.Lt, Cond.Le],
  [Cond.Ge]: [Cond.Le, Cond.Lt],
};
const mirror = (c: number): number => (FLIPS[c] as readonly [number, number])[0];
const negate = (c: number): number => (FLIPS[c] as readonly [number, number])[1];

/** The wider of two integer types (64 bits if either is). */
function wider(a: Ty, b: Ty): Ty {
  return wordsOf(a) === 2 || wordsOf(b) === 2 ? S64 : INT;
}

export abstract class ExprGen extends GenBase {
  /** A call: a primitive of the kernel, or a function of the program (inlined). */
  protected abstract call(e: Expr & { kind: 'call' }): Val;

  // ---- values ----------------------------------------------------------------------------------

  value(e: Expr): Val {
    switch (e.kind) {
      case 'num':
        return {
          k: 'const',
          v: e.value,
          ty: e.value > 0x7fffffffn || e.value < -0x80000000n ? S64 : INT,
        };
      case 'name':
        return this.nameValue(e);
      case 'regref':
        throw new LangFault(
          e.span,
          `\`${e.thread}:${e.name}\` can only be read in a final clause.`,
        );
      case 'unary':
        return this.unary(e);
      case 'binary':
        return this.binary(e);
      case 'assign':
        return this.assign(e);
      case 'incdec':
        return this.incdec(e);
      case 'call':
        return this.call(e);
      case 'member':
        return this.memberValue(e);
      case 'cast': {
        const v = this.value(e.arg);
        if (e.type.base === 'void' && e.type.pointers === 0) return { k: 'void' };
        return this.cast(v, e);
      }
      case 'ternary':
        return this.ternary(e);
      case 'init-list':
        throw new LangFault(e.span, 'a `{ … }` initialiser only initialises a global.');
      case 'index':
        throw new LangFault(
          e.span,
          'arrays are not supported yet; `name[i]` reads a record() in final clauses.',
        );
    }
  }

  /**
   * A cast between a word-sized integer and a pointer to a word, as herd7's generated tests
   * write them (`*(intptr_t *)r1`, `(intptr_t **)x`, `(intptr_t)rcu_dereference(…)`): the same
   * word, now of the type cast to. Other casts leave the value as it is.
   */
  private cast(v: Val, e: Expr & { kind: 'cast' }): Val {
    const oneWord = (t: Ty) => (t.k === 'int' && t.bits === 32) || t.k === 'ptr';
    if (e.type.percpu || e.type.base === 'void' || e.type.base.startsWith('struct ')) return v;
    // herd7's tests cast through `char *` too (`(char **)y`, `(char *)1`): a pointer cast to a
    // type narrower than a word is, to herd7, a pointer cast like any other.
    const narrow = /^(unsigned |signed )?(char|short)$|^[su](8|16)$/.test(e.type.base);
    if (narrow && e.type.pointers === 0) return v;
    const to = this.mod.type(narrow ? { ...e.type, base: 'int' } : e.type);
    if (to.k === 'ptr' && oneWord(to.to)) {
      if (v.k === 'reg' && oneWord(v.ty)) return { ...v, ty: to };
      if (v.k === 'addr' && oneWord(v.place.ty))
        return { k: 'addr', place: { ...v.place, ty: to.to }, ty: to };
    }
    if (to.k === 'int' && oneWord(to) && v.k === 'reg' && v.ty.k === 'ptr') return { ...v, ty: to };
    return v;
  }

  /** The value of e in a register (a scratch one unless it already is one). */
  valueReg(e: Expr): Reg {
    const v = this.value(e);
    this.checkNumber(v, e.span);
    return this.reg(v, e.span);
  }

  /** Evaluates e into `dst` (a local's register), without a scratch register where it can. */
  valueInto(e: Expr, dst: Reg): void {
    const v = this.value(e);
    this.checkNumber(v, e.span);
    if (v.k === 'const') this.e.mov(dst, v.v);
    else {
      const r = this.reg(v, e.span);
      if (r.index !== dst.index) this.e.mov(dst, r);
    }
  }

  private nameValue(e: Expr & { kind: 'name' }): Val {
    const b = this.lookup(e.name);
    if (b?.k === 'val') return b.val;
    if (b?.k === 'place') return this.read(b.place, e.span);
    const g = this.globalPlace(e.name);
    if (g) return this.read(g, e.span);
    const c = this.mod.constantName(e.name, e.span);
    if (c !== null)
      return { k: 'const', v: c, ty: c > 0x7fffffffn || c < -0x80000000n ? S64 : INT };
    const implicit = this.implicitRegister(e.name);
    if (implicit) return this.read(implicit, e.span);
    if (this.mod.functions.has(e.name))
      throw new LangFault(e.span, `\`${e.name}\` is a function: call it, as \`${e.name}(…)\`.`);
    throw new LangFault(
      e.span,
      `\`${e.name}\` is not declared.`,
      didYouMean(e.name, this.visibleNames()),
    );
  }

  /**
   * herd7's registers need no declaration: in a thread, `r1 = …` with no `r1` in scope makes a
   * thread-wide register, 0 until written, that may hold a number or a pointer (herd7's C has no
   * types: it takes arithmetic and `*` alike). Only names of herd7's register form (`r` and digits), so a typo elsewhere is still
   * an error.
   */
  private implicitRegister(name: string): Place | null {
    if (!/^r\d+$/.test(name) || this.thread.item.role !== 'P') return null;
    const r = this.e.reg(name);
    this.untyped.add(r.index);
    const place: Place = { k: 'local', r, ty: INT, name };
    (this.scopes[0] as Map<string, Binding>).set(name, { k: 'place', place });
    return place;
  }

  /** The value stored in a place: a local's register, or a load from memory. */
  read(p: Place, span: Span, atomic = false): Val {
    switch (p.k) {
      case 'local': {
        const points = this.pointers.get(p.r.index);
        return points ? { k: 'reg', r: p.r, ty: p.ty, points } : { k: 'reg', r: p.r, ty: p.ty };
      }
      case 'mem': {
        if (p.ty.k === 'atomic')
          throw new LangFault(
            span,
            `an ${p.ty.name} is read with ${p.ty.bits === 64 ? 'atomic64_read' : 'atomic_read'}(&v).`,
          );
        if (p.ty.k === 'lock')
          throw new LangFault(span, 'a spinlock is not a number: use spin_is_locked(&lock).');
        const r = this.temp();
        this.loadInto(p, r, atomic);
        return { k: 'reg', r, ty: p.ty };
      }
      case 'pcpuvar':
        throw new LangFault(
          span,
          'a per-CPU variable has one value per CPU.',
          'Read this CPU’s with this_cpu_read(v), another’s with per_cpu(v, cpu).',
        );
      case 'obj':
        throw new LangFault(span, `\`${p.obj.name}\` is a struct: read one of its fields.`);
    }
  }

  /** Stores a value into a place; returns the write (memory) or null (a local). */
  write(p: Place, v: Val, span: Span, atomic = false): Draft | null {
    this.checkNumber(v, span);
    switch (p.k) {
      case 'local':
        if (v.k === 'const') this.e.mov(p.r, v.v);
        else {
          const r = this.reg(v, span);
          if (r.index !== p.r.index) this.e.mov(p.r, r);
        }
        if (v.k === 'reg' && v.points) this.pointers.set(p.r.index, v.points);
        else this.pointers.delete(p.r.index);
        if (p.ty.k === 'int' && p.ty.unsigned && wordsOf(p.ty) === 1)
          this.e.arith(Op.And, p.r, p.r, 0xffffffffn);
        return null;
      case 'mem':
        if (p.ty.k === 'atomic')
          throw new LangFault(
            span,
            `an ${p.ty.name} is written with ${p.ty.bits === 64 ? 'atomic64_set' : 'atomic_set'}(&v, x).`,
          );
        if (p.ty.k === 'lock')
          throw new LangFault(span, 'a spinlock is taken with spin_lock(&lock), not assigned.');
        return this.storeFrom(p, this.reg(v, span), atomic);
      case 'pcpuvar':
        throw new LangFault(
          span,
          'write this CPU’s element with this_cpu_write(v, x), another’s with per_cpu(v, cpu) = x.',
        );
      case 'obj':
        throw new LangFault(span, 'assign the fields of a struct one by one.');
    }
  }

  /** The place an lvalue expression names. */
  place(e: Expr): Place {
    switch (e.kind) {
      case 'name': {
        const b = this.lookup(e.name);
        if (b?.k === 'place') return b.place;
        if (b?.k === 'val') {
          // A parameter bound to a value: a struct or per-CPU pointer is a place through `*`.
          throw new LangFault(e.span, `\`${e.name}\` is a value here, not a variable to assign.`);
        }
        const g = this.globalPlace(e.name);
        if (g) return g;
        const implicit = this.implicitRegister(e.name);
        if (implicit) return implicit;
        throw new LangFault(
          e.span,
          `\`${e.name}\` is not declared.`,
          didYouMean(e.name, this.visibleNames()),
        );
      }
      case 'unary':
        if (e.op === '*') return this.deref(this.value(e.arg), e.span);
        break;
      case 'member':
        return this.memberPlace(e);
      case 'call':
        if (e.callee === 'per_cpu') return this.perCpuElement(e);
        if (e.callee === '__get_cpu_var' || e.callee === 'get_cpu_var') {
          // The 2.6-era lvalue of this CPU's element; &__get_cpu_var(v) is this_cpu_ptr(&v).
          const v = e.args.length === 1 ? this.place(e.args[0] as Expr) : null;
          if (v?.k !== 'pcpuvar')
            throw new LangFault(e.span, `\`${e.callee}\` takes a per-CPU variable.`);
          return this.thisCpu(v.pc, v.elem);
        }
        break;
      case 'cast':
        return this.place(e.arg);
      default:
        break;
    }
    throw new LangFault(e.span, 'this cannot be assigned: it is not a variable.');
  }

  /** per_cpu(v, cpu): CPU cpu's element of a per-CPU variable. */
  perCpuElement(e: Expr & { kind: 'call' }): MemPlace {
    if (e.args.length !== 2)
      throw new LangFault(e.span, '`per_cpu` takes a per-CPU variable and a CPU number.');
    const arg = e.args[0] as Expr;
    // per_cpu(v, cpu) for a per-CPU variable v; per_cpu(p, cpu) for a `T __percpu *p` too.
    const asValue = arg.kind === 'member' ? this.value(arg) : null;
    const v: Place =
      asValue?.k === 'pcpu'
        ? { k: 'pcpuvar', pc: asValue.pc, elem: asValue.elem }
        : this.place(arg);
    if (v.k !== 'pcpuvar')
      throw new LangFault(
        (e.args[0] as Expr).span,
        'per_cpu() needs a per-CPU variable (DEFINE_PER_CPU, or *p for a __percpu pointer).',
      );
    return this.element(v.pc, v.elem, this.value(e.args[1] as Expr), e.span);
  }

  /** The struct a member access names: `s.f`'s s, or `p->f`'s *p. */
  private memberObject(e: Expr & { kind: 'member' }) {
    if (e.arrow) {
      const p = this.value(e.object);
      if (p.k !== 'obj')
        throw new LangFault(
          e.object.span,
          p.k === 'reg'
            ? 'a pointer to a struct must be known when the program is compiled: pass &the_struct.'
            : '`->` needs a pointer to a struct.',
        );
      return p.obj;
    }
    const p = this.place(e.object);
    if (p.k !== 'obj') throw new LangFault(e.object.span, '`.` needs a struct.');
    return p.obj;
  }

  private memberPlace(e: Expr & { kind: 'member' }): Place {
    const st = this.field(this.memberObject(e), e.field, e.span);
    if (st.k === 'percpu')
      throw new LangFault(
        e.span,
        `\`${e.field}\` is a per-CPU pointer the lab allocates: it cannot be assigned.`,
      );
    return this.storagePlace(st);
  }

  private memberValue(e: Expr & { kind: 'member' }): Val {
    const st = this.field(this.memberObject(e), e.field, e.span);
    if (st.k === 'percpu')
      return { k: 'pcpu', pc: st.pc, elem: st.ty, ty: { k: 'percpu', to: st.ty } };
    return this.read(this.storagePlace(st), e.span);
  }

  // ---- operators -------------------------------------------------------------------------------

  private unary(e: Expr & { kind: 'unary' }): Val {
    switch (e.op) {
      case '*':
        return this.read(this.deref(this.value(e.arg), e.span), e.span);
      case '&':
        return this.addressOf(this.place(e.arg), e.span);
      case '+':
        return this.value(e.arg);
      case '-':
      case '~': {
        const v = this.value(e.arg);
        this.checkNumber(v, e.span);
        if (v.k === 'const') return { ...v, v: e.op === '-' ? -v.v : ~v.v };
        const r = this.reg(v, e.span);
        const d = this.temp();
        if (e.op === '-') {
          this.e.mov(d, 0n);
          this.e.arith(Op.Sub, d, d, r);
        } else this.e.arith(Op.Xor, d, r, -1n);
        return { k: 'reg', r: d, ty: v.k === 'reg' ? v.ty : INT };
      }
      case '!':
        return this.boolValue(e);
    }
  }

  private binary(e: Expr & { kind: 'binary' }): Val {
    if (e.op in COMPARE || e.op === '&&' || e.op === '||') return this.boolValue(e);
    const op = ARITH[e.op];
    if (op === undefined)
      throw new LangFault(e.span, `\`${e.op}\` only joins conditions in final clauses.`);
    const a = this.value(e.left);
    const b = this.value(e.right);
    this.checkNumber(a, e.left.span);
    this.checkNumber(b, e.right.span);
    const moved = this.pointerOffset(e, a, b);
    if (moved) return moved;
    if (a.k !== 'const' && a.k !== 'reg')
      throw new LangFault(
        e.span,
        'pointer arithmetic is not supported.',
        'Use per_cpu_ptr(p, cpu) or per_cpu(v, cpu).',
      );
    if (b.k !== 'const' && b.k !== 'reg')
      throw new LangFault(e.span, 'pointer arithmetic is not supported.');
    if (a.ty.k === 'ptr' || b.ty.k === 'ptr')
      throw new LangFault(e.span, 'pointer arithmetic is not supported.');
    const ty = wider(a.ty, b.ty);
    if (a.k === 'const' && b.k === 'const') {
      const v = foldBinary(e.op, a.v, b.v);
      if (v === null) throw new LangFault(e.right.span, 'division by zero.');
      return { k: 'const', v: BigInt.asIntN(64, v), ty };
    }
    const d = this.temp();
    if (
      a.k === 'const' &&
      (e.op === '+' || e.op === '*' || e.op === '&' || e.op === '|' || e.op === '^')
    ) {
      this.e.arith(op, d, this.reg(b, e.span), a.v);
    } else {
      this.e.arith(op, d, this.reg(a, e.span), b.k === 'const' ? b.v : this.reg(b, e.span));
    }
    return { k: 'reg', r: d, ty };
  }

  /**
   * `p + n`, `n + p`, `p - n` for a pointer p to a word and an integer n, as herd7's address
   * dependencies write them (`*(y + (r0 & 128))`): the address n words on, in a register. Null
   * for anything else, which the caller words.
   */
  private pointerOffset(e: Expr & { kind: 'binary' }, a: Val, b: Val): Val | null {
    if (e.op !== '+' && e.op !== '-') return null;
    const wordPointer = (v: Val): boolean =>
      (v.k === 'addr' && v.place.mode === Mode.Abs && wordsOf(v.place.ty) === 1) ||
      (v.k === 'reg' && v.ty.k === 'ptr' && wordsOf(v.ty.to) === 1);
    const integer = (v: Val): boolean => (v.k === 'const' || v.k === 'reg') && v.ty.k === 'int';
    let p: Val;
    let n: Val;
    if (wordPointer(a) && integer(b)) [p, n] = [a, b];
    else if (e.op === '+' && integer(a) && wordPointer(b)) [p, n] = [b, a];
    else return null;
    const ty = this.typeOfVal(p);
    const base = this.reg(p, e.span);
    const d = this.temp();
    const op = e.op === '+' ? Op.Add : Op.Sub;
    this.e.arith(op, d, base, n.k === 'const' ? n.v : this.reg(n, e.span));
    return { k: 'reg', r: d, ty };
  }

  /** A condition as a value: 1 when it holds, else 0. */
  private boolValue(e: Expr): Val {
    if (e.kind === 'binary' && e.op in COMPARE) {
      const a = this.value(e.left);
      const b = this.value(e.right);
      this.checkNumber(a, e.left.span);
      this.checkNumber(b, e.right.span);
      const cond = COMPARE[e.op] as number;
      if (a.k === 'const' && b.k === 'const')
        return { k: 'const', v: foldBinary(e.op, a.v, b.v) ?? 0n, ty: INT };
      const d = this.temp();
      if (a.k === 'const') this.e.setCond(mirror(cond), d, this.reg(b, e.span), a.v);
      else
        this.e.setCond(cond, d, this.reg(a, e.span), b.k === 'const' ? b.v : this.reg(b, e.span));
      return { k: 'reg', r: d, ty: INT };
    }
    const d = this.temp();
    const no = this.e.label();
    const end = this.e.label();
    this.cond(e, no);
    this.e.mov(d, 1n);
    this.e.jump(end);
    this.e.bind(no);
    this.e.mov(d, 0n);
    this.e.bind(end);
    return { k: 'reg', r: d, ty: INT };
  }

  private ternary(e: Expr & { kind: 'ternary' }): Val {
    const d = this.temp();
    const no = this.e.label();
    const end = this.e.label();
    this.cond(e.cond, no);
    this.valueInto(e.then, d);
    this.e.jump(end);
    this.e.bind(no);
    this.valueInto(e.otherwise, d);
    this.e.bind(end);
    return { k: 'reg', r: d, ty: INT };
  }

  private assign(e: Expr & { kind: 'assign' }): Val {
    const p = this.place(e.target);
    if (e.op === '=') {
      if (p.k === 'local') {
        this.valueInto(e.value, p.r);
        if (p.ty.k === 'int' && p.ty.unsigned && wordsOf(p.ty) === 1)
          this.e.arith(Op.And, p.r, p.r, 0xffffffffn);
        return { k: 'reg', r: p.r, ty: p.ty };
      }
      const v = this.value(e.value);
      this.write(p, v, e.span);
      return v;
    }
    // x op= v: read, compute, write (a load and a store when x is in memory).
    const op = ARITH[e.op.slice(0, -1)];
    if (op === undefined) throw new LangFault(e.span, `\`${e.op}\` is not an operator.`);
    const old = this.read(p, e.target.span);
    const v = this.value(e.value);
    this.checkNumber(v, e.value.span);
    const d = p.k === 'local' ? p.r : this.temp();
    const oldReg = this.reg(old, e.span);
    this.e.arith(op, d, oldReg, v.k === 'const' ? v.v : this.reg(v, e.span));
    if (p.k !== 'local') this.write(p, { k: 'reg', r: d, ty: p.k === 'mem' ? p.ty : INT }, e.span);
    else if (p.ty.k === 'int' && p.ty.unsigned && wordsOf(p.ty) === 1)
      this.e.arith(Op.And, d, d, 0xffffffffn);
    return { k: 'reg', r: d, ty: old.k === 'reg' ? old.ty : INT };
  }

  private incdec(e: Expr & { kind: 'incdec' }): Val {
    const p = this.place(e.arg);
    const old = this.read(p, e.arg.span);
    const oldReg = this.reg(old, e.span);
    const ty = old.k === 'reg' ? old.ty : INT;
    if (ty.k === 'ptr') throw new LangFault(e.span, 'pointer arithmetic is not supported.');
    let kept: Reg | null = null;
    if (!e.prefix) {
      kept = this.temp();
      this.e.mov(kept, oldReg);
    }
    const d = p.k === 'local' ? p.r : this.temp();
    this.e.arith(e.op === '++' ? Op.Add : Op.Sub, d, oldReg, 1n);
    if (p.k !== 'local') this.write(p, { k: 'reg', r: d, ty }, e.span);
    return { k: 'reg', r: kept ?? d, ty };
  }

  // ---- conditions ------------------------------------------------------------------------------

  /** Jumps to `no` when e is false; falls through when it holds. */
  cond(e: Expr, no: Label): void {
    this.branchOn(e, no, false);
  }

  /** Jumps to `to` when e is `when` (true or false), else falls through. */
  branchOn(e: Expr, to: Label, when: boolean): void {
    if (e.kind === 'unary' && e.op === '!') {
      this.branchOn(e.arg, to, !when);
      return;
    }
    if (e.kind === 'binary' && (e.op === '&&' || e.op === '||')) {
      const and = e.op === '&&';
      // Jump on the operand that decides, fall through to test the next.
      if (and === !when) {
        // (a && b) false → to: a false → to; b false → to.   (a || b) true → to: likewise.
        this.branchOn(e.left, to, when);
        this.branchOn(e.right, to, when);
      } else {
        const skip = this.e.label();
        this.branchOn(e.left, skip, !when);
        this.branchOn(e.right, to, when);
        this.e.bind(skip);
      }
      return;
    }
    if (e.kind === 'binary' && e.op in COMPARE) {
      const a = this.value(e.left);
      const b = this.value(e.right);
      this.checkNumber(a, e.left.span);
      this.checkNumber(b, e.right.span);
      let cond = COMPARE[e.op] as number;
      if (!when) cond = negate(cond);
      if (a.k === 'const' && b.k === 'const') {
        const holds = (foldBinary(e.op, a.v, b.v) ?? 0n) !== 0n;
        if (holds === when) this.e.jump(to);
        return;
      }
      if (a.k === 'const') this.e.branch(mirror(cond), this.reg(b, e.span), a.v, to);
      else
        this.e.branch(cond, this.reg(a, e.span), b.k === 'const' ? b.v : this.reg(b, e.span), to);
      return;
    }
    const v = this.value(e);
    this.checkNumber(v, e.span, 'a condition');
    if (v.k === 'const') {
      if ((v.v !== 0n) === when) this.e.jump(to);
      return;
    }
    this.e.branch(when ? Cond.Ne : Cond.Eq, this.reg(v, e.span), 0n, to);
  }

  /** The integer type of a value, for messages and widths. */
  protected typeOfVal(v: Val): Ty {
    if (
      v.k === 'const' ||
      v.k === 'reg' ||
      v.k === 'addr' ||
      v.k === 'pcpu' ||
      v.k === 'elem' ||
      v.k === 'obj'
    )
      return v.ty;
    return INT;
  }

  protected describeVal(v: Val): string {
    return v.k === 'void' ? 'nothing' : typeName(this.typeOfVal(v));
  }
}
