// Plain-English narration of every step: the step log, screen readers and the CLI use it.
//
// The narration is derived from the states before and after the event plus the interpreter's
// trace, so the hot path pays nothing for it. An instruction may carry its own template (`say`)
// with placeholders: {who} (the acting context), {cpu} (the CPU it is on), {cell} (the memory cell), {v} (the value read,
// written or added), {old} and {new} (the cell before and after), {r:name} (a register after),
// {r#N} (register N, for generated templates) and {odd?A|B} (A when {v} is odd, else B).

import { eventCpu, eventTarget, eventType, Ev } from './events.ts';
import { pairValue } from './int64.ts';
import { topContext, type Trace } from './interpreter.ts';
import { type Instr, Kind, Op } from './isa.ts';
import { cpuSetText, isCpuMask, operandAddress, registerValue, valueText } from './read.ts';
import { cellAt } from './layout.ts';
import { count } from './count.ts';
import { bufferOf, buffered, seenWord } from './tso.ts';
import {
  CPU_CUR,
  CPU_FIELDS,
  CPU_IN_IRQ,
  CPU_IRQ_ON,
  CPU_IRQS,
  CPU_PREEMPT,
  CTX_CPU,
  CTX_DONE,
  CTX_PC,
  CtxKind,
  contextName,
  type Machine,
} from './machine.ts';

export interface StepDescription {
  /** The sentence. */
  readonly text: string;
  /** What kind of step it was (Kind), for the charts. */
  readonly kind: number;
  /** Listing line of the instruction run (0 for scheduler events). */
  readonly line: number;
  /** The context that acted (−1 for none), and the CPU. */
  readonly ctx: number;
  readonly cpu: number;
}

const fmt = (v: number | bigint) => String(v);

function hex32(v: number): string {
  return `0x${(v >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

/** "CPU0", "CPU1 (T2)" or "CPU0's IRQ handler". */
export function actorName(m: Machine, s: Int32Array, ctx: number): string {
  const kind = m.ctxKind[ctx];
  const cpu = s[m.ctxOff + ctx * m.ctxStride + CTX_CPU] as number;
  if (kind === CtxKind.Dead) return `CPU${cpu} (${contextName(m, ctx)})`;
  if (kind !== CtxKind.Task) return contextName(m, ctx);
  // Name the task only when "CPUk" alone would be ambiguous: it migrated, or shares its CPU.
  const home = m.ctxHome[ctx];
  let shared = false;
  for (let t = 0; t < m.tasks; t++) if (t !== ctx && m.ctxHome[t] === home) shared = true;
  const simple = home === cpu && !shared;
  return simple ? `CPU${cpu}` : `CPU${cpu} (${contextName(m, ctx)})`;
}

function taskName(m: Machine, t: number): string {
  return contextName(m, t);
}

/** The pseudo-C name of the cell holding word `addr`, seen from a context on CPU `cpu`. */
export function describeAddress(m: Machine, addr: number, cpu: number): string {
  const at = cellAt(m.layout, addr);
  if (!at) return `memory word ${addr}`;
  const name =
    at.cpu < 0
      ? at.cell.label
      : at.cpu === cpu
        ? `its ${at.cell.label}`
        : `CPU${at.cpu}'s ${at.cell.label}`;
  return name;
}

/**
 * The value of the cell holding `addr` as CPU k sees it: under TSO, through its store buffer
 * (k −1: memory itself).
 */
function cellValue(m: Machine, s: Int32Array, k: number, addr: number): number | bigint {
  const at = cellAt(m.layout, addr);
  const base = at && at.half === 'hi' ? addr - 1 : addr;
  const word = (a: number) => cellWord(m, s, k, a);
  if (at && at.cell.type === 's64') return pairValue(word(base), word(base + 1));
  return word(addr);
}

function regValue(m: Machine, s: Int32Array, ctx: number, r: number): number | bigint {
  return registerValue(m, s, ctx, r);
}

/** A value read from or written to `addr`: cpu_online_mask and cpu_dying_mask as CPU sets. */
function cellText(m: Machine, addr: number, v: number | bigint): string {
  return isCpuMask(m, addr) ? cpuSetText(v) : valueText(m, v);
}

/** Describes the effect of event `ev`, which took state `before` to `after`. */
export function describeStep(
  m: Machine,
  before: Int32Array,
  after: Int32Array,
  ev: number,
  trace: Trace,
): StepDescription {
  const k = eventCpu(ev);
  const b = m.cpuOff + k * CPU_FIELDS;
  switch (eventType(ev)) {
    case Ev.Step: {
      const d = describeInstruction(m, before, after, trace);
      const c = trace.ctx;
      const done = m.ctxOff + c * m.ctxStride + CTX_DONE;
      if (m.ctxKind[c] !== CtxKind.Dead || before[done] !== 0 || after[done] === 0) return d;
      const dead = m.ctxHome[c] as number;
      return {
        ...d,
        text: `${d.text}. The dead callbacks return: CPU${dead} is dead and leaves cpu_dying_mask (step 4 of its offline)`,
      };
    }
    case Ev.Irq: {
      const delivered = after[b + CPU_IRQS] !== before[b + CPU_IRQS];
      const text = delivered
        ? `IRQ on CPU${k}: the IRQ handler starts, with interrupts off`
        : `IRQ on CPU${k} while its interrupts are off: the IRQ stays pending until they are back on`;
      return { text, kind: delivered ? Kind.IrqEntry : Kind.IrqPending, line: 0, ctx: -1, cpu: k };
    }
    case Ev.Nmi: {
      const off = before[b + CPU_IRQ_ON] === 0;
      const text = `NMI on CPU${k}: the NMI handler starts${off ? ' (disabling interrupts does not stop an NMI)' : ''}`;
      return { text, kind: Kind.NmiEntry, line: 0, ctx: -1, cpu: k };
    }
    case Ev.Preempt: {
      const from = before[b + CPU_CUR] as number;
      const to = after[b + CPU_CUR] as number;
      const text = `CPU${k} preempts ${taskName(m, from)} and runs ${taskName(m, to)}${switchDrains(m, before, k)}`;
      return { text, kind: Kind.Preempt, line: 0, ctx: from, cpu: k };
    }
    case Ev.Flush: {
      const e = bufferOf(m, before, k)[0];
      const cell = e ? describeAddress(m, e.addr, -1) : 'memory';
      const now = e ? fmt(cellValue(m, after, -1, e.addr)) : '';
      const left = buffered(m, after, k);
      const text = `CPU${k}'s store buffer flushes its oldest store: ${cell} = ${now} reaches memory, where every CPU sees it${left > 0 ? ` (${left} still waiting)` : ''}`;
      return { text, kind: Kind.Flush, line: 0, ctx: -1, cpu: k };
    }
    case Ev.Offline: {
      // The kernel's order, each step named: kernel/cpu.c (_cpu_down, takedown_cpu).
      const t = m.deadCtx[k] as number;
      const j = after[m.ctxOff + t * m.ctxStride + CTX_CPU] as number;
      const runs =
        after[m.cpuOff + j * CPU_FIELDS + CPU_CUR] === t
          ? `they run there now`
          : `they wait there behind ${taskName(m, after[m.cpuOff + j * CPU_FIELDS + CPU_CUR] as number)}`;
      const text = `CPU${k} goes offline: (1) it is marked dying (cpu_dying_mask), (2) cleared from cpu_online_mask; (3) its dead callbacks start on CPU${j}, a surviving CPU: ${runs}; (4) when they return, CPU${k} leaves cpu_dying_mask. Until then a walk of the online CPUs skips CPU${k}, whatever its slots still hold`;
      return { text, kind: Kind.Hotplug, line: 0, ctx: -1, cpu: k };
    }
    case Ev.Online: {
      const text = `CPU${k} comes back online: it is set in cpu_online_mask (its slots were folded and zeroed when it went down)`;
      return { text, kind: Kind.Hotplug, line: 0, ctx: -1, cpu: k };
    }
    default: {
      const j = eventTarget(ev);
      const t = before[b + CPU_CUR] as number;
      const bj = m.cpuOff + j * CPU_FIELDS;
      const there =
        after[bj + CPU_CUR] === t
          ? 'it runs there now'
          : `it waits there behind ${taskName(m, after[bj + CPU_CUR] as number)}`;
      const next = after[b + CPU_CUR] as number;
      const left = next >= 0 ? `CPU${k} runs ${taskName(m, next)}` : `CPU${k} is idle`;
      const text = `${taskName(m, t)} is preempted on CPU${k} and migrated to CPU${j}: ${there}; ${left}${switchDrains(m, before, k)}`;
      return { text, kind: Kind.Migration, line: 0, ctx: t, cpu: k };
    }
  }
}

function describeInstruction(
  m: Machine,
  before: Int32Array,
  after: Int32Array,
  trace: Trace,
): StepDescription {
  const { ctx, cpu: k, pc } = trace;
  const code = m.code[ctx] as readonly Instr[];
  const ins = code[pc] as Instr;
  const cb = m.ctxOff + ctx * m.ctxStride;
  const onCpu = before[cb + CTX_CPU] as number;
  const who = actorName(m, before, ctx);
  const b = m.cpuOff + k * CPU_FIELDS;
  const addr = ins.op !== Op.AddrGen ? operandAddress(before, cb, ins) : -1;
  // A handler does not own the CPU's variables: "CPU0's delta", not "its delta".
  const viewCpu = m.ctxKind[ctx] === CtxKind.Task ? onCpu : -1;
  const cell = addr >= 0 ? describeAddress(m, addr, viewCpu) : '';
  const operand = (): number | bigint =>
    ins.useImm ? pairValue(ins.immLo, ins.immHi) : regValue(m, before, ctx, ins.src);
  let v: number | bigint = 0;
  let text: string;
  let kind = ins.kind;

  switch (ins.op) {
    case Op.Load:
    case Op.Load64:
      v = cellValue(m, before, k, addr);
      text = `${who} reads ${cell}: ${cellText(m, addr, v)}`;
      break;
    case Op.LoadLo:
    case Op.LoadHi: {
      const w = cellWord(m, before, k, ins.op === Op.LoadHi ? addr + 1 : addr);
      v = w;
      text = `${who} reads the ${ins.op === Op.LoadLo ? 'low' : 'high'} half of ${cell}: ${hex32(w)}`;
      break;
    }
    case Op.Store:
    case Op.Store64:
      v = cellValue(m, after, k, addr);
      text = `${who} writes ${cell} = ${cellText(m, addr, v)}`;
      break;
    case Op.StoreLo:
    case Op.StoreHi: {
      const w = cellWord(m, after, k, ins.op === Op.StoreHi ? addr + 1 : addr);
      v = w;
      const now = cellValue(m, after, k, cellBase(m, addr));
      text = `${who} writes the ${ins.op === Op.StoreLo ? 'low' : 'high'} half of ${cell} = ${hex32(w)}: it now holds ${fmt(now)}`;
      break;
    }
    case Op.AtomicAdd: {
      v = operand();
      const neg = BigInt(String(v)) < 0n;
      const by = neg ? fmt(-BigInt(String(v))) : fmt(v);
      text = `${who} atomically ${neg ? `subtracts ${by} from` : `adds ${by} to`} ${cell}: ${fmt(cellValue(m, after, k, addr))}`;
      break;
    }
    case Op.AtomicOr:
      v = operand();
      text = `${who} atomically sets bits ${fmt(v)} in ${cell}: ${fmt(cellValue(m, after, k, addr))}`;
      break;
    case Op.AtomicAnd:
    case Op.AtomicXor:
      v = operand();
      text = `${who} atomically ${ins.op === Op.AtomicAnd ? 'ands' : 'xors'} ${cell} with ${fmt(v)}: ${fmt(cellValue(m, after, k, addr))}`;
      break;
    case Op.AddUnless: {
      const old = cellValue(m, before, k, addr);
      const now = cellValue(m, after, k, addr);
      v = old;
      text =
        String(old) === String(now)
          ? `${who}'s atomic_add_unless on ${cell} finds ${fmt(old)}, the value it must not add to: nothing changes`
          : `${who} atomically adds ${fmt(operand())} to ${cell} (it was not ${fmt(regValue(m, before, ctx, ins.src2))}): ${fmt(now)}`;
      break;
    }
    case Op.Xchg:
      v = cellValue(m, before, k, addr);
      text = `${who} exchanges ${cell}: takes ${fmt(v)}, leaves ${fmt(cellValue(m, after, k, addr))}`;
      break;
    case Op.Cmpxchg: {
      const old = cellValue(m, before, k, addr);
      const expected = regValue(m, before, ctx, ins.src);
      v = old;
      text =
        String(old) === String(expected)
          ? `${who}'s cmpxchg on ${cell} succeeds: ${fmt(old)} → ${fmt(cellValue(m, after, k, addr))}`
          : `${who}'s cmpxchg on ${cell} fails: expected ${fmt(expected)}, found ${fmt(old)}`;
      break;
    }
    case Op.SpinLock:
      if (trace.spun) {
        const owner = (before[addr] as number) - 1;
        text = `${who} spins on ${cell}, held by ${actorName(m, before, owner)}`;
        if (ins.saySpin) {
          text += `: ${fill(ins.saySpin, m, before, after, ctx, { who, cell, v, addr, cpu: `CPU${onCpu}`, k })}`;
        }
        kind = Kind.LockSpin;
      } else text = `${who} takes ${cell} (preemption off)`;
      break;
    case Op.SpinUnlock:
      text = `${who} releases ${cell}`;
      break;
    case Op.SpinTrylock: {
      const got = after[addr] === ctx + 1 && before[addr] !== ctx + 1;
      text = got
        ? `${who} takes ${cell} (preemption off): trylock succeeds`
        : `${who} finds ${cell} held by ${actorName(m, before, (before[addr] as number) - 1)}: trylock fails`;
      break;
    }
    case Op.PreemptDisable:
      text = `${who} disables preemption (preempt_count ${after[b + CPU_PREEMPT]})`;
      break;
    case Op.PreemptEnable:
      text = `${who} enables preemption (preempt_count ${after[b + CPU_PREEMPT]})`;
      break;
    case Op.IrqSave:
      text = `${who} saves the interrupt state and disables interrupts`;
      break;
    case Op.IrqRestore:
      text = `${who} restores interrupts: ${after[b + CPU_IRQ_ON] !== 0 || after[b + CPU_IN_IRQ] !== 0 ? 'on' : 'still off'}`;
      break;
    case Op.IrqDisable:
      text = `${who} disables interrupts`;
      break;
    case Op.IrqEnable:
      text = `${who} enables interrupts`;
      break;
    case Op.AddrGen: {
      const label = cellAt(m.layout, ins.base)?.cell.label ?? 'the variable';
      text = `${who} computes this_cpu_ptr(&${label}): the address of CPU${onCpu}'s element`;
      break;
    }
    case Op.CpuId:
      v = onCpu;
      text = `${who} reads its CPU number: ${onCpu}`;
      break;
    case Op.Fence:
      text =
        trace.drained > 0
          ? `${who} drains CPU${k}'s store buffer: ${count(trace.drained, 'store')} ${trace.drained === 1 ? 'reaches' : 'reach'} memory`
          : `${who} finds CPU${k}'s store buffer empty: nothing to drain`;
      break;
    default:
      text = `${who} runs instruction ${pc}`;
  }

  if (ins.say && !trace.spun)
    text = fill(ins.say, m, before, after, ctx, { who, cell, v, addr, cpu: `CPU${onCpu}`, k });
  else if (!trace.spun && addr >= 0)
    text = kindText(m, k, ins, before, after, addr, who, cell) ?? text;
  // A typed program's step quotes the statement it belongs to.
  const source = m.programs[ctx]?.source;
  const site = source?.sites[pc];
  if (source && site && text.startsWith(`${who} `))
    text = `${who} \`${statementText(source.text, site)}\`: ${text.slice(who.length + 1)}`;
  if (m.tso) text += bufferText(m, ins, before, after, k, addr, trace);
  if (ins.tail) text += ', completing one instruction that no interrupt could split';
  else if (!trace.spun && code[after[cb + CTX_PC] as number]?.tail === true) {
    text += ' (first half of one instruction: no interrupt can come before its second half)';
  }

  const extras: string[] = [];
  for (const lpc of trace.locals) {
    const li = code[lpc] as Instr;
    if (li.op === Op.Record) {
      const slot = m.layout.results.find((r) => r.offset === li.base);
      const value = regValue(m, after, ctx, li.src);
      // A typed program's record(name, v) names what it records; its sum() says it returned.
      const recorded =
        source && slot && !slot.name.startsWith('@')
          ? `records ${slot.name} = ${fmt(value)}`
          : null;
      const said = li.say
        ? fill(li.say, m, before, after, ctx, { who, cell, v: value, addr, cpu: `CPU${onCpu}`, k })
        : (recorded ?? `${slot?.label ?? 'it'} returns ${fmt(value)}`);
      // `ret = sum(); record(sum, ret);` in one step: one sentence, "sum() returns 7 (recorded
      // as sum)", not the value twice.
      const prev = extras[extras.length - 1];
      if (recorded && slot && prev?.endsWith(` returns ${fmt(value)}`))
        extras[extras.length - 1] = `${prev} (recorded as ${slot.name})`;
      else extras.push(said);
      if (kind === ins.kind && ins.kind === Kind.Plain) kind = Kind.Result;
    } else {
      extras.push(
        li.say
          ? fill(li.say, m, before, after, ctx, { who, cell, v, addr, cpu: `CPU${onCpu}`, k })
          : 'the sum starts over',
      );
      if (li.kind === Kind.SumRetry) kind = Kind.SumRetry;
    }
  }
  const kindOf = m.ctxKind[ctx];
  if (kindOf === CtxKind.Task || kindOf === CtxKind.Dead) {
    if (before[cb + CTX_DONE] === 0 && after[cb + CTX_DONE] !== 0) {
      const next = after[b + CPU_CUR] as number;
      extras.push(
        `${taskName(m, ctx)} finishes${next >= 0 ? `; CPU${k} runs ${taskName(m, next)}` : ''}`,
      );
    }
  } else if (
    topContext(m, after, k) !== ctx ||
    (after[b + CPU_IRQS] as number) > (before[b + CPU_IRQS] as number)
  ) {
    const which = kindOf === CtxKind.Irq ? 'IRQ' : 'NMI';
    extras.push(`the ${which} handler returns`);
    if (kind === Kind.Plain) kind = kindOf === CtxKind.Irq ? Kind.IrqExit : Kind.NmiExit;
  }
  if ((after[b + CPU_IRQS] as number) > (before[b + CPU_IRQS] as number)) {
    extras.push(`the pending IRQ is delivered now: CPU${k}'s IRQ handler starts`);
  }
  return {
    text: extras.length > 0 ? `${text}; ${extras.join('; ')}` : text,
    kind,
    line: ins.line,
    ctx,
    cpu: k,
  };
}

/** A statement's text as the narration quotes it: one line, without its `;`, at most 60 characters. */
export function statementText(source: string, site: { start: number; end: number }): string {
  const t = source.slice(site.start, site.end).replace(/\s+/g, ' ').replace(/;$/, '').trim();
  return t.length > 60 ? `${t.slice(0, 57)}…` : t;
}

/** A context switch drains the CPU's store buffer (a full barrier in the kernel's scheduler). */
function switchDrains(m: Machine, before: Int32Array, k: number): string {
  const n = buffered(m, before, k);
  return n === 0
    ? ''
    : `; a context switch is a full barrier: CPU${k}'s store buffer drains first (${count(n, 'store')})`;
}

/** What a step did with CPU k's store buffer under TSO, as a clause to append. */
function bufferText(
  m: Machine,
  ins: Instr,
  before: Int32Array,
  after: Int32Array,
  k: number,
  addr: number,
  trace: Trace,
): string {
  if (trace.buffered) {
    const full =
      trace.drained > 0 ? '; its buffer was full, so its oldest store reached memory first' : '';
    return ` and the store waits in CPU${k}'s store buffer (memory still holds ${fmt(cellValue(m, after, -1, addr))}; no other CPU sees it yet${full})`;
  }
  if (ins.op !== Op.Fence && trace.drained > 0)
    return ` (a LOCK operation: first CPU${k}'s store buffer drains, ${count(trace.drained, 'store')})`;
  const isLoad =
    ins.op === Op.Load || ins.op === Op.Load64 || ins.op === Op.LoadLo || ins.op === Op.LoadHi;
  if (isLoad && addr >= 0) {
    const mem = cellValue(m, before, -1, addr);
    if (String(mem) !== String(cellValue(m, before, k, addr)))
      return ` (from CPU${k}'s own store buffer; memory still holds ${fmt(mem)})`;
  }
  return '';
}

/** Word a as CPU k sees it (k −1: memory itself). */
function cellWord(m: Machine, s: Int32Array, k: number, a: number): number {
  return m.tso && k >= 0 ? seenWord(m, s, k, a) : (s[a] as number);
}

/** The first word of the cell holding `addr` (the low word of an s64). */
function cellBase(m: Machine, addr: number): number {
  const at = cellAt(m.layout, addr);
  return at && at.half === 'hi' ? addr - 1 : addr;
}

function fill(
  template: string,
  m: Machine,
  before: Int32Array,
  after: Int32Array,
  ctx: number,
  vars: { who: string; cell: string; v: number | bigint; addr: number; cpu: string; k: number },
): string {
  // {odd?A|B}: A when the value is odd, B when it is even (e.g. a sequence's in-flight bit).
  const odd = (BigInt(vars.v) & 1n) === 1n;
  const chosen = template.replace(/\{odd\?([^|}]*)\|([^}]*)\}/g, (_, a: string, b: string) =>
    odd ? a : b,
  );
  return chosen.replace(/\{(who|cpu|cell|v|old|new|r:[A-Za-z0-9_]+|r#\d+)\}/g, (_, key: string) => {
    if (key === 'who') return vars.who;
    if (key === 'cpu') return vars.cpu;
    if (key === 'cell') return vars.cell;
    if (key === 'v') return fmt(vars.v);
    if (key === 'old') return vars.addr >= 0 ? fmt(cellValue(m, before, vars.k, vars.addr)) : '?';
    if (key === 'new') return vars.addr >= 0 ? fmt(cellValue(m, after, vars.k, vars.addr)) : '?';
    const name = key.slice(2);
    // {r#N}: register N itself (for generated templates, where names may repeat).
    const r = key.startsWith('r#') ? Number(name) : (m.programs[ctx]?.regNames.indexOf(name) ?? -1);
    return r >= 0 ? fmt(regValue(m, after, ctx, r)) : `{${key}}`;
  });
}

/**
 * What a write means for the counter the program declares, where its kind says more than the
 * operation: a fold pours a delta into the global count, a sequence bump opens or closes a sum.
 */
function kindText(
  m: Machine,
  k: number,
  ins: Instr,
  before: Int32Array,
  after: Int32Array,
  addr: number,
  who: string,
  cell: string,
): string | null {
  const was = cellValue(m, before, k, addr);
  const now = cellValue(m, after, k, addr);
  if (ins.kind === Kind.Fold) {
    const moved = BigInt(String(now)) - BigInt(String(was));
    return `${who} folds ${fmt(moved)} into ${cell}: ${fmt(now)}`;
  }
  if (ins.kind !== Kind.SeqBump) return null;
  const name = cellAt(m.layout, addr)?.cell.name;
  const meaning = m.layout.counter?.sequences.find((q) => q.cell === name)?.kind;
  const odd = (BigInt(String(now)) & 1n) === 1n;
  const why =
    meaning === 'inflight'
      ? odd
        ? ', a sum is in flight'
        : ', no sum in flight'
      : meaning === 'changes'
        ? ': the counter changed'
        : '';
  return `${who} bumps ${cell}: ${fmt(was)} → ${fmt(now)}${why}`;
}
