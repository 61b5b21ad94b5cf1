// The machine's events as Promela: one proctype per CPU, whose loop offers what the explorer
// offers on that CPU (src/machine/events.ts): a step of the context on top of it (one visible
// instruction and the local ones after it, as one d_step: the lab's step is indivisible, and so
// is this), an IRQ, an NMI, a preemption, a migration to each other CPU, each within its
// budget. The effects follow src/machine/interpreter.ts word for word.

import { CtxKind, type Machine } from '../../machine/machine.ts';
import { type Instr, isLocal, Kind, Mode, Op, POINTER_BASE } from '../../machine/isa.ts';
import { absFirst, add64, condition, lit, PromelaRefusal, signOf, sub64, Words } from './words.ts';

/** Budgets by kind, as the explorer counts them: IRQs, NMIs, preemptions, migrations. */
export interface Limits {
  readonly irqs: number;
  readonly nmis: number;
  readonly preemptions: number;
  readonly migrations: number;
}

/** The scratch words of a step, and the statement that clears them when it ends. */
export const SCRATCH = ['ha', 'hx', 'hy', 'hn', 'hm', 'hk', 'hp', 'hq', 'hr', 'ht', 'hd'];
const SCRATCH_CLEAR = `${SCRATCH.map((h) => `${h} = 0`).join('; ')};`;

const ind = (lines: readonly string[], n = 1): string[] => lines.map((l) => '  '.repeat(n) + l);

export class StepWriter {
  readonly w: Words;

  constructor(
    readonly m: Machine,
    readonly limits: Limits,
    /** Statements that check the always-invariants after each event. */
    readonly always: readonly string[],
  ) {
    this.w = new Words(m);
    for (let c = m.tasks; c < m.contexts; c++) {
      const code = m.code[c] ?? [];
      if (!code.some((i) => !isLocal(i.op)))
        throw new PromelaRefusal(
          `a handler of CPU${String(m.ctxHome[c])} takes no step of its own: the export needs one`,
        );
    }
  }

  /** The context on top of CPU k: its NMI handler, else its IRQ handler, else its task. */
  top(k: number): string {
    const nmi = this.m.nmiCtx[k] as number;
    const irq = this.m.irqCtx[k] as number;
    let e = `cur[${String(k)}]`;
    if (irq >= 0) e = `(inirq[${String(k)}] -> ${String(irq)} : ${e})`;
    if (nmi >= 0) e = `(innmi[${String(k)}] -> ${String(nmi)} : ${e})`;
    return e;
  }

  /** Contexts that may run on CPU k: its handlers, and the tasks that can be there. */
  contextsOn(k: number): number[] {
    const out: number[] = [];
    for (let c = 0; c < this.m.contexts; c++) {
      const kind = this.m.ctxKind[c];
      if (kind === CtxKind.Task) {
        if (this.limits.migrations > 0 || this.m.ctxHome[c] === k) out.push(c);
      } else if (this.m.ctxHome[c] === k) out.push(c);
    }
    return out;
  }

  /** CPU k's top context is between the halves of a local-atomic instruction. */
  midInstruction(k: number): string {
    const parts: string[] = [];
    for (const c of this.contextsOn(k)) {
      const tails = (this.m.code[c] ?? []).flatMap((i, pc) => (i.tail ? [pc] : []));
      if (tails.length > 0)
        parts.push(
          `(${this.top(k)} == ${String(c)} && (${tails.map((t) => `pc[${String(c)}] == ${String(t)}`).join(' || ')}))`,
        );
    }
    return parts.length === 0 ? '0' : parts.join(' || ');
  }

  /** The word address of an instruction's memory operand, as an expression. */
  private address(c: number, ins: Instr): string {
    switch (ins.mode) {
      case Mode.Abs:
        return String(ins.base);
      case Mode.ThisCpu:
        return `(${String(ins.base)} + ccpu[${String(c)}] * ${String(ins.stride)})`;
      case Mode.Reg:
        return `(${this.w.lo(c, ins.areg)} - ${String(POINTER_BASE)})`;
      case Mode.Indexed:
        return `(${String(ins.base)} + ${this.w.lo(c, ins.areg)} * ${String(ins.stride)})`;
      default:
        throw new PromelaRefusal(`instruction ${String(ins.op)} has no memory operand`);
    }
  }

  /** ha = the operand's address, checked against memory as the interpreter checks it. */
  private addressInto(c: number, ins: Instr): string[] {
    const a = this.address(c, ins);
    const last = ins.width === 64 ? 'ha + 1' : 'ha';
    return [`ha = ${a};`, `assert(ha >= 0 && ${last} < ${String(this.m.memWords)}); /* fault */`];
  }

  /** The right operand of a local instruction: the immediate, src2, or zero. */
  private right(c: number, ins: Instr): [string, string] {
    if (ins.useImm) return [lit(ins.immLo), lit(ins.immHi)];
    if (ins.src2 >= 0) return [this.w.lo(c, ins.src2), this.w.hi(c, ins.src2)];
    return ['0', '0'];
  }

  private left(c: number, ins: Instr): [string, string] {
    if (ins.src >= 0) return [this.w.lo(c, ins.src), this.w.hi(c, ins.src)];
    return ['0', '0'];
  }

  /** One local instruction's effect; `jump(target)` says how to continue at another pc. */
  private local(c: number, ins: Instr, jump: (target: number) => string): string[] {
    const w = this.w;
    const [al, ah] = this.left(c, ins);
    const [bl, bh] = this.right(c, ins);
    const dl = ins.dst >= 0 ? w.lo(c, ins.dst) : '';
    const dh = ins.dst >= 0 ? w.hi(c, ins.dst) : '';
    const retry = ins.kind === Kind.SumRetry ? [`retr[${String(c)}]++;`] : [];
    switch (ins.op) {
      case Op.Mov:
        return ins.useImm
          ? [`${dl} = ${lit(ins.immLo)}; ${dh} = ${lit(ins.immHi)};`]
          : [`hx = ${al}; hy = ${ah}; ${dl} = hx; ${dh} = hy;`];
      case Op.Add:
        return add64(dl, dh, al, ah, bl, bh);
      case Op.Sub:
        return sub64(dl, dh, al, ah, bl, bh);
      case Op.And:
      case Op.Or:
      case Op.Xor: {
        const o = ins.op === Op.And ? '&' : ins.op === Op.Or ? '|' : '^';
        return [`hx = ${al} ${o} ${bl}; hy = ${ah} ${o} ${bh}; ${dl} = hx; ${dh} = hy;`];
      }
      case Op.Branch:
        return [
          ...absFirst(ins.cond, al, ah),
          `if :: ${condition(ins.cond, al, ah, bl, bh)} -> ${[...retry, jump(ins.target)].join(' ')}`,
          `   :: else -> ${jump(-1)} fi;`,
        ];
      case Op.Jump:
        return [...retry, jump(ins.target)];
      case Op.Record:
        return [
          `hn = res[${String(ins.base)}];`,
          `if :: hn >= ${String(ins.stride)} -> hn = ${String(ins.stride - 1)} :: else fi;`,
          `res[${String(ins.base + 1)} + 2 * hn] = ${al}; res[${String(ins.base + 2)} + 2 * hn] = ${ah};`,
          `res[${String(ins.base)}] = hn + 1;`,
        ];
      case Op.Pause:
      case Op.NoFence:
        return [];
      case Op.Tally:
        return add64(w.tallyLo(c), w.tallyHi(c), w.tallyLo(c), w.tallyHi(c), bl, bh);
      case Op.RecordTotal: {
        const out = ['hn = 0; hm = 0;'];
        for (let x = 0; x < this.m.contexts; x++)
          out.push(...add64('hn', 'hm', 'hn', 'hm', w.tallyLo(x), w.tallyHi(x)));
        return [
          ...out,
          `hk = res[${String(ins.base)}];`,
          `if :: hk >= ${String(ins.stride)} -> hk = ${String(ins.stride - 1)} :: else fi;`,
          `res[${String(ins.base + 1)} + 2 * hk] = hn; res[${String(ins.base + 2)} + 2 * hk] = hm;`,
          `res[${String(ins.base)}] = hk + 1;`,
        ];
      }
      case Op.SetCond:
        return [
          ...absFirst(ins.cond, al, ah),
          `${dl} = (${condition(ins.cond, al, ah, bl, bh)} -> 1 : 0); ${dh} = 0;`,
        ];
      case Op.Mul:
      case Op.Div:
      case Op.Mod:
      case Op.Shl:
      case Op.Shr: {
        // 64-bit products and quotients need more than Promela's int: the model computes them in
        // 32 bits and asserts that nothing was lost, so a run past 32 bits is reported, not wrong.
        const o = { [Op.Mul]: '*', [Op.Div]: '/', [Op.Mod]: '%', [Op.Shl]: '<<', [Op.Shr]: '>>' }[
          ins.op
        ];
        const fits = `${ah} == ${signOf(al)} && ${bh} == ${signOf(bl)}`;
        const out = [`assert(${fits}); /* the export computes ${o} in 32 bits */`];
        if (ins.op === Op.Div || ins.op === Op.Mod) out.push(`assert(${bl} != 0); /* fault */`);
        const b = ins.op === Op.Shl || ins.op === Op.Shr ? `(${bl} & 31)` : bl;
        out.push(`hx = ${al} ${o} ${b};`);
        if (ins.op === Op.Mul) out.push(`assert(${al} == 0 || hx / ${al} == ${bl});`);
        if (ins.op === Op.Shl) out.push(`assert((hx >> ${b}) == ${al});`);
        out.push(`${dl} = hx; ${dh} = ${signOf('hx')};`);
        return out;
      }
      default:
        throw new PromelaRefusal(`the export does not know local opcode ${String(ins.op)}`);
    }
  }

  /**
   * The local instructions from `start` to the next visible one (or the end), then
   * `pc[c] = next`. Straight code where they do not branch; a small loop over a hidden pc where
   * they do (a local loop: no label, so the same text can appear at every place that enters).
   */
  locals(c: number, start: number): string[] {
    return this.localsEnding(c, start).lines;
  }

  /** The local code from `start`, and whether it ends the program: always, never or maybe. */
  localsEnding(c: number, start: number): { lines: string[]; ends: 'always' | 'never' | 'maybe' } {
    const code = this.m.code[c] ?? [];
    const region = new Set<number>();
    const todo = [start];
    let branches = false;
    while (todo.length > 0) {
      const pc = todo.pop() as number;
      if (pc >= code.length || region.has(pc)) continue;
      const ins = code[pc] as Instr;
      if (!isLocal(ins.op)) continue;
      region.add(pc);
      if (ins.op === Op.Branch || ins.op === Op.Jump) {
        branches = true;
        todo.push(ins.target);
      }
      if (ins.op !== Op.Jump) todo.push(pc + 1);
    }
    const pcOf = `pc[${String(c)}]`;
    if (!branches) {
      const out: string[] = [];
      let pc = start;
      while (region.has(pc)) {
        out.push(...this.local(c, code[pc] as Instr, () => ''));
        pc++;
      }
      out.push(`${pcOf} = ${String(pc)};`);
      return { lines: out, ends: pc >= code.length ? 'always' : 'never' };
    }
    const out = [`hp = ${String(start)};`, 'do'];
    for (const pc of [...region].sort((a, b) => a - b)) {
      const ins = code[pc] as Instr;
      const jump = (t: number) => `hp = ${String(t < 0 ? pc + 1 : t)};`;
      const body = this.local(c, ins, jump);
      if (ins.op !== Op.Branch && ins.op !== Op.Jump) body.push(`hp = ${String(pc + 1)};`);
      out.push(`:: hp == ${String(pc)} ->`, ...ind(body, 2));
    }
    out.push(`:: else -> break`, 'od;', `${pcOf} = hp;`);
    const exits = [...region].flatMap((pc) => {
      const ins = code[pc] as Instr;
      const next =
        ins.op === Op.Jump ? [ins.target] : ins.op === Op.Branch ? [ins.target, pc + 1] : [pc + 1];
      return next.filter((t) => !region.has(t));
    });
    const ending = exits.filter((t) => t >= code.length).length;
    return {
      lines: out,
      ends: ending === 0 ? 'never' : ending === exits.length ? 'always' : 'maybe',
    };
  }

  /** The next unfinished task waiting on CPU k after task `after` (an expression), into hq. */
  private nextReady(k: number, after: string): string[] {
    const T = this.m.tasks;
    const out = [`hr = ${after}; hq = -1;`];
    for (let i = 1; i <= T; i++) {
      const t = `((hr + ${String(i)}) % ${String(T)})`;
      out.push(
        `if :: hq == -1 && ${t} != cur[${String(k)}] && ${t} != hr && !done[${t}] && ccpu[${t}] == ${String(k)} -> hq = ${t} :: else fi;`,
      );
    }
    return out;
  }

  /** Pushes CPU k's IRQ handler (deliverIrq). */
  deliverIrq(k: number): string[] {
    const K = String(k);
    const ctx = this.m.irqCtx[k] as number;
    return [`pend[${K}] = 0; inirq[${K}] = 1; irqon[${K}] = 0; nirq[${K}]++;`, ...this.enter(ctx)];
  }

  deliverNmi(k: number): string[] {
    const K = String(k);
    const ctx = this.m.nmiCtx[k] as number;
    return [
      `nmisv[${K}] = irqon[${K}]; innmi[${K}] = 1; irqon[${K}] = 0; nnmi[${K}]++;`,
      ...this.enter(ctx),
    ];
  }

  /** A fresh invocation of handler `ctx`: clean registers, its leading local code. */
  private enter(ctx: number): string[] {
    const zero: string[] = [];
    for (let r = 0; r < this.w.regs; r++)
      zero.push(`${this.w.lo(ctx, r)} = 0; ${this.w.hi(ctx, r)} = 0;`);
    return [...zero, ...this.locals(ctx, 0)];
  }

  /** Context ctx ran off its program's end on CPU k (finish). */
  private finish(k: number, ctx: number): string[] {
    const K = String(k);
    const kind = this.m.ctxKind[ctx];
    if (kind === CtxKind.Task)
      return [
        `assert(pre[${K}] == 0 && irqon[${K}] == 1); /* fault: a task ends with preemption or interrupts off */`,
        `done[${String(ctx)}] = 1; ntask[${K}]--;`,
        `if :: ntask[${K}] == 0 -> cur[${K}] = -1`,
        `   :: else ->`,
        ...ind(this.nextReady(k, String(ctx)), 2),
        `      cur[${K}] = hq`,
        'fi;',
      ];
    const pendingIrq = this.m.irqCtx[k] !== -1 ? this.deliverIrq(k) : ['skip'];
    if (kind === CtxKind.Irq)
      return [
        `inirq[${K}] = 0; irqon[${K}] = 1;`,
        `if :: pend[${K}] ->`,
        ...ind(pendingIrq, 2),
        '   :: else fi;',
      ];
    return [
      `innmi[${K}] = 0; irqon[${K}] = nmisv[${K}]; nmisv[${K}] = 0;`,
      `if :: irqon[${K}] && pend[${K}] ->`,
      ...ind(pendingIrq, 2),
      '   :: else fi;',
    ];
  }

  /** The visible instruction's guard (beyond being on top) and effect. */
  private visible(k: number, c: number, ins: Instr): { guard: string; body: string[] } {
    const K = String(k);
    const w = this.w;
    const dl = ins.dst >= 0 ? w.lo(c, ins.dst) : '';
    const dh = ins.dst >= 0 ? w.hi(c, ins.dst) : '';
    const sl = ins.src >= 0 ? w.lo(c, ins.src) : '0';
    const sh = ins.src >= 0 ? w.hi(c, ins.src) : '0';
    const at = () => this.addressInto(c, ins);
    const dst64 = (lo: string, hi: string) =>
      ins.dst >= 0 ? [`${dl} = ${lo}; ${dh} = ${hi};`] : [];
    const dst32 = (v: string) => dst64(v, signOf(dl));
    // Most steps are unguarded: one that works on memory starts by computing its address (ha).
    const memory = (...body: string[]) => ({ guard: '', body: [...at(), ...body] });
    const local = (...body: string[]) => ({ guard: '', body });
    const wide = ins.width === 64;
    const [vl, vh] = ins.useImm ? [lit(ins.immLo), lit(ins.immHi)] : [sl, sh];
    switch (ins.op) {
      case Op.Load:
        return memory(`${dl} = mem[ha]; ${dh} = ${signOf(dl)};`);
      case Op.Store:
        return memory(`mem[ha] = ${sl};`);
      case Op.Load64:
        return memory(`hx = mem[ha]; ${dh} = mem[ha + 1]; ${dl} = hx;`);
      case Op.Store64:
        return memory(`mem[ha] = ${sl}; mem[ha + 1] = ${sh};`);
      case Op.LoadLo:
        return memory(`${dl} = mem[ha];`);
      case Op.LoadHi:
        return memory(`${dh} = mem[ha + 1];`);
      case Op.StoreLo:
        return memory(`mem[ha] = ${sl};`);
      case Op.StoreHi:
        return memory(`mem[ha + 1] = ${sh};`);
      case Op.AtomicAdd:
        if (wide)
          return memory(
            ...add64('mem[ha]', 'mem[ha + 1]', 'mem[ha]', 'mem[ha + 1]', vl, vh),
            ...dst64('mem[ha]', 'mem[ha + 1]'),
          );
        return memory(`mem[ha] = mem[ha] + ${vl};`, ...dst32('mem[ha]'));
      case Op.AtomicOr:
      case Op.AtomicAnd:
      case Op.AtomicXor: {
        const o = ins.op === Op.AtomicOr ? '|' : ins.op === Op.AtomicAnd ? '&' : '^';
        if (wide)
          return memory(
            `hx = mem[ha]; hy = mem[ha + 1];`,
            `mem[ha] = hx ${o} ${vl}; mem[ha + 1] = hy ${o} ${vh};`,
            ...dst64('hx', 'hy'),
          );
        return memory(`hx = mem[ha];`, `mem[ha] = hx ${o} ${vl};`, ...dst32('hx'));
      }
      case Op.AddUnless: {
        const ul = w.lo(c, ins.src2);
        const uh = w.hi(c, ins.src2);
        if (wide)
          return memory(
            `hn = mem[ha]; hm = mem[ha + 1];`,
            `if :: !(hn == ${ul} && hm == ${uh}) ->`,
            ...ind(add64('mem[ha]', 'mem[ha + 1]', 'hn', 'hm', vl, vh), 2),
            '   :: else fi;',
            ...dst64('hn', 'hm'),
          );
        return memory(
          `hn = mem[ha];`,
          `if :: hn != ${ul} -> mem[ha] = hn + ${vl} :: else fi;`,
          ...dst32('hn'),
        );
      }
      case Op.Xchg:
        if (wide)
          return memory(
            `hx = mem[ha]; hy = mem[ha + 1];`,
            `mem[ha] = ${sl}; mem[ha + 1] = ${sh};`,
            `${dl} = hx; ${dh} = hy;`,
          );
        return memory(`hx = mem[ha]; mem[ha] = ${sl};`, ...dst32('hx'));
      case Op.Cmpxchg: {
        const nl = w.lo(c, ins.src2);
        const nh = w.hi(c, ins.src2);
        if (wide)
          return memory(
            `hx = mem[ha]; hy = mem[ha + 1];`,
            `if :: hx == ${sl} && hy == ${sh} -> mem[ha] = ${nl}; mem[ha + 1] = ${nh} :: else fi;`,
            `${dl} = hx; ${dh} = hy;`,
          );
        return memory(
          `hx = mem[ha];`,
          `if :: hx == ${sl} -> mem[ha] = ${nl} :: else fi;`,
          ...dst32('hx'),
        );
      }
      case Op.SpinLock:
        // A held lock: the lab's step changes nothing (the CPU spins), so here it waits.
        return {
          guard: `mem[${this.address(c, ins)}] == 0`,
          body: [...at(), `mem[ha] = ${String(c + 1)}; pre[${K}]++;`],
        };
      case Op.SpinTrylock:
        return memory(
          `if :: mem[ha] == 0 -> mem[ha] = ${String(c + 1)}; pre[${K}]++; ${dl} = 1`,
          `   :: else -> ${dl} = 0 fi;`,
          `${dh} = 0;`,
        );
      case Op.SpinUnlock:
        return memory(
          `assert(mem[ha] == ${String(c + 1)}); /* fault: releases a lock it does not hold */`,
          `mem[ha] = 0; pre[${K}]--;`,
        );
      case Op.PreemptDisable:
        return local(`pre[${K}]++;`);
      case Op.PreemptEnable:
        return local(
          `assert(pre[${K}] > 0); /* fault: preempt_count would go negative */`,
          `pre[${K}]--;`,
        );
      case Op.IrqSave:
        return local(`${dl} = irqon[${K}]; ${dh} = 0; irqon[${K}] = 0;`);
      case Op.IrqRestore:
      case Op.IrqEnable: {
        const on = ins.op === Op.IrqEnable ? '1' : `((${sl} != 0) -> 1 : 0)`;
        return local(`irqon[${K}] = ${on};`, `hd = irqon[${K}] && pend[${K}];`);
      }
      case Op.IrqDisable:
        return local(`irqon[${K}] = 0;`);
      case Op.AddrGen:
        return local(
          `${dl} = ${String(POINTER_BASE + ins.base)} + ccpu[${String(c)}] * ${String(ins.stride)}; ${dh} = 0;`,
        );
      case Op.CpuId:
        return local(`${dl} = ccpu[${String(c)}]; ${dh} = 0;`);
      case Op.Fence:
        return local();
      default:
        throw new PromelaRefusal(`the export does not know visible opcode ${String(ins.op)}`);
    }
  }

  /** One step of context c at pc on CPU k: a d_step. */
  private step(k: number, c: number, pc: number): string[] {
    const code = this.m.code[c] ?? [];
    const ins = code[pc] as Instr;
    const { guard, body } = this.visible(k, c, ins);
    const after = this.localsEnding(c, pc + 1);
    const tally =
      ins.tally !== 0
        ? add64(
            this.w.tallyLo(c),
            this.w.tallyHi(c),
            this.w.tallyLo(c),
            this.w.tallyHi(c),
            lit(ins.tally),
            ins.tally < 0 ? '-1' : '0',
          )
        : [];
    const delivers = ins.op === Op.IrqRestore || ins.op === Op.IrqEnable;
    const irq = this.m.irqCtx[k] !== -1;
    const when = `${this.top(k)} == ${String(c)} && pc[${String(c)}] == ${String(pc)}${guard ? ` && ${guard}` : ''}`;
    const line = ins.line > 0 ? ` /* line ${String(ins.line)} */` : '';
    return [
      `:: d_step { ${when} ->${line}`,
      ...ind(
        [
          ...(delivers ? ['hd = 0;'] : []),
          ...body,
          ...tally,
          ...after.lines,
          ...(after.ends === 'always'
            ? this.finish(k, c)
            : after.ends === 'maybe'
              ? [
                  `if :: pc[${String(c)}] >= ${String(code.length)} ->`,
                  ...ind(this.finish(k, c), 2),
                  '   :: else fi;',
                ]
              : []),
          ...(delivers && irq
            ? [
                `if :: hd && pend[${String(k)}] && irqon[${String(k)}] ->`,
                ...ind(this.deliverIrq(k), 2),
                '   :: else fi;',
              ]
            : []),
          ...(delivers ? ['hd = 0;'] : []),
          ...this.always,
          ...this.clearScratch(),
        ],
        2,
      ),
      '   }',
    ];
  }

  /** Scratch words end every step at 0, so they never tell two states apart (they are hidden). */
  clearScratch(): string[] {
    return [SCRATCH_CLEAR];
  }

  /** CPU k's interventions within their budgets. */
  private interventions(k: number): string[] {
    const K = String(k);
    const m = this.m;
    const L = this.limits;
    const out: string[] = [];
    const mid = this.midInstruction(k);
    const notMid = mid === '0' ? '' : ` && !(${mid})`;
    if (L.irqs > 0 && m.irqCtx[k] !== -1)
      out.push(
        `:: d_step { uirq < ${String(L.irqs)} && !pend[${K}]${notMid} -> /* irq${K} */`,
        `     uirq++;`,
        `     if :: irqon[${K}] ->`,
        ...ind(this.deliverIrq(k), 4),
        `        :: else -> pend[${K}] = 1 fi;`,
        ...ind(this.always, 3),
        ...ind(this.clearScratch(), 3),
        '   }',
      );
    if (L.nmis > 0 && m.nmiCtx[k] !== -1)
      out.push(
        `:: d_step { unmi < ${String(L.nmis)} && !innmi[${K}]${notMid} -> /* nmi${K} */`,
        `     unmi++;`,
        ...ind(this.deliverNmi(k), 3),
        ...ind(this.always, 3),
        ...ind(this.clearScratch(), 3),
        '   }',
      );
    const preemptible = `cur[${K}] >= 0 && !innmi[${K}] && !inirq[${K}] && pre[${K}] == 0 && irqon[${K}]${notMid}`;
    if (L.preemptions > 0 && m.tasks > 1)
      out.push(
        `:: d_step { upre < ${String(L.preemptions)} && ${preemptible} && ntask[${K}] != 1 -> /* pre${K} */`,
        `     upre++;`,
        ...ind(this.nextReady(k, `cur[${K}]`), 3),
        `     cur[${K}] = hq;`,
        ...ind(this.always, 3),
        ...ind(this.clearScratch(), 3),
        '   }',
      );
    if (L.migrations > 0 && m.cpus > 1)
      for (let j = 0; j < m.cpus; j++) {
        if (j === k) continue;
        const J = String(j);
        out.push(
          `:: d_step { umig < ${String(L.migrations)} && ${preemptible} -> /* mig${K}>${J} */`,
          `     umig++;`,
          `     ht = cur[${K}]; ccpu[ht] = ${J}; ntask[${K}]--; ntask[${J}]++;`,
          `     if :: ntask[${K}] == 0 -> cur[${K}] = -1`,
          `        :: else ->`,
          ...ind(this.nextReady(k, 'ht'), 5),
          `           cur[${K}] = hq`,
          '     fi;',
          `     if :: cur[${J}] == -1 -> cur[${J}] = ht :: else fi;`,
          ...ind(this.always, 3),
          ...ind(this.clearScratch(), 3),
          '   }',
        );
      }
    return out;
  }

  /** CPU k's proctype. */
  proctype(k: number): string[] {
    const steps: string[] = [];
    for (const c of this.contextsOn(k)) {
      const code = this.m.code[c] ?? [];
      code.forEach((ins, pc) => {
        // A loop bound (Halt) is no step: the context stops there, as in the explorer.
        if (!isLocal(ins.op) && ins.op !== Op.Halt) steps.push(...this.step(k, c, pc));
      });
    }
    return [
      `proctype cpu${String(k)}() {`,
      // Every state between two events is a valid place for a CPU to wait: whether the machine
      // has ended well is the checker's to say.
      'end:',
      '  do',
      ...ind([...steps, ...this.interventions(k)]),
      '  od',
      '}',
    ];
  }
}
