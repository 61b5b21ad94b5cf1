// What the kernel's memory model runs of a program: its threads and the scheduling they share.
// The model (tools/memory-model) knows threads and their program order only; the machine also
// has interrupts, a scheduler and CPU hotplug. They become events the model can judge, as the
// kernel's own code makes them (docs/memory-models.md, "Interrupts, the scheduler, hotplug"):
//
// - An interrupt handler runs on the CPU it interrupts, between two of the interrupted
//   context's instructions: its events are placed in that thread's program order there
//   (ThreadRunner.boundary), wherever the machine would deliver it (interrupts on, within
//   the program's `#pragma lab bounds`).
// - A model thread is a task. Everything that runs on one CPU is ordered on it: a task's turn
//   on CPU k begins by taking k's chain (an acquire read-modify-write of the token the CPU's
//   previous turn left) and ends by handing it on (a release write of its own token), each
//   with a full barrier, as schedule() orders a CPU's contexts with the runqueue lock and
//   smp_mb__after_spinlock() (kernel/sched/core.c, __schedule). Preemption ends a turn and
//   begins another on the same CPU; migration ends it on one CPU and begins it on another.
// - A handler that runs while its CPU has no task is a turn of its own (an idle thread).
// - CPU hotplug: a CPU's offline is a thread of its own (kernel/cpu.c, _cpu_down): it takes the
//   CPU's chain after its last turn and holds it for good, sets the CPU dying and clears it from
//   cpu_online_mask, runs the dead callbacks on the control CPU, and clears the dying bit; full
//   barriers between the steps, where the hotplug state machine waits on completions.
//
// A CPU whose chain no one else can take (one task, no migration, no idle handler) has none, so
// a herd7 litmus test's threads make no event they did not make before.

import { CPU_CUR, cpuBase, type Machine } from '../machine/machine.ts';
import { initialState } from '../machine/interpreter.ts';
import { programBounds } from '../lang/bounds.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import type { Scheduling, Spent, ThreadPlan } from './threads.ts';

/** The model's threads of a program, with their names, and the scheduling they share. */
export interface ModelThreads {
  readonly plans: readonly ThreadPlan[];
  /** Each plan's name, for messages and the graph (P0, or "IRQ0 on idle CPU0"). */
  readonly names: readonly string[];
  readonly scheduling: Scheduling;
}

/** The program's bounds on interrupts and the scheduler, as Explore takes them (lang/bounds.ts). */
export function boundsOf(p: CompiledProgram): Spent {
  const b = programBounds(p);
  return {
    irqs: b.irqs ?? 0,
    nmis: b.nmis ?? 0,
    preemptions: b.preemptions ?? 0,
    migrations: b.migrations ?? 0,
    hotplugs: b.hotplugs ?? 0,
  };
}

/**
 * The chains live past the program's memory: one word a CPU, which no clause reads and the end
 * state does not hold.
 */
export function chainLocation(m: Machine, k: number): number {
  return m.memWords + k;
}

/** Whether a location is a CPU's scheduler chain, not the program's memory. */
export function isChain(m: Machine, loc: number): boolean {
  return loc >= m.memWords && loc < m.memWords + m.cpus;
}

export function modelThreads(p: CompiledProgram): ModelThreads {
  const m = p.machine;
  const bounds = boundsOf(p);
  const s0 = initialState(m);
  const tasks = p.threads.filter((t) => t.role === 'P').sort((a, b) => a.index - b.index);
  const tasksOn = new Array<number>(m.cpus).fill(0);
  for (const t of tasks) tasksOn[t.cpu] = (tasksOn[t.cpu] ?? 0) + 1;
  const occupied = tasksOn.map((n) => n > 0);
  const migrate = bounds.migrations > 0 && m.cpus > 1;
  // A CPU's handler can find it idle if no task starts there, or if its tasks may leave.
  const idleIrq = (k: number) =>
    (m.irqCtx[k] ?? -1) >= 0 && bounds.irqs > 0 && (!occupied[k] || migrate);
  const idleNmi = (k: number) =>
    (m.nmiCtx[k] ?? -1) >= 0 && bounds.nmis > 0 && (!occupied[k] || migrate);
  // CPU hotplug (bounds.hotplugs): a CPU with dead callbacks may go offline once its tasks are
  // done (its chain says when), and its callbacks run as a task on the control CPU (the lowest
  // other one), in a turn of their own where that CPU has tasks.
  const hotplug = bounds.hotplugs > 0 && m.hotplug !== null;
  const dies = (k: number) => hotplug && (m.deadCtx[k] ?? -1) >= 0;
  const control = (k: number) => (k === 0 ? 1 : 0);
  const controls = new Set<number>();
  for (let k = 0; k < m.cpus; k++) if (dies(k)) controls.add(control(k));
  const shared = tasksOn.map(
    (n, k) =>
      n > 1 ||
      migrate ||
      idleIrq(k) ||
      idleNmi(k) ||
      (dies(k) && n > 0) ||
      (controls.has(k) && n > 0),
  );
  const chain = new Int32Array(m.cpus).fill(-1);
  for (let k = 0; k < m.cpus; k++) if (shared[k]) chain[k] = chainLocation(m, k);
  const plans: ThreadPlan[] = [];
  const names: string[] = [];
  for (const t of tasks) {
    const current = s0[cpuBase(m, t.cpu) + CPU_CUR] === t.ctx;
    plans.push({ ctx: t.ctx, cpu: t.cpu, index: plans.length, current });
    names.push(t.name);
  }
  for (let k = 0; k < m.cpus; k++) {
    const name = (ctx: number) => m.programs[ctx]?.name ?? `handler ${String(ctx)}`;
    if (idleIrq(k)) {
      const ctx = m.irqCtx[k] as number;
      plans.push({ ctx, cpu: k, index: plans.length, current: false, idle: 'irq' });
      names.push(`${name(ctx)} on idle CPU${String(k)}`);
    }
    if (idleNmi(k)) {
      const ctx = m.nmiCtx[k] as number;
      plans.push({ ctx, cpu: k, index: plans.length, current: false, idle: 'nmi' });
      names.push(`${name(ctx)} on idle CPU${String(k)}`);
    }
  }
  for (let k = 0; k < m.cpus; k++) {
    if (!dies(k)) continue;
    const ctx = m.deadCtx[k] as number;
    plans.push({
      ctx,
      cpu: k,
      index: plans.length,
      current: false,
      hotplug: { control: control(k), online: true },
    });
    names.push(`CPU${String(k)}'s offline and ${m.programs[ctx]?.name ?? 'its dead callbacks'}`);
  }
  const grace = plans.some((p) => p.hotplug !== undefined);
  return { plans, names, scheduling: { bounds, chain, shared, occupied, grace } };
}

/** Whether runs, one a thread, spend no more of the bounds together than the program allows. */
export function withinBounds(
  spent: readonly (Readonly<Spent> | undefined)[],
  bounds: Readonly<Spent>,
): boolean {
  const sum = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, hotplugs: 0 };
  for (const s of spent) {
    if (!s) continue;
    sum.irqs += s.irqs;
    sum.nmis += s.nmis;
    sum.preemptions += s.preemptions;
    sum.migrations += s.migrations;
    sum.hotplugs += s.hotplugs;
  }
  return (
    sum.irqs <= bounds.irqs &&
    sum.nmis <= bounds.nmis &&
    sum.preemptions <= bounds.preemptions &&
    sum.migrations <= bounds.migrations &&
    sum.hotplugs <= bounds.hotplugs
  );
}
