// How far a program lets interrupts and the scheduler go (`#pragma lab bounds irqs=1 …`), and
// what it gets when it does not say: one IRQ where it has an IRQ handler, one NMI where it has an
// NMI handler, one preemption where two tasks share a CPU, one hotplug where it has dead
// callbacks. Explore's machine (src/scenarios/program.ts) and the kernel's memory model
// (src/axiomatic/plans.ts) take the same bounds, so their answers are about the same runs.

import type { CompiledProgram } from './compiled.ts';
import type { BoundName } from './module.ts';

export function programBounds(c: CompiledProgram): Partial<Record<BoundName, number>> {
  const m = c.machine;
  const cpus = new Set<number>();
  let sharing = false;
  for (const t of c.threads) {
    if (t.role !== 'P') continue;
    if (cpus.has(t.cpu)) sharing = true;
    cpus.add(t.cpu);
  }
  const out: Partial<Record<BoundName, number>> = {
    irqs: [...m.irqCtx].some((x) => x >= 0) ? 1 : 0,
    nmis: [...m.nmiCtx].some((x) => x >= 0) ? 1 : 0,
    preemptions: sharing ? 1 : 0,
    migrations: 0,
    // Only a program with dead callbacks has this bound (its bounds pragma may say how many).
    ...(m.hotplug ? { hotplugs: 1 } : {}),
  };
  return { ...out, ...c.module.settings.bounds };
}
