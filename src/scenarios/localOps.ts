// What the CPU-local scenarios share (this-cpu-migrate, this-cpu-ops, irq-local-rmw,
// cmpxchg-local-generic): their sources, the initial per-CPU slots and the CPUs a migrated task
// can go to.

import { intParam, intSpec, listParam } from './params.ts';
import type { Params } from './types.ts';

export const KH_2009 =
  'KAMEZAWA Hiroyuki, "[PATCH 2/2] memcg : rewrite percpu countings with new interfaces", linux-mm, v1 6 Nov 2009 <20091106175545.b97ee867.kamezawa.hiroyu@jp.fujitsu.com>, Christoph Lameter\'s review the same day, v2 9 Nov 2009 <20091109154446.181b0e1f.kamezawa.hiroyu@jp.fujitsu.com>';
export const MD_2007 =
  'Mathieu Desnoyers, "[patch 01/28] Add cmpxchg_local to asm-generic for per cpu atomic operations", 30 Oct 2007 <20071030192101.749932864@polymtl.ca>';

/** The `slots` parameter stretched to one initial value per CPU (missing ones 0). */
export function initialSlots(p: Params): number[] {
  const slots = listParam(p, 'slots');
  return Array.from({ length: intParam(p, 'cpus') }, (_, k) => slots[k] ?? 0);
}

/** The `cpus` parameter of the scenarios where a task migrates: at least a second CPU. */
export const migrationCpusParam = intSpec(
  'cpus',
  2,
  [2, 8],
  'Number of CPUs; the tasks start on CPU0 and the other CPUs are idle, so a migrated task runs there at once',
);
