// Every scenario's lesson, by scenario id. Tests hold the list to the scenario catalogue: one
// lesson per scenario, one question per witness.

import type { ScenarioLesson } from '../types.ts';
import { cmpxchgLocalGenericLesson } from './cmpxchg-local-generic.ts';
import { globalAtomicLesson } from './global-atomic.ts';
import { globalPlainLesson } from './global-plain.ts';
import { globalSpinlockLesson } from './global-spinlock.ts';
import { irqLocalRmwLesson } from './irq-local-rmw.ts';
import { lazyNrFilesLesson } from './lazy-nr-files.ts';
import { percpuAtomic64Lesson } from './percpu-atomic64.ts';
import { percpuClassicLesson } from './percpu-classic.ts';
import { percpuLglockLesson } from './percpu-lglock.ts';
import { percpuModernLesson } from './percpu-modern.ts';
import { percpuSeqLesson } from './percpu-seq.ts';
import { percpuSeqMultiLesson } from './percpu-seq-multi.ts';
import { percpuSumFuzzyLesson } from './percpu-sum-fuzzy.ts';
import { thisCpuMigrateLesson } from './this-cpu-migrate.ts';
import { thisCpuOpsLesson } from './this-cpu-ops.ts';
import { tornRead32Lesson } from './torn-read-32.ts';

/** Every lesson (in the scenario catalogue's order; courseOrder gives the teaching order). */
export const lessons: readonly ScenarioLesson[] = [
  globalPlainLesson,
  globalAtomicLesson,
  globalSpinlockLesson,
  lazyNrFilesLesson,
  percpuClassicLesson,
  percpuAtomic64Lesson,
  percpuLglockLesson,
  percpuSeqLesson,
  percpuSeqMultiLesson,
  percpuSumFuzzyLesson,
  thisCpuMigrateLesson,
  thisCpuOpsLesson,
  irqLocalRmwLesson,
  cmpxchgLocalGenericLesson,
  percpuModernLesson,
  tornRead32Lesson,
];

/** The lesson of scenario `id`, or undefined. */
export function findLesson(id: string): ScenarioLesson | undefined {
  return lessons.find((l) => l.scenario === id);
}
