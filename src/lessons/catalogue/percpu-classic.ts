// percpu-classic: percpu_counter in Linux 2.6.39 (reference §1.2–1.9, walk-throughs §6b, §6c).

import type { ScenarioLesson } from '../types.ts';
import { FOLD_MEETS_SUM, SUM_OFF_BY_A_BATCH } from './fold-of-4.ts';
import { PERCPU_COUNTER_2_6_39, TEJUN_2011, TIM_CHEN_2011 } from './sources.ts';

/** Reference §6c: four CPUs, batch 32, no summer; each CPU adds 1 thirty-one times. */
const SIX_C = { cpus: 4, batch: 32, summer: -1, adds: [31] };

/** Reference §6b: CPU3 sums while CPU1 overflows and CPU0 adds on its fast path. */
const SIX_B = {
  cpus: 4,
  batch: 32,
  count: 1000,
  slots: [10, 31, -5, 0],
  summer: 3,
  amounts: [3, 1, 0, 0],
  adds: [1],
};

export const percpuClassicLesson: ScenarioLesson = {
  scenario: 'percpu-classic',
  sources: [PERCPU_COUNTER_2_6_39, TIM_CHEN_2011, TEJUN_2011],
  slides: [
    {
      title: 'A delta per CPU, folded at the batch',
      text: "In 2.6.39 each CPU adds into its own s32 delta with preemption off. Only when the delta would reach ±batch does the CPU take fbc->lock, add it to the s64 fbc->count, and write 0 to its delta. The kernel's batch is max(32, 2 × CPUs); here 4 CPUs and a batch of 32.",
      params: SIX_C,
      expect: { count: 0, exact: 0 },
    },
    {
      title: 'read() is off by 124',
      text: 'Each of the 4 CPUs has added 1 thirty-one times. Every delta is 31, one short of the batch, so nothing was folded: percpu_counter_read(), which returns fbc->count alone, says 0 while the true value is 124 = (32 − 1) × 4, the largest error read() can have.',
      params: SIX_C,
      at: '0*124 1*124 2*124 3*124',
      expect: { count: 0, slot0: 31, slot1: 31, slot2: 31, slot3: 31, exact: 124 },
      breaks: [],
      predict: {
        question: 'What does percpu_counter_read() return, and what is the true value?',
        answer: 'read() returns 0 while the true value is 124: every CPU holds 31 in its delta.',
      },
    },
    {
      title: 'The fold',
      text: "CPU0 adds 1 once more: its delta would be 32, so it takes fbc->lock, adds 32 to fbc->count and writes 0 to its delta. read() now says 32 while the true value is 125: off by 93, the three other CPUs' deltas.",
      params: { ...SIX_C, adds: [32, 31] },
      at: '0*132 1*124 2*124 3*124',
      expect: { count: 32, slot0: 0, slot1: 31, slot2: 31, slot3: 31, exact: 125 },
    },
    {
      title: 'sum() holds the lock',
      text: "CPU3 sums under fbc->lock: it has read fbc->count, 1000, and CPU0's delta, 10. CPU1's add of 1 would make its delta 32, so it must fold: it spins on the lock, preemption off. CPU0's add of 3 takes the fast path, no lock needed: its delta is 13 now, after the sum read it.",
      params: SIX_B,
      at: '3 3 3 1 1 1 0 0 0 0',
      expect: { count: 1000, slot0: 13, slot1: 31, sum: null },
      predict: {
        question: 'What will the sum return?',
        answer:
          "1036: fbc->count 1000, plus 10 (CPU0's delta as it read it), 31, −5 and 0. CPU1 cannot fold until the sum releases the lock.",
      },
    },
    {
      title: 'Never a half-done fold',
      text: "The sum returns 1036. Then CPU1 gets the lock and folds 32: fbc->count is 1032 and the true value is 1040. The sum missed CPU0's 3, added after it read that delta, and CPU1's 1, still waiting for the lock: adds in flight, never a fold seen half done. The price: every overflowing adder on every CPU waits for the whole scan. And where nearly every add overflows, every add takes fbc->lock: on Tim Chen's many-CPU test machine, large updates of vm_committed_as always overflowed, and the per-CPU counter behaved as one global spinlock.",
      params: SIX_B,
      at: '3 3 3 1 1 1 0 0 0 0 3 3 3 3 1 1 1 1 1 1',
      expect: { sum: 1036, count: 1032, slot0: 13, slot1: 0, exact: 1040 },
      breaks: [],
    },
    {
      title: 'compare() knows the bound',
      text: 'percpu_counter_compare(fbc, 100) trusts read() only when read() is more than batch × CPUs = 128 away from 100. Here read() says 0, only 100 away, so compare() takes the precise sum and answers 1 (above): the true value is 124. read() alone would have said below.',
      params: { ...SIX_C, comparer: 0, rhs: 100 },
      at: '1*124 2*124 3*124 0*132',
      expect: { count: 0, exact: 124, compare: 1 },
      breaks: [],
    },
  ],
  witnessQuestions: {
    'sum-holds-the-lock': {
      question:
        'CPU3 sums under fbc->lock from 1000 with deltas 10, 31, −5, 0. CPU1 adds 1 (its delta overflows) and CPU0 adds 3 after the sum read its delta. What does the sum return?',
      answer:
        "1036: CPU1 spins on the lock until the sum is done, and CPU0's 3 landed after the sum read its delta.",
    },
    'read-error-124': {
      question: 'Four CPUs, batch 32: each adds 1 thirty-one times. What does read() return?',
      answer: '0, while the true value is 124 = (32 − 1) × 4: the largest error read() can have.',
    },
    'fold-at-32': {
      question: 'Every delta is 31 and CPU0 adds 1 more. What happens to fbc->count?',
      answer:
        "CPU0's delta reaches 32: it folds 32 into fbc->count under the lock and resets its delta to 0.",
    },
    'compare-takes-the-sum': {
      question:
        'Every delta is 31, so read() says 0 while the truth is 124. What does compare(fbc, 100) answer?',
      answer:
        '1 (above): 0 is only 100 from 100, within batch × CPUs = 128, so compare() uses the precise sum, 124.',
    },
    'compare-trusts-the-read': {
      question: 'The same state, compare(fbc, 200). Does compare() need the sum?',
      answer:
        'No: |0 − 200| = 200 is more than 128, more than read() can be off, so −1 (below) is safe without a sum.',
    },
    'negative-mirror': {
      question:
        'CPUs 1–3 hold +31 each and CPU0 frees all 93. The true count is 0. What do read() and 2.6.39 read_positive() return?',
      answer:
        "read() returns −64 (CPU0 folded −32 twice and holds −29) and read_positive() returns 1, 2.6.39's value for a negative count (modern kernels return 0).",
    },
  },
  challenges: [
    {
      id: 'catch-mid-way',
      title: 'Catch the sum mid-way',
      task: 'CPU0 adds 1 three times while CPU1 sums. Make the sum return 2: the total at a moment when CPU0 had made two of its three adds.',
      mode: 'reach',
      goal: {
        kind: 'all',
        goals: [
          { kind: 'observable', name: 'sum', equals: 2 },
          { kind: 'observable', name: 'exact', equals: 3 },
        ],
      },
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: "The sum reads fbc->count once and each CPU's delta once, in CPU order." },
        {
          text: "No fold happens here (3 < batch 4), so the sum is CPU0's delta at the moment the sum reads it.",
        },
        {
          text: "Let CPU0 store its second add, then run the whole sum before CPU0's third store.",
          schedule: '0*10 1*5 0 0',
        },
      ],
    },
    {
      id: 'no-half-done-fold',
      title: 'Try to make sum() miss a whole batch',
      task: "CPU0's delta is 3 and it adds 1, so it folds 4 into fbc->count while CPU1 sums. Can the sum miss that batch, or count it twice? Use at most one migration.",
      mode: 'impossible',
      goal: SUM_OFF_BY_A_BATCH,
      params: FOLD_MEETS_SUM,
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 },
      hints: [
        {
          text: 'To miss the batch, the sum would have to read fbc->count before the fold and the delta after it.',
        },
        {
          text: 'The fold and the delta reset happen under fbc->lock, and the sum holds fbc->lock for its whole scan.',
        },
        {
          text: 'The closest try: start the sum, then let CPU0 overflow. It spins until the sum is done; the sum returns 3, the true value just before the add.',
          schedule: '1 1 0 0 0 1 1 1 0 0 0 0 0 0',
        },
      ],
    },
  ],
};
