// The scenario catalogue. Ids are stable: they appear in URLs, the CLI and tests.

import { globalAtomic } from './global-atomic.ts';
import { globalPlain } from './global-plain.ts';
import { globalSpinlock } from './global-spinlock.ts';
import { lazyNrFiles } from './lazy-nr-files.ts';
import { percpuAtomic64 } from './percpu-atomic64.ts';
import { percpuClassic } from './percpu-classic.ts';
import { percpuLglock } from './percpu-lglock.ts';
import { percpuModern } from './percpu-modern.ts';
import { percpuSeq } from './percpu-seq.ts';
import { percpuSeqMulti } from './percpu-seq-multi.ts';
import { percpuSumFuzzy } from './percpu-sum-fuzzy.ts';
import { thisCpuMigrate } from './this-cpu-migrate.ts';
import { thisCpuOps } from './this-cpu-ops.ts';
import { irqLocalRmw } from './irq-local-rmw.ts';
import { cmpxchgLocalGeneric } from './cmpxchg-local-generic.ts';
import { tornRead32 } from './torn-read-32.ts';
import type { Scenario } from './types.ts';

export type { Scenario } from './types.ts';

/** What a picker or a list needs to show of a scenario. */
export type ScenarioSummary = Pick<
  Scenario,
  'id' | 'title' | 'group' | 'source' | 'summary' | 'reconstruction'
>;

/** Every scenario, in the order of DESIGN §5 (roughly: by thread, then by era). */
export const catalogue: readonly Scenario[] = [
  globalPlain,
  globalAtomic,
  globalSpinlock,
  lazyNrFiles,
  percpuClassic,
  percpuAtomic64,
  percpuLglock,
  percpuSeq,
  percpuSeqMulti,
  percpuSumFuzzy,
  thisCpuMigrate,
  thisCpuOps,
  irqLocalRmw,
  cmpxchgLocalGeneric,
  percpuModern,
  tornRead32,
];

/** The scenario with this id, or undefined. */
export function findScenario(id: string): Scenario | undefined {
  return catalogue.find((s) => s.id === id);
}
