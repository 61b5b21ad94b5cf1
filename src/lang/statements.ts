// Statements of a thread, and the inlining of the program's functions: a call compiles the
// function's body in place, once per call site, with its pointer parameters bound at compile
// time. Loops are plain branches; a loop whose turns carry state in registers (a counter, an
// accumulator) gets a hidden counter and stops at the program's loop bound, where its context
// halts and Explore reports the run incomplete (compile.ts decides which, from a first pass).

import { Cond, Kind, Op, writesMemory } from '../machine/isa.ts';
import { type Expr, type Stmt, walkStmt } from './ast.ts';
import type { Draft, Label, Reg } from './emit.ts';
import { ExprGen } from './expressions.ts';
import { owners } from './gen.ts';
import { LIMITS, type FunctionItem } from './module.ts';
import { checkArity, primitive, primitiveNames, refusedReason } from './primitives.ts';
import { didYouMean, LangFault, type LangError, NO_SPAN, type Span } from './source.ts';
import { type AddCall, tallyAdd } from './tally.ts';
import { INT, type Ty, typeName } from './types.ts';
import type { Place, Val } from './values.ts';
import { count } from '../machine/count.ts';

/** One inlined call in progress (the thread's body is the outermost). */
interface Frame {
  readonly name: string;
  /** Distinguishes two inlinings of the same function, for loop keys. */
  readonly path: string;
  readonly end: Label;
  /** The statements it compiles (for which locals they assign). */
  readonly body: Stmt;
  readonly result: Reg | null;
  readonly labels: Map<string, Label>;
  /** Hidden counters of the backward gotos of this frame, by label. */
  readonly gotoCounters: Map<string, Reg>;
  /** Where each label was first named by a goto (for the error when it is never defined). */
  readonly gotos: Map<string, Span>;
}

export class StmtGen extends ExprGen {
  private readonly frames: Frame[] = [];
  private calls = 0;
  /** The add call the code being compiled belongs to (adds do not nest). */
  private add: AddCall | null = null;

  /**
   * Compiles the thread's body into the emitter. Given `errors`, a statement of the body that
   * does not compile adds its error there and the rest are compiled as if it were not written
   * (the names it declares declared), so the errors after it are found too.
   */
  compileThread(errors?: LangError[]): void {
    const t = this.thread.item;
    const end = this.e.label();
    const frame: Frame = {
      name: this.thread.name,
      path: this.thread.name,
      end,
      body: t.body,
      result: null,
      labels: new Map(),
      gotoCounters: new Map(),
      gotos: new Map(),
    };
    this.frames.push(frame);
    // herd7: a parameter `int *x` is a pointer to the global x.
    for (const p of t.params) {
      const g = this.globalPlace(p.name);
      if (!g) throw new LangFault(p.span, `\`${p.name}\` is not a global.`);
      this.bind(p.name, { k: 'val', val: this.addressOf(g, p.span) });
    }
    // herd7's register initial values, `{ 0:r1 = 2; }`.
    const inits = this.mod.registerInits.get(t.role === 'P' ? t.index : -1);
    if (inits) {
      for (const [name, { value, span }] of inits) {
        const r = this.e.reg(name);
        this.e.at(span);
        // A location's name (`1:r2=b;`, or `&b`) gives the register a pointer to it, which
        // herd7's untyped registers may dereference.
        const loc = value.kind === 'unary' && value.op === '&' ? value.arg : value;
        const g = loc.kind === 'name' ? this.globalPlace(loc.name) : null;
        if (g) {
          const p = this.addressOf(g, span);
          this.e.mov(r, this.reg(p, span));
          this.untyped.add(r.index);
          this.releaseTemps();
        } else this.e.mov(r, this.mod.constant(value));
        this.bind(name, { k: 'place', place: { k: 'local', r, ty: INT, name } });
      }
    }
    this.frameCounters(frame, t.body);
    if (errors === undefined) this.block(t.body, false);
    else for (const s of t.body.body) if (!this.recovering(s, errors)) return;
    this.checkLabels(frame);
    this.e.bind(end);
    this.frames.pop();
  }

  /**
   * One statement of a thread's body; on an error, the state as before it (see compileThread).
   * False when what follows cannot be checked without it: it failed to declare a name that is
   * not a plain integer.
   */
  private recovering(s: Stmt, errors: LangError[]): boolean {
    const scopes = this.scopes.length;
    const loops = this.loopStack.length;
    const frames = this.frames.length;
    try {
      this.statement(s);
      return true;
    } catch (e) {
      if (!(e instanceof LangFault)) throw e;
      errors.push(e.toError());
      this.scopes.length = scopes;
      this.loopStack.length = loops;
      this.frames.length = frames;
      this.add = null;
      this.releaseTemps();
      // What the statement declares (or, herd7's way, a register it assigns first) is declared
      // still, so its uses after it are no error; a plain integer is all it can be declared as.
      const names =
        s.kind === 'decl'
          ? s.declarators.map((d) => ({ name: d.name, pointers: s.type.pointers + d.pointers }))
          : s.kind === 'expr' &&
              s.expr.kind === 'assign' &&
              s.expr.target.kind === 'name' &&
              /^r\d+$/.test(s.expr.target.name)
            ? [{ name: s.expr.target.name, pointers: 0 }]
            : [];
      for (const { name, pointers } of names) {
        if (this.lookup(name) !== undefined && s.kind !== 'decl') continue;
        if ((this.scopes[this.scopes.length - 1] as Map<string, unknown>).has(name)) continue;
        if (s.kind === 'decl' && (pointers > 0 || !this.plainInteger(s.type.base))) return false;
        this.bind(name, { k: 'place', place: { k: 'local', r: this.e.reg(name), ty: INT, name } });
      }
      return true;
    }
  }

  private plainInteger(base: string): boolean {
    try {
      return this.mod.type({ span: NO_SPAN, base, pointers: 0, percpu: false }).k === 'int';
    } catch {
      return false;
    }
  }

  private get frame(): Frame {
    return this.frames[this.frames.length - 1] as Frame;
  }

  // ---- statements ------------------------------------------------------------------------------

  private block(b: Stmt & { kind: 'block' }, scoped = true): void {
    if (scoped) this.pushScope();
    for (const s of b.body) this.statement(s);
    if (scoped) this.popScope();
  }

  /**
   * Compiles one statement. An expression nested past the stack (a sum of thousands of terms is
   * a left-leaning tree that deep) is reported at the statement that holds it, the innermost
   * one, rather than at the start of the program.
   */
  statement(s: Stmt): void {
    try {
      this.statementOf(s);
    } catch (e) {
      if (e instanceof RangeError && /call stack/i.test(e.message))
        throw new LangFault(
          s.span,
          'this statement nests too deeply to compile.',
          'Split a long expression into several statements (a long sum into partial sums).',
        );
      throw e;
    }
  }

  private statementOf(s: Stmt): void {
    switch (s.kind) {
      case 'block':
        this.block(s);
        return;
      case 'empty':
        return;
      case 'decl':
        this.declaration(s);
        break;
      case 'expr':
        this.e.at(s.span);
        this.value(s.expr);
        break;
      case 'if':
        this.ifStatement(s);
        return;
      case 'while':
        this.loop(s, null, s.cond, null, s.body, false);
        return;
      case 'do':
        this.loop(s, null, s.cond, null, s.body, true);
        return;
      case 'for':
        this.pushScope();
        if (s.init) this.statement(s.init);
        this.loop(s, s.init, s.cond, s.step, s.body, false);
        this.popScope();
        return;
      case 'for-each-cpu':
        this.forEachCpu(s);
        return;
      case 'break':
      case 'continue': {
        const l = this.loopStack[this.loopStack.length - 1];
        if (!l) throw new LangFault(s.span, `\`${s.kind}\` outside a loop.`);
        this.e.at(s.span);
        this.e.jump(s.kind === 'break' ? l.brk : l.cont);
        return;
      }
      case 'return':
        this.returnStatement(s);
        break;
      case 'goto':
        this.gotoStatement(s);
        return;
      case 'label':
        this.labelStatement(s);
        return;
    }
    this.releaseTemps();
  }

  private declaration(s: Stmt & { kind: 'decl' }): void {
    for (const d of s.declarators) {
      const ty = this.mod.type({ ...s.type, pointers: s.type.pointers + d.pointers });
      if (ty.k === 'struct')
        throw new LangFault(d.span, 'a local struct is not supported: declare it as a global.');
      if (ty.k === 'atomic' || ty.k === 'lock')
        throw new LangFault(
          d.span,
          `a local ${typeName(ty)} would be private to one CPU: declare it as a global.`,
        );
      if (ty.k === 'void') throw new LangFault(d.span, 'a variable cannot be void.');
      this.e.at(d.span);
      // A pointer the compiler knows and the code never changes is bound, not kept in a register.
      if ((ty.k === 'ptr' || ty.k === 'percpu') && d.init) {
        const v = this.value(d.init);
        if (v.k !== 'reg' && v.k !== 'const' && !assigns(this.frame.body, d.name)) {
          this.bind(d.name, { k: 'val', val: v });
          continue;
        }
        const r = this.local(d.name, ty);
        this.write({ k: 'local', r, ty, name: d.name }, v, d.span);
        this.releaseTemps();
        continue;
      }
      const r = this.local(d.name, ty);
      if (d.init) {
        this.valueInto(d.init, r);
        if (ty.k === 'int' && ty.unsigned && ty.bits === 32)
          this.e.arith(Op.And, r, r, 0xffffffffn);
      }
      this.releaseTemps();
    }
  }

  /** A new local variable in the current scope (or the register a litmus init gave it). */
  private local(name: string, ty: Ty): Reg {
    const scope = this.scopes[this.scopes.length - 1] as Map<string, import('./gen.ts').Binding>;
    const known = scope.get(name);
    const fromInit =
      known?.k === 'place' && known.place.k === 'local' && this.frames.length === 1
        ? known.place.r
        : null;
    const r = fromInit ?? this.e.reg(name);
    if (fromInit === null) this.bind(name, { k: 'place', place: { k: 'local', r, ty, name } });
    // herd7's C has no types: a word-sized integer of a thread, `int r0` in herd7's register
    // form or an `intptr_t`, may hold a pointer and be dereferenced (`WRITE_ONCE(*b, *r0)`).
    const word = ty.k === 'int' && ty.bits === 32;
    if (
      word &&
      (ty.name.endsWith('intptr_t') || (/^r\d+$/.test(name) && this.thread.item.role === 'P'))
    )
      this.untyped.add(r.index);
    return r;
  }

  private ifStatement(s: Stmt & { kind: 'if' }): void {
    this.e.at(s.cond.span);
    const no = this.e.label();
    this.cond(s.cond, no);
    this.releaseTemps();
    const t0 = this.e.here;
    this.statement(s.then);
    const t1 = this.e.here;
    if (s.otherwise) {
      const end = this.e.label();
      this.e.jump(end);
      this.e.bind(no);
      const e0 = this.e.here;
      this.statement(s.otherwise);
      this.overflowIn(e0, this.e.here);
      this.e.bind(end);
    } else this.e.bind(no);
    this.overflowIn(t0, t1);
  }

  /**
   * In an add, the branch of an `if` that folds is where the delta crossed the batch: its first
   * step is the overflow (unless that step is the fold itself).
   */
  private overflowIn(from: number, to: number): void {
    if (this.add === null || !this.ctx.anatomy) return;
    const drafts = this.e.drafts.slice(from, to);
    if (!drafts.some((d) => d.kind === Kind.Fold)) return;
    const first = drafts.find((d) => d.op < Op.FirstLocal);
    if (first && first.kind !== Kind.Fold && first.kind !== Kind.SeqBump)
      first.kind = Kind.Overflow;
  }

  private returnStatement(s: Stmt & { kind: 'return' }): void {
    this.e.at(s.span);
    const f = this.frame;
    if (s.value) {
      if (f.result === null) {
        if (this.frames.length === 1)
          throw new LangFault(s.span, 'a thread returns no value: write `return;`.');
        throw new LangFault(s.value.span, `\`${f.name}\` returns void.`);
      }
      this.valueInto(s.value, f.result);
    }
    this.e.jump(f.end);
  }

  // ---- loops -----------------------------------------------------------------------------------

  /**
   * while (cond) body, do body while (cond), for (init; cond; step) body. A loop the first pass
   * found to carry state gets a hidden counter; a loop that runs forever by design (for (;;),
   * while (1)) gets a pause at its back edge, as the catalogue's endless adders do.
   */
  private loop(
    s: Stmt,
    init: Stmt | null,
    cond: Expr | null,
    step: Expr | null,
    body: Stmt,
    test: boolean,
  ): void {
    const key = `${this.frame.path}@${s.span.start}`;
    const counted = this.staticCount(init, cond, step, body);
    const bounded =
      this.ctx.loopBounds && this.ctx.bounded.has(key) && (!counted || this.ctx.stepless.has(key));
    const forever = cond === null || (cond.kind === 'num' && cond.value !== 0n);
    this.e.at(s.span);
    let counter: Reg | null = null;
    if (bounded) {
      counter = this.e.reg('%loop');
      this.e.mov(counter, 0n);
    }
    const top = this.e.label();
    const cont = this.e.label();
    const end = this.e.label();
    const start = this.e.here;
    this.e.bind(top);
    if (!test && cond) {
      this.e.at(cond.span);
      this.cond(cond, end);
      this.releaseTemps();
    }
    this.loopStack.push({ brk: end, cont });
    this.statement(body);
    this.loopStack.pop();
    this.e.bind(cont);
    if (step) {
      this.e.at(step.span);
      this.value(step);
      this.releaseTemps();
    }
    this.e.at(cond && test ? cond.span : s.span);
    // A task that repeats forever by design (its body is `for (;;)`) pauses between rounds, as
    // the catalogue's endless adders do; a retry loop inside a function does not.
    if (forever && this.thread.item.role === 'P' && this.frames.length === 1)
      this.e.emit({ op: Op.Pause });
    const retry = s.kind !== 'for' && this.retries(start);
    this.backEdge(top, counter, test && cond ? cond : null, retry, end);
    this.e.bind(end);
    this.ctx.info.loops.push({
      key,
      thread: this.thread.name,
      start,
      end: this.e.here,
      header: start,
    });
    this.releaseTemps();
  }

  /**
   * Jumps back to `top` (when `cond` holds, for a do-while); with a counter, only while it is
   * under the loop bound, else the context halts there.
   */
  private backEdge(
    top: Label,
    counter: Reg | null,
    cond: Expr | null,
    retry: boolean,
    end: Label,
  ): void {
    const again = (d: Draft) => {
      if (retry) d.kind = Kind.SumRetry;
    };
    if (cond) {
      if (counter === null) {
        const before = this.e.here;
        this.branchOn(cond, top, true);
        for (const d of this.e.drafts.slice(before))
          if (d.op === Op.Branch && d.to === top) again(d);
        return;
      }
      this.branchOn(cond, end, false);
    }
    if (counter === null) {
      again(this.e.jump(top));
      return;
    }
    this.e.arith(Op.Add, counter, counter, 1n);
    again(this.e.branch(Cond.Lt, counter, BigInt(this.mod.settings.loopBound), top));
    this.e.plain(Op.Halt);
  }

  /** `for (i = a; i < N; i++)` with N a constant and i left alone by the body: no bound needed. */
  private staticCount(
    init: Stmt | null,
    cond: Expr | null,
    step: Expr | null,
    body: Stmt,
  ): boolean {
    if (!init || !cond || !step) return false;
    let v: string | null = null;
    if (init.kind === 'decl' && init.declarators.length === 1)
      v = init.declarators[0]?.name ?? null;
    else if (
      init.kind === 'expr' &&
      init.expr.kind === 'assign' &&
      init.expr.target.kind === 'name'
    )
      v = init.expr.target.name;
    if (v === null) return false;
    if (
      cond.kind !== 'binary' ||
      !['<', '<=', '!='].includes(cond.op) ||
      cond.left.kind !== 'name' ||
      cond.left.name !== v
    )
      return false;
    try {
      this.mod.constant(cond.right);
    } catch {
      return false;
    }
    const steps =
      (step.kind === 'incdec' &&
        step.op === '++' &&
        step.arg.kind === 'name' &&
        step.arg.name === v) ||
      (step.kind === 'assign' &&
        step.op === '+=' &&
        step.target.kind === 'name' &&
        step.target.name === v &&
        step.value.kind === 'num' &&
        step.value.value > 0n);
    return steps && !assigns(body, v);
  }

  /**
   * Whether a back edge to `from` in the sum is a retry: the sum starts over, reading the
   * counter again (a loop that only waits, as on `changing`, reads none of its value).
   */
  private retries(from: number): boolean {
    const a = this.ctx.anatomy;
    const sum = a?.sum;
    if (!a || sum === null || sum === undefined || !this.frames.some((f) => f.name === sum))
      return false;
    for (let pc = from; pc < this.e.here; pc++) {
      const d = this.e.drafts[pc] as Draft;
      const owner = owners.get(d);
      if (owner !== undefined && owner !== null && a.valueCells.has(owner) && !writesMemory(d.op))
        return true;
    }
    return false;
  }

  private forEachCpu(s: Stmt & { kind: 'for-each-cpu' }): void {
    this.e.at(s.span);
    let b = this.lookup(s.variable);
    if (!b) {
      this.local(s.variable, INT);
      b = this.lookup(s.variable);
    }
    if (b?.k !== 'place' || b.place.k !== 'local')
      throw new LangFault(s.span, `\`${s.variable}\` must be a local variable to walk the CPUs.`);
    const r = b.place.r;
    const end = this.e.label();
    // Which CPUs the walk takes: a mask read afresh for each CPU, as cpumask_next() does, when
    // CPUs can go offline; every CPU when none can (all are online for the whole run).
    const masks: Expr[] =
      s.masks.length > 0
        ? [...s.masks]
        : s.macro === 'for_each_online_cpu' && this.mod.hotplug
          ? [{ kind: 'name', span: s.span, name: 'cpu_online_mask' }]
          : [];
    if (masks.some((x) => x.kind === 'name' && x.name.startsWith('cpu_') && !this.mod.hotplug))
      throw new LangFault(
        s.span,
        'cpu_online_mask and cpu_dying_mask exist in a program with CPU hotplug.',
        'Give a CPU dead callbacks, as DEAD1() { … }, to take it offline.',
      );
    const either = masks.reduce<Expr | null>(
      (a, x) => (a === null ? x : { kind: 'binary', span: s.span, op: '|', left: a, right: x }),
      null,
    );
    // Every CPU in turn, unrolled: the walk is part of the program, not a loop of the machine.
    // Each turn is a scope of its own, all of one walk (an execution graph folds them).
    const walk = this.e.scopeId();
    for (let k = 0; k < this.mod.settings.cpus; k++) {
      const next = this.e.label();
      this.e.enter(s.macro, s.span, k, walk);
      this.e.at(s.span);
      if (either) {
        const bit: Expr = {
          kind: 'num',
          span: s.span,
          value: 1n << BigInt(k),
          text: String(1 << k),
        };
        this.cond({ kind: 'binary', span: s.span, op: '&', left: either, right: bit }, next);
        this.releaseTemps();
      }
      this.e.mov(r, BigInt(k));
      this.loopStack.push({ brk: end, cont: next });
      this.statement(s.body);
      this.loopStack.pop();
      this.e.leave();
      this.e.bind(next);
    }
    this.e.bind(end);
  }

  // ---- goto --------------------------------------------------------------------------------------

  /** Hidden counters for this frame's backward gotos that need one (set to 0 on entry). */
  private frameCounters(f: Frame, body: Stmt): void {
    if (!this.ctx.loopBounds) return;
    for (const label of labelsOf(body)) {
      if (!this.ctx.bounded.has(`${f.path}@goto:${label}`)) continue;
      const r = this.e.reg('%loop');
      this.e.mov(r, 0n);
      f.gotoCounters.set(label, r);
    }
  }

  /** Every label a goto of this frame named is defined in it. */
  private checkLabels(f: Frame): void {
    for (const [name, l] of f.labels) {
      if (l.pc >= 0) continue;
      const at = f.gotos.get(name) ?? { start: 0, end: 0 };
      throw new LangFault(
        at,
        `there is no label \`${name}\` in ${f.name}.`,
        'Define it as `name:` before a statement.',
      );
    }
  }

  private labelFor(name: string): Label {
    const f = this.frame;
    let l = f.labels.get(name);
    if (!l) {
      l = this.e.label();
      f.labels.set(name, l);
    }
    return l;
  }

  private gotoStatement(s: Stmt & { kind: 'goto' }): void {
    this.e.at(s.span);
    const f = this.frame;
    const l = this.labelFor(s.label);
    if (!f.gotos.has(s.label)) f.gotos.set(s.label, s.span);
    if (l.pc < 0) {
      this.e.jump(l);
      return;
    }
    // Backward: a loop.
    const counter = f.gotoCounters.get(s.label) ?? null;
    const end = this.e.label();
    this.backEdge(l, counter, null, this.retries(l.pc), end);
    this.e.bind(end);
    this.ctx.info.loops.push({
      key: `${f.path}@goto:${s.label}`,
      thread: this.thread.name,
      start: l.pc,
      end: this.e.here,
      header: l.pc,
    });
  }

  private labelStatement(s: Stmt & { kind: 'label' }): void {
    const l = this.labelFor(s.label);
    if (l.pc >= 0) throw new LangFault(s.span, `the label \`${s.label}\` is defined twice.`);
    this.e.bind(l);
    this.statement(s.body);
  }

  // ---- calls -------------------------------------------------------------------------------------

  protected call(e: Expr & { kind: 'call' }): Val {
    if (e.callee === 'record') return this.record(e);
    if (e.callee === 'record_added') return this.recordAdded(e);
    const f = this.mod.functions.get(e.callee);
    if (f) return this.inline(f, e);
    const p = primitive(e.callee);
    if (p) {
      checkArity(p, e, e.span);
      return p.lower(this, e.args, e);
    }
    const refused = refusedReason(e.callee);
    if (refused) throw new LangFault(e.calleeSpan, `\`${e.callee}\` is not supported: ${refused}`);
    throw new LangFault(
      e.calleeSpan,
      `\`${e.callee}\` is not a primitive the lab knows, nor a function of the program.`,
      didYouMean(e.callee, [...primitiveNames(), ...this.mod.functions.keys()]),
    );
  }

  /** record_added(name): appends what every add has added so far (the tallies) to `name`. */
  private recordAdded(e: Expr & { kind: 'call' }): Val {
    const [name] = e.args;
    if (e.args.length !== 1 || name?.kind !== 'name')
      throw new LangFault(e.span, 'write `record_added(name)`.');
    this.e.recordTotal(this.ctx.slot(name.name));
    this.noteRecord(name.name);
    return { k: 'void' };
  }

  private noteRecord(name: string): void {
    const known = this.ctx.info.records.get(name);
    this.ctx.info.records.set(name, {
      sites: (known?.sites ?? 0) + 1,
      // A handler runs once per interrupt: its records repeat like a loop's.
      inLoop:
        (known?.inLoop ?? false) ||
        this.loopStack.length > 0 ||
        this.frames.some((f) => f.labels.size > 0) ||
        this.thread.item.role !== 'P',
      thread: known?.thread ?? this.thread.name,
    });
  }

  /** record(name, value): appends the value to the observable `name`. */
  private record(e: Expr & { kind: 'call' }): Val {
    const [name, value] = e.args;
    if (e.args.length !== 2 || name?.kind !== 'name')
      throw new LangFault(e.span, 'write `record(name, value)`: name is the observable’s.');
    const r = this.valueReg(value as Expr);
    this.e.record(this.ctx.slot(name.name), r);
    this.noteRecord(name.name);
    return { k: 'void' };
  }

  private inline(f: FunctionItem, call: Expr & { kind: 'call' }): Val {
    const name = f.item.name;
    if (this.frames.some((x) => x.name === name))
      throw new LangFault(
        call.calleeSpan,
        `\`${name}\` calls itself: the lab inlines every call, so recursion is not supported.`,
      );
    if (this.frames.length > LIMITS.inlineDepth)
      throw new LangFault(call.span, `calls nest more than ${LIMITS.inlineDepth} deep.`);
    if (call.args.length !== f.params.length)
      throw new LangFault(
        call.span,
        `\`${name}\` takes ${count(f.params.length, 'argument')}, not ${call.args.length}.`,
      );
    const args = call.args.map((a, i) =>
      this.argument(a, f.params[i] as FunctionItem['params'][number], f),
    );
    const result = f.ret.k === 'void' ? null : this.e.reg(`%${name}`);
    const frame: Frame = {
      name,
      path: `${this.frame.path}/${name}#${++this.calls}`,
      end: this.e.label(),
      body: f.item.body,
      result,
      labels: new Map(),
      gotoCounters: new Map(),
      gotos: new Map(),
    };
    const anatomy = this.ctx.anatomy;
    // A sum a thread calls is judged (its window recorded); one inside another function is not.
    const isSum = anatomy?.sum === name && this.frames.length === 1;
    const addFn = this.add === null ? anatomy?.adds.get(name) : undefined;
    this.e.at(call.span);
    if (isSum) this.e.recordTotal(this.ctx.slot(`@window:${this.thread.name}`));
    let add: AddCall | null = null;
    if (addFn) {
      let amount = 1n;
      if (addFn.amount !== null) {
        const i = f.params.findIndex((p) => p.name === addFn.amount);
        const v = args[i];
        if (v?.k !== 'val' || v.val.k !== 'const')
          throw new LangFault(
            (call.args[i] as Expr).span,
            `the amount of an add of the counter must be known when the program is compiled (a number or a #define).`,
          );
        amount = v.val.v;
      }
      add = { start: this.e.here, amount };
      this.add = add;
      this.ctx.amounts.push(amount);
    }
    this.frames.push(frame);
    this.e.enter(name, call.span);
    this.pushScope();
    f.params.forEach((p, i) => {
      this.bind(p.name, args[i] as import('./gen.ts').Binding);
    });
    this.frameCounters(frame, f.item.body);
    this.holdTemps(() => {
      for (const s of f.item.body.body) this.statement(s);
    });
    this.checkLabels(frame);
    this.popScope();
    this.e.bind(frame.end);
    this.e.leave();
    this.frames.pop();
    this.e.at(call.span);
    if (add) {
      this.add = null;
      // Where the add completes (tally.ts), once the anatomy pass knows the counter's cells.
      const anatomy = this.ctx.anatomy;
      if (anatomy) {
        // Only this thread's loops live in this emitter's instructions.
        const loops = this.ctx.info.loops.filter((l) => l.thread === this.thread.name);
        tallyAdd(this.e, anatomy.valueCells, add, loops);
      }
    }
    if (isSum && result) {
      this.e.record(this.ctx.slot(`@sum:${this.thread.name}`), result);
      this.e.recordTotal(this.ctx.slot(`@window:${this.thread.name}`));
      this.countSum();
    }
    return result ? { k: 'reg', r: result, ty: f.ret } : { k: 'void' };
  }

  private countSum(): void {
    const key = `@sum:${this.thread.name}`;
    const known = this.ctx.info.records.get(key);
    this.ctx.info.records.set(key, {
      sites: (known?.sites ?? 0) + 1,
      inLoop: (known?.inLoop ?? false) || this.loopStack.length > 0,
      thread: this.thread.name,
    });
  }

  /** How a parameter is bound: to the argument's value, or to a local copy the body may change. */
  private argument(
    a: Expr,
    p: FunctionItem['params'][number],
    f: FunctionItem,
  ): import('./gen.ts').Binding {
    const v = this.value(a);
    if (p.ty.k === 'ptr' || p.ty.k === 'percpu') {
      if (v.k === 'const' && v.v === 0n)
        throw new LangFault(a.span, `\`${p.name}\` cannot be NULL here.`);
      if (v.k === 'const')
        throw new LangFault(a.span, `\`${p.name}\` is a pointer, and this is a number.`);
      if (v.k === 'void') throw new LangFault(a.span, 'this has no value (it is void).');
      if (assigns(f.item.body, p.name)) {
        const r = this.e.reg(p.name);
        this.write({ k: 'local', r, ty: p.ty, name: p.name }, v, a.span);
        return { k: 'place', place: { k: 'local', r, ty: p.ty, name: p.name } };
      }
      return { k: 'val', val: v };
    }
    if (p.ty.k !== 'int')
      throw new LangFault(
        p.span,
        `a parameter of type ${typeName(p.ty)} is not supported: pass a pointer.`,
      );
    this.checkNumber(v, a.span);
    if (!assigns(f.item.body, p.name) && (v.k === 'const' || v.k === 'reg'))
      return { k: 'val', val: v };
    const r = this.e.reg(p.name);
    this.write({ k: 'local', r, ty: p.ty, name: p.name }, v, a.span);
    return { k: 'place', place: { k: 'local', r, ty: p.ty, name: p.name } as Place };
  }
}

/** Whether a statement assigns the variable `name` (or takes its address). */
export function assigns(s: Stmt, name: string): boolean {
  let found = false;
  const named = (e: Expr) => e.kind === 'name' && e.name === name;
  walkStmt(
    s,
    (e) => {
      if (e.kind === 'assign' && named(e.target)) found = true;
      else if (e.kind === 'incdec' && named(e.arg)) found = true;
      else if (e.kind === 'unary' && e.op === '&' && named(e.arg)) found = true;
      // local_irq_save(flags) and spin_lock_irqsave(l, flags) write their flags.
      else if (
        e.kind === 'call' &&
        /irqsave$|^local_irq_save$|^raw_local_irq_save$/.test(e.callee) &&
        e.args.some(named)
      )
        found = true;
    },
    (x) => {
      if (x.kind === 'for-each-cpu' && x.variable === name) found = true;
    },
  );
  return found;
}

/** The labels a body defines. */
function labelsOf(s: Stmt): string[] {
  const out: string[] = [];
  const walk = (x: Stmt | null): void => {
    if (!x) return;
    switch (x.kind) {
      case 'block':
        x.body.forEach(walk);
        break;
      case 'if':
        walk(x.then);
        walk(x.otherwise);
        break;
      case 'while':
      case 'do':
      case 'for':
      case 'for-each-cpu':
        walk(x.body);
        break;
      case 'label':
        out.push(x.label);
        walk(x.body);
        break;
      default:
        break;
    }
  };
  walk(s);
  return out;
}

export type { Span };
