// CPU hotplug in the machine (docs/machine.md): the masks a program reads, when a CPU may go
// offline or come back, and the offline's steps. The scheduler's `offN` and `onN` events
// (events.ts) call in here; so do live CPUs (live/cpu/hotplug.ts), which take the same steps
// from two threads.
//
// The kernel's order (kernel/cpu.c, _cpu_down): CPU k is set in cpu_dying_mask, cleared from
// cpu_online_mask, and its dead callbacks (`DEADk()`) start as a task on the control CPU, the
// lowest-numbered online CPU but k (the kernel runs them on the CPU driving the hotplug, never
// the one going down). They are that CPU's steps like any task's, so a sum() can run between the
// offline and the fold; when they return, k leaves cpu_dying_mask (`finish` in interpreter.ts,
// or `queueDead` for callbacks with no visible step). `onN` sets N in cpu_online_mask again.
// Hotplug runs one CPU at a time: no offline or online while a CPU is dying.
//
// Who writes what: the masks and the hotplug count are memory words (one bit per CPU, so a
// hotplug machine has at most 32 CPUs) that every sum() reads while they change, so they are
// written with atomic read-modify-writes (`markOffline`, `markOnline`, `queueDead`, `finish`).
// On live CPUs, CPU k's worker runs `markOffline` and `startDead`, and only the control CPU's
// worker writes that CPU's runqueue (`queueDead`); in the model one thread runs all three.

import { Ev, makeEvent } from './eventCodes.ts';
import { runLocals } from './interpreter.ts';
import type { Instr } from './isa.ts';
import {
  CPU_CUR,
  CPU_FIELDS,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CPU_PENDING,
  CPU_TASKS,
  CTX_CPU,
  CTX_DONE,
  CTX_PC,
  CTX_REGS,
  type Machine,
} from './machine.ts';

/** Whether CPU k is in cpu_online_mask (always, on a machine without hotplug). */
export function online(m: Machine, s: Int32Array, k: number): boolean {
  return m.hotplug === null || ((s[m.hotplug.online] as number) & (1 << k)) !== 0;
}

/** Whether CPU k is in cpu_dying_mask. */
export function dying(m: Machine, s: Int32Array, k: number): boolean {
  return m.hotplug !== null && ((s[m.hotplug.dying] as number) & (1 << k)) !== 0;
}

/**
 * The CPU that runs an offline's dead callbacks: the lowest-numbered online CPU other than k
 * (the kernel runs them on the CPU driving the hotplug, which is never the one going down).
 */
export function controlCpu(m: Machine, s: Int32Array, k: number): number {
  for (let j = 0; j < m.cpus; j++) if (j !== k && online(m, s, j)) return j;
  return -1;
}

/** The CPUs a task on CPU k may migrate to, as bits: every other online CPU. */
export function onlineTargets(m: Machine, s: Int32Array, k: number): number {
  const all = m.cpus >= 32 ? -1 : (1 << m.cpus) - 1;
  const on = m.hotplug === null ? all : (s[m.hotplug.online] as number) & all;
  return on & ~(1 << k);
}

/**
 * The hotplug toggle for CPU k: the event that takes it offline while it is online, else the one
 * that brings it back; null for a CPU without dead callbacks (it stays online). Whether the event
 * is legal now is whyIllegal's question. Step mode's button and its key send this event.
 */
export function hotplugEvent(m: Machine, s: Int32Array, k: number): number | null {
  if (m.hotplug === null || m.deadCtx[k] === -1) return null;
  return makeEvent(online(m, s, k) ? Ev.Offline : Ev.Online, k);
}

/** Why CPU k cannot go offline (or, `off` false, online) now, or '' when it can. */
export function whyNoHotplug(m: Machine, s: Int32Array, k: number, off: boolean): string {
  const hp = m.hotplug;
  if (hp === null) return 'this program has no CPU hotplug (no DEADk() callbacks)';
  if (m.deadCtx[k] === -1) return `CPU ${k} has no dead callbacks (DEAD${k}()): it stays online`;
  const going = s[hp.dying] as number;
  if (going !== 0) {
    const j = 31 - Math.clz32(going & -going);
    return `CPU ${j} is still going offline: its dead callbacks have not returned (hotplug runs one CPU at a time)`;
  }
  if (!off) return online(m, s, k) ? `CPU ${k} is already online` : '';
  if (!online(m, s, k)) return `CPU ${k} is already offline`;
  if (controlCpu(m, s, k) < 0) return `CPU ${k} is the last CPU online`;
  const b = m.cpuOff + k * CPU_FIELDS;
  if (s[b + CPU_TASKS] !== 0)
    return `CPU ${k} still has tasks to run: let them finish or migrate them first`;
  if (s[b + CPU_IN_IRQ] !== 0 || s[b + CPU_IN_NMI] !== 0 || s[b + CPU_PENDING] !== 0)
    return `CPU ${k} is handling an interrupt`;
  if (m.sbStride !== 0 && s[m.sbOff + k * m.sbStride] !== 0)
    return `CPU ${k}'s store buffer still holds stores`;
  return '';
}

/**
 * `offline k`, the kernel's order: CPU k is marked dying, then cleared from cpu_online_mask; its
 * dead callbacks are started as a task on the control CPU. When they return, the CPU is dead and
 * leaves cpu_dying_mask (interpreter.ts, finish). Until then the callbacks are steps of the
 * control CPU like any task's: a sum can run between the two.
 *
 * Live CPUs take the same steps from two threads (live/cpu/hotplug.ts): CPU k's worker runs
 * `markOffline` and `startDead`, and hands the callbacks to the control CPU's worker, which runs
 * `queueDead` when it adopts them. Here one thread runs all three.
 */
export function offline(m: Machine, s: Int32Array, k: number): void {
  markOffline(m, s, k);
  const j = controlCpu(m, s, k);
  const t = startDead(m, s, k);
  s[m.ctxOff + t * m.ctxStride + CTX_CPU] = j;
  queueDead(m, s, j, t);
}

/**
 * The masks' part of `offline k`: dying first, then out of the online mask, and the event
 * counted. Atomic read-modify-writes: on live CPUs the masks are shared words that every sum()
 * reads while they change (on a plain state they cost the same as plain stores).
 */
export function markOffline(m: Machine, s: Int32Array, k: number): void {
  const hp = m.hotplug as NonNullable<Machine['hotplug']>;
  Atomics.or(s, hp.dying, 1 << k);
  Atomics.and(s, hp.online, ~(1 << k));
  Atomics.add(s, hp.count, 1);
}

/** `online k`: back in cpu_online_mask, and the event counted. */
export function markOnline(m: Machine, s: Int32Array, k: number): void {
  const hp = m.hotplug as NonNullable<Machine['hotplug']>;
  Atomics.or(s, hp.online, 1 << k);
  Atomics.add(s, hp.count, 1);
}

/**
 * A fresh invocation of CPU k's dead callbacks (pc 0 and clean registers, as a handler's; the
 * tally keeps accumulating); returns their context. The caller says on which CPU they run.
 */
export function startDead(m: Machine, s: Int32Array, k: number): number {
  const t = m.deadCtx[k] as number;
  const cb = m.ctxOff + t * m.ctxStride;
  s.fill(0, cb + CTX_REGS, cb + m.ctxStride);
  s[cb + CTX_DONE] = 0;
  s[cb + CTX_PC] = runLocals(m, s, cb, m.code[t] as readonly Instr[], 0, null);
  return t;
}

/**
 * Puts dead callbacks `t` on CPU j's runqueue. Callbacks with no visible step return at once
 * (their CPU is idle or runs another task): the CPU is dead and leaves cpu_dying_mask.
 */
export function queueDead(m: Machine, s: Int32Array, j: number, t: number): void {
  const bj = m.cpuOff + j * CPU_FIELDS;
  s[bj + CPU_TASKS] = (s[bj + CPU_TASKS] as number) + 1;
  if (s[bj + CPU_CUR] === -1) s[bj + CPU_CUR] = t;
  const cb = m.ctxOff + t * m.ctxStride;
  if ((s[cb + CTX_PC] as number) < (m.code[t] as readonly Instr[]).length) return;
  s[cb + CTX_DONE] = 1;
  s[bj + CPU_TASKS] = (s[bj + CPU_TASKS] as number) - 1;
  if (s[bj + CPU_CUR] === t) s[bj + CPU_CUR] = -1;
  const hp = m.hotplug as NonNullable<Machine['hotplug']>;
  Atomics.and(s, hp.dying, ~(1 << (m.ctxHome[t] as number)));
}
