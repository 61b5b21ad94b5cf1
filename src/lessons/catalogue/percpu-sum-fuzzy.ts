// percpu-sum-fuzzy: sums that start over when fbc->count moved (Shaohua Li) or a seqcount moved
// (Eric Dumazet), April 2011 (reference §2.2). Fuzzy, and a livelock without an in-flight bit.

import { ONE_FOLD_OF_4 } from '../../scenarios/percpu/setup.ts';
import type { ScenarioLesson } from '../types.ts';
import { ERIC_SEQCOUNT_2011, SHAOHUA_SUM_2011, TEJUN_2011 } from './sources.ts';

const NONE = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 };
const SEQ_FOLD = { variant: 'seqcount', ...ONE_FOLD_OF_4 };
/** The four folds of the default adders, each landing during a pass of CPU2's sum. */
const FOUR_FOLDS = '2 0*5 2*4 2 1*5 2*4 2 0*5 2*4 2 1*5 2*4 2*5';

export const percpuSumFuzzyLesson: ScenarioLesson = {
  scenario: 'percpu-sum-fuzzy',
  sources: [SHAOHUA_SUM_2011, TEJUN_2011, ERIC_SEQCOUNT_2011],
  slides: [
    {
      title: 'A sum that checks its work',
      text: "Two ideas from the April 2011 thread answer the lockless sum's deviation. Shaohua Li's: read fbc->count before and after the scan, and start over if it moved by more than batch × CPUs. Eric Dumazet's: a seqcount bumped at each change of fbc->count, and start over if it moved by maxfuzzy or more. Here CPU0 and CPU1 each add 20 twice with batch 4 on 3 CPUs: every add folds, moving fbc->count by 20, more than batch × CPUs = 12.",
      expect: { count: 0, retries: 0, exact: 0 },
    },
    {
      title: 'Folds keep landing',
      text: "Each fold lands during a pass of CPU2's sum, so the sum starts over after every one of the four folds before it returns 80. In the model the adders stop; in the kernel, adders that keep overflowing could keep a sum retrying for ever: a livelock.",
      at: FOUR_FOLDS,
      expect: { sum: 80, count: 80, retries: 4, exact: 80 },
      breaks: ['retries-bounded'],
      predict: {
        question: 'How many times can this sum start over?',
        answer:
          'Once per fold that lands during a pass: here 4, and without limit if the adders never stop.',
      },
    },
    {
      title: 'The seqcount retries the same way',
      text: "Eric's sum with maxfuzzy 1 restarts whenever the seqcount moved during the pass. The same adders make it start over four times. Re-checking can notice a fold; it cannot stop the next one.",
      params: { variant: 'seqcount' },
      at: '2 0*6 2*5 2 1*6 2*5 2 0*6 2*5 2 1*6 2*5 2*6',
      expect: { sum: 80, retries: 4, exact: 80 },
      breaks: ['retries-bounded'],
    },
    {
      title: 'A half-done fold slips through',
      text: "The seqcount is bumped after the fold. CPU0, its delta at 3, adds 1 and folds 4 into fbc->count. The sum reads fbc->count (4) and CPU0's delta (still 3) before the bump, finds the seqcount unchanged, and accepts 7 while the true value was 3, then 4.",
      params: SEQ_FOLD,
      at: '2 0 0 0 2*5 0*3',
      expect: { sum: 7, count: 4, retries: 0, exact: 4 },
      breaks: ['sum-within-window'],
    },
    {
      title: 'What is missing',
      text: 'Tejun Heo asked of such checks: "Let\'s say an updater reset per cpu counter but got preempted before updating the global counter. What differences does it make to check fbc->counter before & after like above?" A check needs the fold to be one unit for the sum, and something that stops new folds while a sum runs. Eric Dumazet\'s May 2011 scheme (percpu-seq) stops new folds with a bit that says a sum is in flight; its model also makes each fold one unit, under fbc->lock.',
    },
  ],
  witnessQuestions: {
    'delta-keeps-retrying': {
      question:
        "CPU0 and CPU1 fold 20 at a time, more than batch × CPUs = 12. Each fold lands during a pass of CPU2's retrying sum. How many times does the sum start over?",
      answer: 'Four times, once per fold: more than once per CPU, so retries-bounded is broken.',
    },
    'seqcount-keeps-retrying': {
      question: "The same adders against Eric's seqcount sum with maxfuzzy 1. Does it do better?",
      answer: 'No: every fold bumps the seqcount during a pass, so it also starts over four times.',
    },
    'delta-misses-a-half-done-fold': {
      question:
        "CPU0 (delta 3) adds 1 and folds 4 with atomic64_add. The sum reads old = 4 after that, CPU0's delta before the reset, and new = 4. What does it return?",
      answer:
        '7, while the true value was 3, then 4: fbc->count did not move during the scan, so the check passed.',
    },
    'seqcount-misses-a-half-done-fold': {
      question:
        "CPU0 folds 4 into fbc->count; the sum reads fbc->count and CPU0's delta (still 3) before CPU0 bumps the seqcount. What does it return?",
      answer:
        '7: the seqcount had not moved yet, so the sum accepted a scan that saw the batch twice.',
    },
  },
  challenges: [
    {
      id: 'retry-three-times',
      title: 'Keep the sum busy',
      task: "CPU0 and CPU1 each make two adds of 20, and every add folds. Make CPU2's retrying sum start over at least three times.",
      mode: 'reach',
      goal: { kind: 'observable', name: 'retries', atLeast: 3 },
      params: {},
      bounds: NONE,
      hints: [
        { text: 'The sum starts over when fbc->count moved during its pass.' },
        { text: 'A fold needs 5 steps of an adder. Fit one fold inside each pass of the sum.' },
        {
          text: 'Start a pass, run a whole add, finish the pass; repeat with the other adder.',
          schedule: FOUR_FOLDS,
        },
      ],
    },
    {
      id: 'slip-through',
      title: 'Slip a half-done fold past the seqcount',
      task: "Eric's seqcount sum. CPU0's delta is 3 and it adds 1, folding 4. Make the sum return a value the counter never had.",
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'sum-within-window' },
      params: SEQ_FOLD,
      bounds: NONE,
      hints: [
        { text: 'CPU0 bumps the seqcount only after its fold and its delta reset.' },
        {
          text: "The sum must read fbc->count after the atomic64_add and CPU0's delta before its reset.",
        },
        {
          text: 'Let the sum read the seqcount, let CPU0 fold, then run the whole sum before CPU0 resets its delta.',
          schedule: '2 0 0 0 2*5 0*3',
        },
      ],
    },
  ],
};
