// The base of a thread's compilation: names in scope, temporary registers, and the memory
// accesses every expression comes down to. A plain access of an s64 on a 32-bit machine is two
// steps (the halves, in the program's load and store order); an atomic one is one step, as a
// LOCK cmpxchg8b is. expressions.ts and statements.ts build on this.

import { Kind, Mode, Op, POINTER_BASE } from '../machine/isa.ts';
import type { PerCpuCell } from '../machine/layout.ts';
import type { Anatomy } from './anatomy.ts';
import type { Draft, Emitter, Operand, Reg } from './emit.ts';
import type { Module, Storage, ThreadItem } from './module.ts';
import { LangFault, type Span } from './source.ts';
import { INT, type Ty, typeName, wordsOf } from './types.ts';
import type { MemPlace, Place, Val } from './values.ts';

/** What a name stands for in a scope. */
export type Binding =
  { readonly k: 'place'; readonly place: Place } | { readonly k: 'val'; readonly val: Val };

/** A result slot, by name: where `record(name, v)` appends. */
export interface SlotRef {
  readonly offset: number;
  readonly capacity: number;
}

/** What one pass over the threads learns, for the next (loops, records) and for the anatomy. */
export interface PassInfo {
  /** Every loop compiled: its key, the range of its instructions, and whether it is bounded. */
  readonly loops: { key: string; thread: string; start: number; end: number; header: number }[];
  /** How many times each record() slot may be written, by slot name. */
  readonly records: Map<string, { sites: number; inLoop: boolean; thread: string }>;
}

export interface GenContext {
  readonly mod: Module;
  readonly anatomy: Anatomy | null;
  /** Keys of the loops that need a hidden counter (learnt from the first pass). */
  readonly bounded: ReadonlySet<string>;
  /** Live builds run loops unbounded: a real CPU has no loop bound. */
  readonly loopBounds: boolean;
  /** Result slots by name (null in the first pass: the offsets are not known yet). */
  readonly slot: (name: string) => SlotRef;
  readonly info: PassInfo;
  /** Notes shown beside a listing line (barriers that order nothing here…). */
  readonly notes: Map<number, Set<string>>;
  /** The amount of every add of the counter compiled (for the sum's window verdict). */
  readonly amounts: bigint[];
  /** What RCU compiles to: the machine's grace periods (sc, tso) or the model's events (lkmm). */
  readonly memory: 'sc' | 'tso' | 'lkmm';
}

export class GenBase {
  protected readonly scopes: Map<string, Binding>[] = [new Map<string, Binding>()];
  private readonly freeTemps: Reg[] = [];
  private readonly usedTemps: Reg[] = [];
  /** herd7's undeclared registers (`r1 = …`): numbers that may also be dereferenced. */
  protected readonly untyped = new Set<number>();
  /** Locals that hold a pointer: what it points into, where known (for kinds and tallies). */
  protected readonly pointers = new Map<number, Storage>();
  /** Loops being compiled, innermost last (for `break`, `continue`, and the hidden counters). */
  protected readonly loopStack: {
    brk: import('./emit.ts').Label;
    cont: import('./emit.ts').Label;
  }[] = [];

  constructor(
    readonly e: Emitter,
    readonly ctx: GenContext,
    readonly thread: ThreadItem,
  ) {}

  get mod(): Module {
    return this.ctx.mod;
  }

  /** A note for the listing beside the line of `span` (what a barrier does here…). */
  note(span: Span, text: string): void {
    const line = this.e.lineOf(span);
    const set = this.ctx.notes.get(line) ?? new Set<string>();
    set.add(text);
    this.ctx.notes.set(line, set);
  }

  // ---- scopes ----------------------------------------------------------------------------------

  protected pushScope(): void {
    this.scopes.push(new Map());
  }

  protected popScope(): void {
    this.scopes.pop();
  }

  protected bind(name: string, b: Binding): void {
    (this.scopes[this.scopes.length - 1] as Map<string, Binding>).set(name, b);
  }

  protected lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = (this.scopes[i] as Map<string, Binding>).get(name);
      if (b) return b;
    }
    return undefined;
  }

  /** Names visible here, for "did you mean". */
  protected visibleNames(): string[] {
    const out = new Set<string>();
    for (const s of this.scopes) for (const k of s.keys()) out.add(k);
    for (const k of this.mod.globals.keys()) out.add(k);
    for (const k of this.mod.defines.keys()) out.add(k);
    return [...out];
  }

  // ---- registers -------------------------------------------------------------------------------

  /** A scratch register for the statement being compiled (hidden from the CPU lanes). */
  temp(): Reg {
    const r = this.freeTemps.pop() ?? this.e.reg('%t');
    this.usedTemps.push(r);
    return r;
  }

  /** Gives back every scratch register: called between statements. */
  protected releaseTemps(): void {
    this.freeTemps.push(...this.usedTemps.splice(0));
  }

  /**
   * Keeps the scratch registers in use out of reach while `body` runs (an inlined call, whose
   * statements give back their own temps but must not reuse the caller's: its arguments and
   * the half-evaluated expression around the call live in them).
   */
  protected holdTemps<T>(body: () => T): T {
    const held = this.usedTemps.splice(0);
    try {
      return body();
    } finally {
      this.releaseTemps();
      this.usedTemps.push(...held);
    }
  }

  /** A register holding the value (a new scratch one unless it is a register already). */
  reg(v: Val, span: Span): Reg {
    switch (v.k) {
      case 'reg':
        return v.r;
      case 'const': {
        const r = this.temp();
        this.e.mov(r, v.v);
        return r;
      }
      case 'addr':
      case 'pcpu':
      case 'elem':
        return this.pointerReg(v, span);
      case 'obj':
        throw new LangFault(
          span,
          'a pointer to a struct cannot be kept in a register here.',
          'Pass &the_struct directly.',
        );
      case 'void':
        throw new LangFault(span, 'this has no value (it is void).');
    }
  }

  /** The word address a pointer value stands for, in a register. */
  private pointerReg(v: Val & { k: 'addr' | 'pcpu' | 'elem' }, span: Span): Reg {
    if (v.k === 'addr') {
      if (v.place.mode !== Mode.Abs)
        throw new LangFault(
          span,
          'this pointer depends on the CPU: keep it as this_cpu_ptr() or per_cpu_ptr().',
        );
      const r = this.temp();
      this.e.mov(r, BigInt(POINTER_BASE + v.place.base));
      return r;
    }
    if (v.k === 'pcpu')
      throw new LangFault(
        span,
        'a per-CPU pointer has no single address.',
        'Use this_cpu_ptr(p) for this CPU’s element or per_cpu_ptr(p, cpu) for another’s.',
      );
    const r = this.temp();
    if (v.idx.k === 'const') {
      this.e.mov(r, BigInt(POINTER_BASE + v.pc.base + Number(v.idx.v) * v.pc.stride));
      return r;
    }
    const idx = this.reg(v.idx, span);
    this.e.arith(Op.Mul, r, idx, BigInt(v.pc.stride));
    this.e.arith(Op.Add, r, r, BigInt(POINTER_BASE + v.pc.base));
    return r;
  }

  // ---- memory ----------------------------------------------------------------------------------

  /** A global cell or CPU k's element of a per-CPU variable, as a memory place. */
  protected storagePlace(st: Storage): Place {
    if (st.k === 'cell')
      return {
        k: 'mem',
        mode: Mode.Abs,
        base: st.cell.addr,
        stride: 0,
        reg: null,
        ty: st.ty,
        owner: st.cell.name,
      };
    return { k: 'pcpuvar', pc: st.pc, elem: st.ty };
  }

  /** This CPU's element of a per-CPU variable (the CPU the context is on at that step). */
  thisCpu(pc: PerCpuCell, elem: Ty): MemPlace {
    return {
      k: 'mem',
      mode: Mode.ThisCpu,
      base: pc.base,
      stride: pc.stride,
      reg: null,
      ty: elem,
      owner: pc.name,
    };
  }

  /** CPU idx's element of a per-CPU variable. */
  element(pc: PerCpuCell, elem: Ty, idx: Val, span: Span): MemPlace {
    if (idx.k === 'const') {
      const k = Number(idx.v);
      if (k < 0 || k >= pc.count)
        throw new LangFault(span, `CPU ${k} does not exist: the machine has ${pc.count} CPUs.`);
      return {
        k: 'mem',
        mode: Mode.Abs,
        base: pc.base + k * pc.stride,
        stride: 0,
        reg: null,
        ty: elem,
        owner: pc.name,
      };
    }
    return {
      k: 'mem',
      mode: Mode.Indexed,
      base: pc.base,
      stride: pc.stride,
      reg: this.reg(idx, span),
      ty: elem,
      owner: pc.name,
    };
  }

  operand(p: MemPlace, width: 32 | 64 = wordsOf(p.ty) === 2 ? 64 : 32): Operand {
    return { mode: p.mode, base: p.base, stride: p.stride, reg: p.reg, width };
  }

  private get wide32(): boolean {
    return this.mod.settings.wordBits === 32;
  }

  /** Marks what a write to `p` means for the charts (a fold, a sequence bump). */
  markWrite(d: Draft, p: MemPlace): Draft {
    const a = this.ctx.anatomy;
    if (a && p.owner !== null) {
      const seq = a.sequences.get(p.owner);
      if (a.foldsInto === p.owner) d.kind = Kind.Fold;
      // A bump of a sequence or change counter (not a count of sums or folds under way).
      else if (seq === 'inflight' || seq === 'changes') d.kind = Kind.SeqBump;
    }
    owners.set(d, p.owner);
    return d;
  }

  /**
   * Loads a memory place into `dst`. `atomic`: one access whatever the width (atomic64_read,
   * this_cpu_read); otherwise a 64-bit value on a 32-bit machine is read in two halves.
   */
  loadInto(p: MemPlace, dst: Reg, atomic: boolean, tag = 0): void {
    const words = wordsOf(p.ty);
    if (words === 2 && this.wide32 && !atomic) {
      const halves =
        this.mod.settings.loadOrder === 'lo-hi' ? [Op.LoadLo, Op.LoadHi] : [Op.LoadHi, Op.LoadLo];
      for (const op of halves) {
        const d = this.e.half(op, dst, this.operand(p, 64));
        d.tag = tag;
        owners.set(d, p.owner);
      }
      return;
    }
    const d = this.e.load(dst, this.operand(p));
    d.tag = tag;
    owners.set(d, p.owner);
    if (p.ty.k === 'int' && p.ty.unsigned && words === 1)
      this.e.arith(Op.And, dst, dst, 0xffffffffn);
  }

  /** Stores `src` into a memory place; see loadInto for `atomic`. Returns the completing write. */
  storeFrom(p: MemPlace, src: Reg, atomic: boolean, tag = 0): Draft {
    const words = wordsOf(p.ty);
    if (words === 2 && this.wide32 && !atomic) {
      const halves =
        this.mod.settings.storeOrder === 'lo-hi'
          ? [Op.StoreLo, Op.StoreHi]
          : [Op.StoreHi, Op.StoreLo];
      let last: Draft | null = null;
      for (const op of halves) {
        last = this.markWrite(this.e.half(op, src, this.operand(p, 64)), p);
        last.tag = tag;
      }
      return last as Draft;
    }
    const d = this.markWrite(this.e.store(this.operand(p), src), p);
    d.tag = tag;
    return d;
  }

  // ---- places and pointers ---------------------------------------------------------------------

  /** *v: the place a pointer value points to. */
  deref(v: Val, span: Span): Place {
    switch (v.k) {
      case 'addr':
        return v.place;
      case 'pcpu':
        return { k: 'pcpuvar', pc: v.pc, elem: v.elem };
      case 'elem':
        return this.element(v.pc, v.elem, v.idx, span);
      case 'obj':
        return { k: 'obj', obj: v.obj };
      case 'reg': {
        // herd7's registers have no type: one that holds a pointer may be dereferenced.
        const ty: Ty =
          this.untyped.has(v.r.index) && v.ty.k !== 'ptr' ? { k: 'ptr', to: INT } : v.ty;
        if (ty.k !== 'ptr')
          throw new LangFault(span, `\`*\` needs a pointer, and this is ${typeName(v.ty)}.`);
        const to = ty.to;
        if (to.k === 'struct' || to.k === 'void')
          throw new LangFault(
            span,
            `a pointer to ${typeName(to)} must be known when the program is compiled.`,
          );
        const owner = v.points
          ? v.points.k === 'cell'
            ? v.points.cell.name
            : v.points.pc.name
          : null;
        return { k: 'mem', mode: Mode.Reg, base: 0, stride: 0, reg: v.r, ty: to, owner };
      }
      default:
        throw new LangFault(span, 'this is not a pointer.');
    }
  }

  /** &place. */
  addressOf(p: Place, span: Span): Val {
    switch (p.k) {
      case 'mem': {
        if (p.mode === Mode.Abs) return { k: 'addr', place: p, ty: { k: 'ptr', to: p.ty } };
        if (p.mode === Mode.ThisCpu) {
          // &this CPU's element (&__get_cpu_var(v)): the address, computed at this step.
          const d = this.temp();
          this.e.plain(Op.AddrGen, {
            dst: d.index,
            mode: Mode.ThisCpu,
            base: p.base,
            stride: p.stride,
          });
          const pc = this.mod.layout.perCpuNamed(p.owner ?? '');
          return pc
            ? { k: 'reg', r: d, ty: { k: 'ptr', to: p.ty }, points: { k: 'percpu', pc, ty: p.ty } }
            : { k: 'reg', r: d, ty: { k: 'ptr', to: p.ty } };
        }
        throw new LangFault(
          span,
          'this element’s address depends on the CPU: use this_cpu_ptr() or per_cpu_ptr().',
        );
      }
      case 'pcpuvar':
        return { k: 'pcpu', pc: p.pc, elem: p.elem, ty: { k: 'percpu', to: p.elem } };
      case 'obj':
        return {
          k: 'obj',
          obj: p.obj,
          ty: { k: 'ptr', to: { k: 'struct', name: p.obj.def.name } },
        };
      case 'local':
        throw new LangFault(
          span,
          `\`${p.name}\` is a local variable: the lab keeps it in a register, which has no address.`,
          'Only primitives such as try_cmpxchg(p, &old, new) take a local’s address.',
        );
    }
  }

  /** A global by name, as a place. */
  protected globalPlace(name: string): Place | null {
    const g = this.mod.globals.get(name);
    if (!g) return null;
    if (g.k === 'struct') return { k: 'obj', obj: g.obj };
    return this.storagePlace(g.storage);
  }

  /** The field `f` of a global struct. */
  protected field(
    obj: { name: string; fields: ReadonlyMap<string, Storage>; def: { name: string } },
    f: string,
    span: Span,
  ): Storage {
    const st = obj.fields.get(f);
    if (!st) throw new LangFault(span, `struct ${obj.def.name} has no field \`${f}\`.`, '');
    return st;
  }

  /** Checks that a value is a number a register can hold. */
  checkNumber(v: Val, span: Span, what = 'this'): void {
    if (v.k === 'void') throw new LangFault(span, `${what} has no value (it is void).`);
    if (v.k === 'obj') throw new LangFault(span, `${what} is a struct, not a number.`);
  }
}

/** The memory each access touches (a cell's name), for the anatomy pass (kept beside the draft). */
export const owners = new WeakMap<Draft, string | null>();

export { INT };
