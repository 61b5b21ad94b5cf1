// percpu-atomic64: Shaohua Li's atomic64 count with no lock on the fold (April 2011,
// reconstruction; reference §2.3, walk-through §6d part 1).

import { REFERENCE_6D } from '../../scenarios/percpu/setup.ts';
import type { ScenarioLesson } from '../types.ts';
import { FOLD_MEETS_SUM } from './fold-of-4.ts';
import { SHAOHUA_V2_2011, TEJUN_2011 } from './sources.ts';

const NONE = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 };

export const percpuAtomic64Lesson: ScenarioLesson = {
  scenario: 'percpu-atomic64',
  sources: [SHAOHUA_V2_2011, TEJUN_2011],
  slides: [
    {
      title: 'No lock on the fold',
      text: "Shaohua Li's April 2011 version (its code is not at hand: this is the design as the thread describes it) made fbc->count an atomic64_t and dropped fbc->lock. An overflowing add does atomic64_add() of its delta plus the amount, then writes 0 to its delta; the sum reads fbc->count, then each delta, with no lock. fbc->count is 1000 and the deltas are 31, 0, 5 and 0.",
      params: REFERENCE_6D,
      expect: { count: 1000, slot0: 31, slot2: 5, exact: 1036 },
    },
    {
      title: 'A fold in two steps',
      text: 'CPU0 adds 1: its delta would be 32, the batch, so it adds 32 to fbc->count, now 1032. Its delta still says 31 until its next step writes 0: for that one step the batch is counted in both places. Under fbc->lock nobody could see this moment; now a sum can.',
      params: REFERENCE_6D,
      at: '0*3',
      expect: { count: 1032, slot0: 31 },
    },
    {
      title: 'A sum that misses the batch',
      text: "CPU3's sum reads fbc->count, 1000, before the fold, and CPU0's delta, 0, after it. It returns 1005 while the true value went from 1036 to 1037: a single add of 1 made the sum off by a whole batch.",
      params: REFERENCE_6D,
      at: '3 0*5 3*4',
      expect: { sum: 1005, count: 1032, slot0: 0, exact: 1037 },
      breaks: ['sum-within-window'],
      predict: {
        question:
          'CPU3 reads fbc->count; then CPU0 adds 1 and folds; then CPU3 reads the deltas. What does the sum return?',
        answer:
          "1005: it read fbc->count before the fold and CPU0's delta after it, so CPU0's 32 is missing.",
      },
    },
    {
      title: '…or counts it twice',
      text: "Another order: CPU0's atomic64_add lands first; the sum reads fbc->count, 1032, and then CPU0's delta, still 31. It returns 1068, 31 too many. Same code, same reading order; only the timing of the adder differs.",
      params: REFERENCE_6D,
      at: '0 0 0 3 3 0 0 3 3 3',
      expect: { sum: 1068, count: 1032, slot0: 0, exact: 1037 },
      breaks: ['sum-within-window'],
    },
    {
      title: "Tejun Heo's objection",
      text: 'Under fbc->lock a sum is off only by the adds in flight. Without it, the error can be a whole batch. Tejun Heo: "_sum can\'t be accurate. It never was and never will be, but the deviations have been quite predictable regardless of @batch." After the change, "@batch deviations won\'t happen often but will happen once in a while". Filesystems use these counters for free-block accounting.',
    },
  ],
  witnessQuestions: {
    'sum-misses-a-batch': {
      question:
        'fbc->count 1000, deltas 31, 0, 5, 0. CPU3 reads fbc->count, then CPU0 adds 1 and folds, then CPU3 reads the deltas. What does the sum return?',
      answer: '1005, while the true value went from 1036 to 1037: the 32 CPU0 folded is missing.',
    },
    'sum-counts-a-batch-twice': {
      question:
        "The same start, but CPU0's atomic64_add lands before the sum reads fbc->count, and its delta reset after the sum reads the delta. What does the sum return?",
      answer:
        "1068: fbc->count already holds CPU0's 32 and its delta still says 31, so 31 are counted twice.",
    },
  },
  challenges: [
    {
      id: 'miss-the-batch',
      title: 'Make sum() miss a whole batch',
      task: "CPU0's delta is 3 and it adds 1, folding 4 into fbc->count, while CPU1 sums without a lock. Make the sum come out at least a whole batch (4) below the true total.",
      mode: 'reach',
      goal: { kind: 'difference', of: 'exact', minus: 'sum', atLeast: 4 },
      params: FOLD_MEETS_SUM,
      bounds: NONE,
      hints: [
        {
          text: 'The sum reads fbc->count first and the deltas after. What if the fold happens in between?',
        },
        { text: "Let the sum read fbc->count (0) before CPU0's add, and CPU0's delta after it." },
        {
          text: 'One step of the sum, all of CPU0, then the rest of the sum.',
          schedule: '1 0*5 1 1',
        },
      ],
    },
    {
      id: 'count-twice',
      title: 'Make sum() count a delta twice',
      task: 'Same machine. Now make the sum come out at least 3 above the true total.',
      mode: 'reach',
      goal: { kind: 'difference', of: 'sum', minus: 'exact', atLeast: 3 },
      params: FOLD_MEETS_SUM,
      bounds: NONE,
      hints: [
        {
          text: 'For a moment during the fold, the batch is in fbc->count and still in the delta.',
        },
        {
          text: 'Let CPU0 run up to its atomic64_add, then read everything before it resets its delta.',
        },
        {
          text: 'Three steps of CPU0, the whole sum, then the rest of CPU0.',
          schedule: '0*3 1*3 0 0',
        },
      ],
    },
  ],
};
