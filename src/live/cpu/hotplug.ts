// CPU hotplug on live CPUs: the model's `offN` and `onN` (machine/hotplug.ts), taken by the
// worker of the CPU that goes offline or comes back, at a boundary of its loop, under the model's
// own rule (whyIllegal: the CPU has no task left, no interrupt in progress, no other hotplug in
// progress, another CPU online).
//
// The kernel's order is the model's: CPU k is marked dying, cleared from cpu_online_mask (atomic
// read-modify-writes of the shared mask words), and its dead callbacks start as a task on the
// control CPU (the lowest-numbered online CPU but k). Only that CPU's worker may write its
// runqueue, so the callbacks travel there as a migrating task does, through its inbox; its worker
// queues them (`adoptDead`) and runs them among its tasks, so a sum() on a third CPU can run
// between the offline and the fold. When they return, `finish` clears k from cpu_dying_mask and
// the worker releases the hotplug lock (C_HOTPLUG, the kernel's cpu_hotplug_lock): an offline
// holds it from its first step to its last, so hotplug runs one CPU at a time, as in the model.

import { apply, Ev, eventType, whyIllegal } from '../../machine/events.ts';
import {
  controlCpu,
  hotplugEvent,
  markOffline,
  queueDead,
  startDead,
} from '../../machine/hotplug.ts';
import { ctxBase, CTX_CPU, CTX_DONE, type Machine } from '../../machine/machine.ts';
import { C_HOTPLUG, K_INBOX, type LiveMemory } from '../memory.ts';

/** A task's CPU field while it travels to CPU j: never a CPU number, so nobody runs it. */
export function inFlightTo(j: number): number {
  return -2 - j;
}

/** Hands context t to CPU j: its CPU field says "in flight to j", and j's inbox is bumped. */
export function handOver(mem: LiveMemory, m: Machine, t: number, j: number): void {
  // The store publishes the context record written before it (Atomics are sequentially consistent).
  Atomics.store(mem.state, ctxBase(m, t) + CTX_CPU, inFlightTo(j));
  const inbox = mem.cpuLine(j) + K_INBOX;
  Atomics.add(mem.words, inbox, 1);
  Atomics.notify(mem.words, inbox);
}

/** What a hotplug attempt did. */
export type Hotplugged = 'offline' | 'online' | null;

/**
 * Takes CPU k offline (or back online, if it is offline) now, if the model allows it and no
 * other hotplug is in progress; null when it may not (yet). `busy`: the worker still has a task
 * of its own that the state does not show (a summer sleeping between calls, a task arriving in
 * its inbox): the kernel would have to migrate it first, so the CPU stays online.
 */
export function takeHotplug(mem: LiveMemory, m: Machine, k: number, busy: boolean): Hotplugged {
  const s = mem.state;
  const ev = hotplugEvent(m, s, k);
  if (ev === null) return null;
  const off = eventType(ev) === Ev.Offline;
  if (off && busy) return null;
  if (whyIllegal(m, s, ev) !== '') return null;
  if (Atomics.compareExchange(mem.words, C_HOTPLUG, 0, k + 1) !== 0) return null;
  // Under the lock the masks hold still: judge again (another CPU's hotplug may have just ended).
  if (whyIllegal(m, s, ev) !== '') {
    releaseHotplug(mem);
    return null;
  }
  if (!off) {
    apply(m, s, ev); // markOnline: the mask and the count, atomically
    releaseHotplug(mem);
    return 'online';
  }
  markOffline(m, s, k);
  const j = controlCpu(m, s, k);
  handOver(mem, m, startDead(m, s, k), j);
  return 'offline';
}

/**
 * CPU k adopts dead callbacks t handed to it: they join its runqueue (callbacks with no visible
 * step return at once, and the offline is over). True when they are still to run.
 */
export function adoptDead(mem: LiveMemory, m: Machine, k: number, t: number): boolean {
  const s = mem.state;
  Atomics.store(s, ctxBase(m, t) + CTX_CPU, k);
  queueDead(m, s, k, t);
  if (s[ctxBase(m, t) + CTX_DONE] === 0) return true;
  releaseHotplug(mem);
  return false;
}

/** The offline's last step, once its dead callbacks returned (or an online's): the lock is free. */
export function releaseHotplug(mem: LiveMemory): void {
  Atomics.store(mem.words, C_HOTPLUG, 0);
}

/** The hotplug events taken so far (offline and online): the model's count, in shared memory. */
export function hotplugCount(m: Machine, s: Int32Array): number {
  return m.hotplug === null ? 0 : Atomics.load(s, m.hotplug.count);
}
