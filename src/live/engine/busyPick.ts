// For the engines' property tests (bare.test.ts, engines.test.ts): which CPU a random pick runs
// next, so both tests drive the compiled and interpreted engines over the same choices.

import { topContext } from '../../machine/interpreter.ts';
import { cpuBase, CPU_CUR, CPU_TASKS, type Machine } from '../../machine/machine.ts';

/**
 * The busy CPU that `pick` chooses (modulo the busy ones), its running context, and whether that
 * is a task alone on its CPU (the only case the loop may restart in place); null when none is busy.
 */
export function busyPick(
  m: Machine,
  s: Int32Array,
  pick: number,
): { k: number; c: number; alone: boolean } | null {
  const busy = Array.from({ length: m.cpus }, (_, k) => k).filter((k) => topContext(m, s, k) >= 0);
  if (busy.length === 0) return null;
  const k = busy[pick % busy.length] as number;
  const c = topContext(m, s, k);
  const cpu = cpuBase(m, k);
  return { k, c, alone: c < m.tasks && s[cpu + CPU_TASKS] === 1 && s[cpu + CPU_CUR] === c };
}
