// The compiler's instruction emitter: machine records (machine/isa.ts) with the source site of
// the statement each belongs to, labels resolved when the program is built, and registers named
// for the narration and the CPU lanes. Drafts stay mutable until `build`, so the anatomy pass
// can mark kinds and tallies on the instructions it finds.

import { hiOf, loOf } from '../machine/int64.ts';
import {
  BLANK_INSTR,
  type Instr,
  Kind,
  Op,
  operandFields,
  type OperandSpec,
  type Program,
  type Scope,
  type Site,
} from '../machine/isa.ts';
import { LangFault, type LineMap, type Span } from './source.ts';

export type Draft = { -readonly [K in keyof Instr]: Instr[K] } & {
  /** The jump target, bound when the program is built. */
  to: Label | null;
  site: Site;
  /** The calls being inlined and the walk turns being unrolled when this was emitted. */
  scopes: readonly Scope[];
};

export class Label {
  pc = -1;
}

/** A register: an index into the context's register file. */
export interface Reg {
  readonly index: number;
  readonly name: string;
}

/** A memory operand. */
export interface Operand extends OperandSpec {
  readonly reg: Reg | null;
}

/** A register or an immediate. */
export type Src = Reg | bigint;

const BLANK: Omit<Draft, 'site' | 'scopes' | 'to'> = BLANK_INSTR;

/** The `k`-th register asked for by `name`: primes for the first few, then a number. */
function repeated(name: string, k: number): string {
  return k === 0 ? name : k <= 3 ? name + "'".repeat(k) : `${name}'${k}`;
}

export class Emitter {
  readonly drafts: Draft[] = [];
  private readonly labels: Label[] = [];
  private readonly regs: string[] = [];
  private readonly names = new Map<string, number>();
  /** For each name asked for, how many registers it has been given. */
  private readonly repeats = new Map<string, number>();
  private site: Site = { start: 0, end: 0 };
  private pos = { line: 0, col: 0 };
  /** The inlined calls and walk turns in progress, outermost first: one frozen list each. */
  private scopes: readonly Scope[] = Object.freeze([]);
  private scopeIds = 0;

  constructor(
    readonly name: string,
    private readonly map: LineMap,
    /** Most instructions the program may have: a program past it is refused where it grows. */
    private readonly limit = Infinity,
  ) {}

  /**
   * A new register; names repeat as `count`, `count'`, `count''`, `count'''`, then `count'4`,
   * `count'5`… so each stays unique. Each name keeps the count it reached: a long expression
   * asks for thousands of `%t`, and searching from `%t` again, or writing a prime per repeat,
   * made compiling cubic in the expression's length.
   */
  reg(name: string): Reg {
    let k = this.repeats.get(name) ?? 0;
    let unique = repeated(name, k);
    while (this.names.has(unique)) unique = repeated(name, ++k);
    this.repeats.set(name, k + 1);
    const r = { index: this.regs.length, name: unique };
    this.names.set(unique, r.index);
    this.regs.push(unique);
    return r;
  }

  /** The register a name was first given, if any. */
  named(name: string): Reg | undefined {
    const i = this.names.get(name);
    return i === undefined ? undefined : { index: i, name };
  }

  get registers(): number {
    return this.regs.length;
  }

  /** The 1-based line a span starts on. */
  lineOf(span: Span): number {
    return this.map.position(span.start).line;
  }

  /** A new scope id: one a call, one a whole walk (its turns share it). */
  scopeId(): number {
    return ++this.scopeIds;
  }

  /**
   * The instructions emitted until `leave` are inside a call of `name` written at `span`, or
   * inside turn `turn` of a CPU walk (the same `id` for each of its turns).
   */
  enter(name: string, span: Span, turn = -1, id = this.scopeId()): void {
    const scope: Scope = Object.freeze({
      id,
      name,
      site: { start: span.start, end: span.end },
      turn,
    });
    this.scopes = Object.freeze([...this.scopes, scope]);
  }

  leave(): void {
    this.scopes = Object.freeze(this.scopes.slice(0, -1));
  }

  /** Sets the statement the next instructions belong to. */
  at(span: Span): void {
    this.site = { start: span.start, end: span.end };
    this.pos = this.map.position(span.start);
  }

  get here(): number {
    return this.drafts.length;
  }

  label(): Label {
    const l = new Label();
    this.labels.push(l);
    return l;
  }

  /**
   * Inserts a local instruction right after draft `pc`, in the same step (labels and the loop
   * ranges given move with the instructions they point to).
   */
  insertAfter(
    pc: number,
    fields: Partial<Omit<Draft, 'site' | 'scopes'>>,
    ranges: { start: number; end: number; header: number }[],
  ): void {
    const at = pc + 1;
    const like = this.drafts[pc] as Draft;
    const d: Draft = {
      ...BLANK,
      line: like.line,
      col: like.col,
      ...fields,
      to: null,
      site: like.site,
      scopes: like.scopes,
    };
    this.drafts.splice(at, 0, d);
    for (const l of this.labels) if (l.pc >= at) l.pc++;
    for (const r of ranges) {
      if (r.start >= at) r.start++;
      if (r.end >= at) r.end++;
      if (r.header >= at) r.header++;
    }
  }

  bind(l: Label): void {
    if (l.pc >= 0) throw new Error('label bound twice');
    l.pc = this.drafts.length;
  }

  emit(fields: Partial<Omit<Draft, 'site' | 'scopes'>>): Draft {
    if (this.drafts.length >= this.limit)
      throw new LangFault(
        this.site,
        `${this.name} compiles to more than the ${this.limit} instructions the lab runs.`,
        'Use fewer calls or CPU walks (every call is inlined, every for_each_online_cpu unrolled).',
      );
    const d: Draft = {
      ...BLANK,
      line: this.pos.line,
      col: this.pos.col,
      ...fields,
      to: fields.to ?? null,
      site: this.site,
      scopes: this.scopes,
    };
    this.drafts.push(d);
    return d;
  }

  // ---- operands --------------------------------------------------------------------------------

  private right(b: Src): Partial<Draft> {
    if (typeof b === 'bigint') return { useImm: true, immLo: loOf(b), immHi: hiOf(b) };
    return { src2: b.index, useImm: false };
  }

  private first(a: Src): Partial<Draft> {
    if (typeof a === 'bigint') return { useImm: true, immLo: loOf(a), immHi: hiOf(a) };
    return { src: a.index, useImm: false };
  }

  private mem(a: Operand): Partial<Draft> {
    return operandFields(a);
  }

  // ---- local instructions ----------------------------------------------------------------------

  mov(dst: Reg, v: Src): Draft {
    return this.emit({ op: Op.Mov, dst: dst.index, ...this.first(v) });
  }

  /** dst = a op b for a local opcode (Add, Sub, And, Or, Xor, Mul, Div, Mod, Shl, Shr). */
  arith(op: number, dst: Reg, a: Reg, b: Src): Draft {
    return this.emit({ op, dst: dst.index, src: a.index, ...this.right(b) });
  }

  setCond(cond: number, dst: Reg, a: Reg, b: Src): Draft {
    return this.emit({ op: Op.SetCond, cond, dst: dst.index, src: a.index, ...this.right(b) });
  }

  branch(cond: number, a: Reg, b: Src, to: Label): Draft {
    return this.emit({ op: Op.Branch, cond, src: a.index, ...this.right(b), to });
  }

  jump(to: Label): Draft {
    return this.emit({ op: Op.Jump, to });
  }

  record(slot: { offset: number; capacity: number }, v: Reg): Draft {
    return this.emit({
      op: Op.Record,
      src: v.index,
      base: slot.offset,
      stride: slot.capacity,
      kind: Kind.Result,
    });
  }

  recordTotal(slot: { offset: number; capacity: number }): Draft {
    return this.emit({ op: Op.RecordTotal, base: slot.offset, stride: slot.capacity });
  }

  tally(amount: Src): Draft {
    return this.emit({ op: Op.Tally, ...this.right(amount) });
  }

  // ---- visible instructions --------------------------------------------------------------------

  /** A one-step load of the whole operand (32-bit, or 64-bit in one access). */
  load(dst: Reg, a: Operand): Draft {
    return this.emit({ op: a.width === 64 ? Op.Load64 : Op.Load, dst: dst.index, ...this.mem(a) });
  }

  store(a: Operand, src: Reg): Draft {
    return this.emit({
      op: a.width === 64 ? Op.Store64 : Op.Store,
      src: src.index,
      ...this.mem(a),
    });
  }

  /** Half of a 64-bit access on a 32-bit machine (LoadLo, LoadHi, StoreLo, StoreHi). */
  half(op: number, r: Reg, a: Operand): Draft {
    const load = op === Op.LoadLo || op === Op.LoadHi;
    return this.emit({
      op,
      ...(load ? { dst: r.index } : { src: r.index }),
      ...this.mem(a),
      kind: Kind.TornAccess,
    });
  }

  atomic(op: number, a: Operand, v: Src, dst: Reg | null): Draft {
    return this.emit({ op, dst: dst ? dst.index : -1, ...this.mem(a), ...this.first(v) });
  }

  xchg(dst: Reg, a: Operand, v: Reg): Draft {
    return this.emit({ op: Op.Xchg, dst: dst.index, src: v.index, ...this.mem(a) });
  }

  cmpxchg(dst: Reg, a: Operand, expected: Reg, next: Reg): Draft {
    return this.emit({
      op: Op.Cmpxchg,
      dst: dst.index,
      src: expected.index,
      src2: next.index,
      ...this.mem(a),
    });
  }

  lockOp(op: number, a: Operand, dst: Reg | null = null): Draft {
    const kind = op === Op.SpinUnlock ? Kind.LockRelease : Kind.LockAcquire;
    return this.emit({ op, ...this.mem(a), kind, dst: dst ? dst.index : -1 });
  }

  /** A visible instruction with no memory operand (preempt_*, local_irq_*, Halt…). */
  plain(op: number, fields: Partial<Draft> = {}): Draft {
    return this.emit({ op, ...fields });
  }

  // ---- the program -----------------------------------------------------------------------------

  build(source: string): Program {
    const instrs = this.drafts.map((d): Instr => {
      const to = d.to;
      if (to && to.pc < 0) throw new Error(`${this.name}: jump to an unbound label`);
      // Every record has the same fields in the same order (one hidden class for the interpreter).
      return Object.freeze({
        op: d.op,
        dst: d.dst,
        src: d.src,
        src2: d.src2,
        useImm: d.useImm,
        immLo: d.immLo,
        immHi: d.immHi,
        width: d.width,
        mode: d.mode,
        base: d.base,
        stride: d.stride,
        areg: d.areg,
        cond: d.cond,
        target: to ? to.pc : d.target,
        line: d.line,
        col: d.col,
        kind: d.kind,
        tail: d.tail,
        tally: d.tally,
        tag: d.tag,
        say: d.say,
        saySpin: d.saySpin,
      });
    });
    return {
      name: this.name,
      instrs,
      regNames: [...this.regs],
      source: {
        text: source,
        sites: this.drafts.map((d) => d.site),
        scopes: this.drafts.map((d) => d.scopes),
      },
    };
  }
}
