// Scheduler events (docs/machine.md): the choices at each state, their legality and their effect.
//
// What an event is (a small integer, and its schedule-string token) is eventCodes.ts, passed on
// from here; CPU hotplug's masks, rules and steps are hotplug.ts.

import {
  deliverIrq,
  deliverNmi,
  MachineFault,
  nextReady,
  step,
  topContext,
  type Trace,
} from './interpreter.ts';
import { type Instr, Op } from './isa.ts';
import { buffered, buffersEmpty, drain, flushOldest } from './tso.ts';
import {
  Ev,
  eventCpu,
  eventTarget,
  eventType,
  formatEvent,
  Legal,
  makeEvent,
} from './eventCodes.ts';
import { offline, markOnline, online, onlineTargets, whyNoHotplug } from './hotplug.ts';
import {
  CPU_CUR,
  CPU_FIELDS,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CPU_IRQ_ON,
  CPU_PENDING,
  CPU_PREEMPT,
  CPU_TASKS,
  CTX_CPU,
  CTX_DONE,
  CTX_PC,
  type Machine,
} from './machine.ts';

export {
  Ev,
  eventCpu,
  eventTarget,
  eventType,
  type EventType,
  formatEvent,
  Legal,
  makeEvent,
} from './eventCodes.ts';

/** Whether CPU k is between the two halves of a local-atomic instruction. */
function midInstruction(m: Machine, s: Int32Array, k: number): boolean {
  const ctx = topContext(m, s, k);
  if (ctx < 0) return false;
  const code = m.code[ctx] as readonly Instr[];
  const pc = s[m.ctxOff + ctx * m.ctxStride + CTX_PC] as number;
  return pc < code.length && (code[pc] as Instr).tail;
}

/** Why CPU k's running task cannot be preempted or migrated now, or '' if it can. */
export function notPreemptible(m: Machine, s: Int32Array, k: number): string {
  const b = m.cpuOff + k * CPU_FIELDS;
  const cur = s[b + CPU_CUR] as number;
  if (cur < 0) return `CPU ${k} has no task running`;
  if (s[b + CPU_IN_NMI] !== 0) return `CPU ${k} is in its NMI handler`;
  if (s[b + CPU_IN_IRQ] !== 0) return `CPU ${k} is in its IRQ handler`;
  if (midInstruction(m, s, k)) return `CPU ${k} is in the middle of a single instruction`;
  const pc = s[b + CPU_PREEMPT] as number;
  if (pc !== 0) {
    return holdsLock(m, s, cur)
      ? `CPU ${k} holds a spinlock: preemption is off (preempt_count ${pc})`
      : `CPU ${k} has preemption disabled (preempt_count ${pc})`;
  }
  if (s[b + CPU_IRQ_ON] === 0) return `CPU ${k} has interrupts off`;
  return '';
}

function holdsLock(m: Machine, s: Int32Array, ctx: number): boolean {
  for (const cell of m.layout.cells) {
    if (cell.type !== 'lock') continue;
    if (cell.perCpu) {
      for (let i = 0; i < cell.count; i++)
        if (s[cell.base + i * cell.stride] === ctx + 1) return true;
    } else if (s[cell.addr] === ctx + 1) return true;
  }
  return false;
}

/**
 * Why `ev` is not legal in state s, or '' when it is. The reasons are written for people: the
 * Step mode shows them as tooltips and the CLI prints them.
 */
export function whyIllegal(m: Machine, s: Int32Array, ev: number): string {
  const k = eventCpu(ev);
  const type = eventType(ev);
  if (k >= m.cpus) return `CPU ${k} does not exist (this machine has ${m.cpus})`;
  const b = m.cpuOff + k * CPU_FIELDS;
  switch (type) {
    case Ev.Step: {
      const top = topContext(m, s, k);
      if (top < 0) return `CPU ${k} has nothing left to run`;
      const ins = m.code[top]?.[s[m.ctxOff + top * m.ctxStride + CTX_PC] as number];
      return ins?.op === Op.Halt
        ? `CPU ${k} stopped at the bound of the loop on line ${ins.line}: raise #pragma lab loop_bound to go on`
        : '';
    }
    case Ev.Irq:
      if (m.irqCtx[k] === -1) return `this scenario has no IRQ handler on CPU ${k}`;
      if (!online(m, s, k)) return `CPU ${k} is offline`;
      if (s[b + CPU_PENDING] !== 0) return `an IRQ is already pending on CPU ${k}`;
      if (midInstruction(m, s, k)) return `CPU ${k} is in the middle of a single instruction`;
      return '';
    case Ev.Nmi:
      if (m.nmiCtx[k] === -1) return `this scenario has no NMI handler on CPU ${k}`;
      if (!online(m, s, k)) return `CPU ${k} is offline`;
      if (s[b + CPU_IN_NMI] !== 0) return `CPU ${k} is already in its NMI handler`;
      if (midInstruction(m, s, k)) return `CPU ${k} is in the middle of a single instruction`;
      return '';
    case Ev.Preempt: {
      const why = notPreemptible(m, s, k);
      if (why) return why;
      const cur = s[b + CPU_CUR] as number;
      return nextReady(m, s, k, cur) < 0 ? `no other task is waiting on CPU ${k}` : '';
    }
    case Ev.Migrate: {
      const j = eventTarget(ev);
      if (j >= m.cpus) return `CPU ${j} does not exist (this machine has ${m.cpus})`;
      if (j === k) return `a task cannot migrate from CPU ${k} to itself`;
      if (!online(m, s, j)) return `CPU ${j} is offline: no task can move there`;
      return notPreemptible(m, s, k);
    }
    case Ev.Offline:
    case Ev.Online:
      return whyNoHotplug(m, s, k, type === Ev.Offline);
    case Ev.Flush:
      if (!m.tso) return 'this machine is sequentially consistent: it has no store buffers';
      return buffered(m, s, k) === 0 ? `CPU ${k}'s store buffer is empty` : '';
    default:
      return `unknown event ${ev}`;
  }
}

/**
 * The kinds of event legal on CPU k in state s, as Legal bits (Migrate: to each other CPU).
 * The same rules as whyIllegal, written out with no helper calls: this is the hot path of
 * exploration and random runs, and a mask per CPU costs less than a list of events, most of
 * which would be migrations.
 */
export function legalOn(m: Machine, s: Int32Array, k: number): number {
  const b = m.cpuOff + k * CPU_FIELDS;
  const inNmi = s[b + CPU_IN_NMI] as number;
  const inIrq = s[b + CPU_IN_IRQ] as number;
  const cur = s[b + CPU_CUR] as number;
  const top = inNmi !== 0 ? (m.nmiCtx[k] as number) : inIrq !== 0 ? (m.irqCtx[k] as number) : cur;
  // Under TSO the memory system may write CPU k's oldest store whatever the CPU is doing.
  const flush = m.sbStride !== 0 && s[m.sbOff + k * m.sbStride] !== 0 ? Legal.Flush : 0;
  let mask = 0;
  if (top >= 0) {
    const prog = m.code[top] as readonly Instr[];
    const pc = s[m.ctxOff + top * m.ctxStride + CTX_PC] as number;
    const ins = prog[pc];
    if (ins !== undefined && ins.tail) return Legal.Step | flush; // mid-instruction
    // A loop bound reached: the context never steps again (other events still may happen).
    mask = ins !== undefined && ins.op === Op.Halt ? 0 : Legal.Step;
  }
  if (m.hotplug !== null) return mask | flush | hotplugLegal(m, s, k);
  if (m.irqCtx[k] !== -1 && s[b + CPU_PENDING] === 0) mask |= Legal.Irq;
  if (m.nmiCtx[k] !== -1 && inNmi === 0) mask |= Legal.Nmi;
  if (
    cur >= 0 &&
    inNmi === 0 &&
    inIrq === 0 &&
    s[b + CPU_PREEMPT] === 0 &&
    s[b + CPU_IRQ_ON] !== 0
  ) {
    if (s[b + CPU_TASKS] !== 1) mask |= Legal.Preempt;
    if (m.cpus > 1) mask |= Legal.Migrate;
  }
  return mask | flush;
}

/**
 * legalOn's interrupts, preemption, migration and hotplug on a machine with hotplug, written with
 * whyIllegal's rules: off the hot path of every other machine. Migration: to each online CPU
 * (`onlineTargets`). It stays beside whyIllegal, which it asks about every kind of event:
 * hotplug.ts is below this file.
 */
function hotplugLegal(m: Machine, s: Int32Array, k: number): number {
  let mask = 0;
  for (const [bit, ev] of [
    [Legal.Irq, Ev.Irq],
    [Legal.Nmi, Ev.Nmi],
    [Legal.Preempt, Ev.Preempt],
    [Legal.Offline, Ev.Offline],
    [Legal.Online, Ev.Online],
  ] as const)
    if (whyIllegal(m, s, makeEvent(ev, k)) === '') mask |= bit;
  if (notPreemptible(m, s, k) === '' && onlineTargets(m, s, k) !== 0) mask |= Legal.Migrate;
  return mask;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * How many events a CPU's legal mask stands for; `targets`: the CPUs it may migrate to, as bits
 * (every other CPU unless some are offline).
 */
export function eventsIn(m: Machine, mask: number, targets = -1): number {
  return (
    (mask & 1) +
    ((mask >> 1) & 1) +
    ((mask >> 2) & 1) +
    ((mask >> 3) & 1) +
    ((mask >> 5) & 1) +
    ((mask >> 6) & 1) +
    ((mask >> 7) & 1) +
    ((mask & Legal.Migrate) !== 0 ? (targets === -1 ? m.cpus - 1 : popcount(targets)) : 0)
  );
}

/**
 * Event i of CPU k's mask, in enabledEvents' order (step, irq, nmi, preempt, flush, offline,
 * online, migrations).
 */
export function eventOf(k: number, mask: number, i: number, targets = -1): number {
  if ((mask & Legal.Step) !== 0 && i-- === 0) return k << 3;
  if ((mask & Legal.Irq) !== 0 && i-- === 0) return Ev.Irq | (k << 3);
  if ((mask & Legal.Nmi) !== 0 && i-- === 0) return Ev.Nmi | (k << 3);
  if ((mask & Legal.Preempt) !== 0 && i-- === 0) return Ev.Preempt | (k << 3);
  if ((mask & Legal.Flush) !== 0 && i-- === 0) return Ev.Flush | (k << 3);
  if ((mask & Legal.Offline) !== 0 && i-- === 0) return Ev.Offline | (k << 3);
  if ((mask & Legal.Online) !== 0 && i-- === 0) return Ev.Online | (k << 3);
  if (targets === -1) {
    const j = i < k ? i : i + 1; // migrations skip k itself
    return Ev.Migrate | (k << 3) | (j << 11);
  }
  let j = 0; // the i-th CPU of `targets`
  for (let t = targets >>> 0; ; t &= t - 1, i--) {
    j = 31 - Math.clz32(t & -t);
    if (i === 0) break;
  }
  return Ev.Migrate | (k << 3) | (j << 11);
}

/**
 * The legal events of a state as one mask per CPU, kept up to date across events instead of
 * rebuilt at every state: an event on CPU k writes only CPU k's fields and the context on top of
 * it (a migration also CPU j's), and a CPU's legality reads only its own fields and its top
 * context, so `after` recomputes one mask (two for a migration) where `reset` computes them all.
 * This is what a random scheduler needs per transition.
 */
export class LegalMasks {
  readonly masks: Int32Array;
  /** Events per CPU (eventsIn of its mask). */
  readonly counts: Int32Array;
  /** Legal events in all, over every CPU. */
  total = 0;

  /** Per CPU, where its task may migrate (bits), on a machine with hotplug; −1: every other CPU. */
  readonly targets: Int32Array;

  constructor(readonly m: Machine) {
    this.masks = new Int32Array(m.cpus);
    this.counts = new Int32Array(m.cpus);
    this.targets = new Int32Array(m.cpus).fill(-1);
  }

  /** Computes every CPU's mask for state s. */
  reset(s: Int32Array): void {
    let total = 0;
    for (let k = 0; k < this.m.cpus; k++) {
      const mask = legalOn(this.m, s, k);
      this.masks[k] = mask;
      if (this.m.hotplug !== null) this.targets[k] = onlineTargets(this.m, s, k);
      const c = eventsIn(this.m, mask, this.targets[k]);
      this.counts[k] = c;
      total += c;
    }
    this.total = total;
  }

  /** Brings the masks up to date after `apply(m, s, ev)`. */
  after(s: Int32Array, ev: number): void {
    // Hotplug changes what every CPU may do (the masks, the control CPU's runqueue).
    if (this.m.hotplug !== null) {
      this.reset(s);
      return;
    }
    this.update(s, eventCpu(ev));
    if (eventType(ev) === Ev.Migrate) this.update(s, eventTarget(ev));
  }

  private update(s: Int32Array, k: number): void {
    const mask = legalOn(this.m, s, k);
    this.masks[k] = mask;
    const c = eventsIn(this.m, mask);
    this.total += c - (this.counts[k] as number);
    this.counts[k] = c;
  }

  /** Legal event i (0 ≤ i < total), in enabledEvents' order. */
  event(i: number): number {
    let k = 0;
    for (;;) {
      const c = this.counts[k] as number;
      if (i < c) return eventOf(k, this.masks[k] as number, i, this.targets[k]);
      i -= c;
      k++;
    }
  }
}

/**
 * Writes the legal events of state s into `out` and returns how many. Order: for each CPU, step,
 * irq, nmi, preempt, flush, offline, online, then migrations to each other CPU (online).
 */
export function enabledEvents(m: Machine, s: Int32Array, out: number[]): number {
  let n = 0;
  for (let k = 0; k < m.cpus; k++) n = eventsOfMask(m, s, k, legalOn(m, s, k), out, n);
  return n;
}

/**
 * Writes into `out`, from index n, the events of CPU k that `mask` (legalOn's bits) allows, in
 * enabledEvents' order; returns the new count. State s is read only on a machine with hotplug
 * (which CPUs a task may migrate to): on one without, a caller may pass null.
 */
export function eventsOfMask(
  m: Machine,
  s: Int32Array | null,
  k: number,
  mask: number,
  out: number[],
  n: number,
): number {
  if (mask === 0) return n;
  const cpus = m.cpus;
  const c = k << 3;
  if ((mask & Legal.Step) !== 0) out[n++] = c;
  if ((mask & Legal.Irq) !== 0) out[n++] = Ev.Irq | c;
  if ((mask & Legal.Nmi) !== 0) out[n++] = Ev.Nmi | c;
  if ((mask & Legal.Preempt) !== 0) out[n++] = Ev.Preempt | c;
  if ((mask & Legal.Flush) !== 0) out[n++] = Ev.Flush | c;
  if ((mask & Legal.Offline) !== 0) out[n++] = Ev.Offline | c;
  if ((mask & Legal.Online) !== 0) out[n++] = Ev.Online | c;
  if ((mask & Legal.Migrate) !== 0) {
    if (m.hotplug === null) {
      for (let j = 0; j < cpus; j++) if (j !== k) out[n++] = Ev.Migrate | c | (j << 11);
    } else {
      if (s === null) throw new Error('the events of a machine with hotplug need its state');
      // Some CPU may be offline: migrations go to the online ones.
      for (let j = 0; j < cpus; j++)
        if (j !== k && online(m, s, j)) out[n++] = Ev.Migrate | c | (j << 11);
    }
  }
  return n;
}

/**
 * Applies a legal event in place. Use `applyChecked` for events that come from people. `wide` is
 * the 64-bit view live workers pass to `step` (see there).
 */
export function apply(
  m: Machine,
  s: Int32Array,
  ev: number,
  trace: Trace | null = null,
  wide: BigInt64Array | null = null,
): void {
  const k = eventCpu(ev);
  const b = m.cpuOff + k * CPU_FIELDS;
  switch (eventType(ev)) {
    case Ev.Step:
      step(m, s, k, trace, wide);
      return;
    case Ev.Irq:
      if (s[b + CPU_IRQ_ON] !== 0) deliverIrq(m, s, k);
      else s[b + CPU_PENDING] = 1;
      return;
    case Ev.Nmi:
      deliverNmi(m, s, k);
      return;
    case Ev.Preempt: {
      if (m.tso) switchBarrier(m, s, k, trace);
      const cur = s[b + CPU_CUR] as number;
      s[b + CPU_CUR] = nextReady(m, s, k, cur);
      return;
    }
    case Ev.Flush:
      flushOldest(m, s, k);
      return;
    case Ev.Offline:
      offline(m, s, k);
      return;
    case Ev.Online:
      markOnline(m, s, k);
      return;
    case Ev.Migrate: {
      // The migrated task's stores reach memory before it runs elsewhere.
      if (m.tso) switchBarrier(m, s, k, trace);
      const j = eventTarget(ev);
      const t = s[b + CPU_CUR] as number;
      const bj = m.cpuOff + j * CPU_FIELDS;
      s[m.ctxOff + t * m.ctxStride + CTX_CPU] = j;
      s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) - 1;
      s[bj + CPU_TASKS] = (s[bj + CPU_TASKS] as number) + 1;
      s[b + CPU_CUR] = s[b + CPU_TASKS] === 0 ? -1 : nextReady(m, s, k, t);
      if (s[bj + CPU_CUR] === -1) s[bj + CPU_CUR] = t;
      return;
    }
    default:
      throw new MachineFault(`unknown event ${ev}`);
  }
}

/**
 * A context switch is a full barrier in the kernel (smp_mb__after_spinlock() in __schedule()):
 * under TSO, CPU k's buffer drains before another task runs there or the task runs elsewhere.
 */
function switchBarrier(m: Machine, s: Int32Array, k: number, trace: Trace | null): void {
  const n = drain(m, s, k);
  if (trace) trace.drained = n;
}

/** An event that is not legal where it was asked for; `reason` says why, for people. */
export class IllegalEventError extends Error {
  constructor(
    readonly event: number,
    readonly reason: string,
  ) {
    super(`${formatEvent(event)} is not possible here: ${reason}`);
  }
}

/** Applies `ev` after checking it is legal; throws IllegalEventError otherwise. */
export function applyChecked(m: Machine, s: Int32Array, ev: number, trace: Trace | null = null) {
  const why = whyIllegal(m, s, ev);
  if (why) throw new IllegalEventError(ev, why);
  apply(m, s, ev, trace);
}

/**
 * Terminal: every task and handler has finished, no IRQ is pending and (under TSO) every store
 * has reached memory.
 */
export function isTerminal(m: Machine, s: Int32Array): boolean {
  if (!buffersEmpty(m, s)) return false;
  for (let k = 0; k < m.cpus; k++) {
    const b = m.cpuOff + k * CPU_FIELDS;
    if (s[b + CPU_CUR] !== -1 || s[b + CPU_IN_IRQ] !== 0 || s[b + CPU_IN_NMI] !== 0) return false;
    if (s[b + CPU_PENDING] !== 0) return false;
  }
  for (let t = 0; t < m.tasks; t++) {
    if (s[m.ctxOff + t * m.ctxStride + CTX_DONE] === 0) return false;
  }
  return true;
}
