// Setups that lessons name instead of writing their parameters out ("params": "four-cpus-at-1000"),
// because scenarios or several lessons use the very same machine. A lesson's own setups are in
// its file; these are shared, so a change here reaches every lesson and witness that uses them.

import { TWO_OPENS_FROM_100 } from '../../scenarios/nrFiles.ts';
import { FOUR_CPUS_AT_1000 } from '../../scenarios/percpu/setup.ts';
import type { Params } from '../../scenarios/types.ts';

export const sharedSetups: Readonly<Record<string, Params>> = {
  /** The nr_files thread's race: two CPUs open one file each, from 100. */
  'two-opens-from-100': TWO_OPENS_FROM_100,
  /** Four CPUs, batch 32, CPU3 sums while the others add. */
  'four-cpus-at-1000': FOUR_CPUS_AT_1000,
  /**
   * The smallest machine where a fold can meet a sum: CPU0's delta is 3 and it adds 1 once, so it
   * folds a whole batch of 4 into fbc->count while CPU1 sums. The percpu-classic,
   * percpu-atomic64 and percpu-lglock challenges share it, so a student sees the same race kept
   * out, let in, and kept out again.
   */
  'fold-meets-sum': { cpus: 2, batch: 4, slots: [3], amounts: [1, 0], adds: [1], summer: 1 },
};
