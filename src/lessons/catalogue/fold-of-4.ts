// The smallest machine where a fold can meet a sum: CPU0's delta is 3 and it adds 1 once, so it
// folds a whole batch of 4 into fbc->count while CPU1 sums. The percpu-classic, percpu-atomic64
// and percpu-lglock challenges share it, so a student sees the same race kept out, let in, and
// kept out again.

import type { Goal } from '../goal.ts';

export const FOLD_MEETS_SUM = {
  cpus: 2,
  batch: 4,
  slots: [3],
  amounts: [1, 0],
  adds: [1],
  summer: 1,
};

/**
 * The sum is off from the final total by 3 or more: it missed the batch (0 instead of 4) or
 * counted CPU0's delta twice (7). A sum that saw the fold whole or not at all is 3 or 4.
 */
export const SUM_OFF_BY_A_BATCH: Goal = { kind: 'gap', between: ['sum', 'exact'], atLeast: 3 };
