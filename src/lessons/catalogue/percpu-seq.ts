// percpu-seq: Eric Dumazet's V1, a sequence word whose low bit says "sum in flight" and a
// slowcount for the adds that come meanwhile (13 May 2011, reconstruction; reference §2.5,
// walk-through §6d part 2).

import { REFERENCE_6D } from '../../scenarios/percpu/setup.ts';
import type { ScenarioLesson } from '../types.ts';
import { ERIC_V1_2011 } from './sources.ts';

/** Reference §6d part 2: CPU1 and CPU2 add 7 and 2 while CPU3's sum is in flight. */
const SIX_D = { ...REFERENCE_6D, amounts: [1, 7, 2, 0], sequence: 4 };
const SUM_STARTED = '0 0 3*4 3*3';
const FOLDED = `${SUM_STARTED} 0*8`;
const DIVERTED = `${FOLDED} 3 1*4`;
const WHOLE = `${DIVERTED} 3*3 3*3 3*3 2*4 3*4 3*4 0`;

/** The adders of percpu-sum-fuzzy, which made its sums retry four times. */
const KEEP_FOLDING = { cpus: 3, summer: 2, amounts: [20], adds: [2] };

export const percpuSeqLesson: ScenarioLesson = {
  scenario: 'percpu-seq',
  sources: [ERIC_V1_2011],
  slides: [
    {
      title: 'A sequence word and a slow counter',
      text: "Eric Dumazet's V1 (reconstructed from his mail; the code is not at hand) adds fbc->sequence and fbc->slowcount. \"Low order bit of the 'sequence' is used to signal _sum() is in flight\", and an add that sees it set goes to slowcount instead of its delta. A fold adds 2 to the sequence. Here the sequence starts at 4: even, no sum in flight.",
      params: SIX_D,
      expect: { sequence: 4, slowcount: 0, count: 1000, exact: 1036 },
    },
    {
      title: 'Sum in flight',
      text: "CPU0's add of 1 has checked the sequence (4, even) and gone on. Then CPU3's sum sets the low bit, making it 5, and starts its pass: it reads fbc->count, 1000, and slowcount, 0.",
      params: SIX_D,
      at: SUM_STARTED,
      expect: { sequence: 5, count: 1000, slowcount: 0, sum: null },
    },
    {
      title: 'A fold already under way',
      text: "CPU0 was past the check, so it adds normally: its delta would reach 32, so it folds under fbc->lock and adds 2 to the sequence, now 7. CPU3's pass has read fbc->count before the fold and will read CPU0's delta after it: this pass has missed the batch.",
      params: SIX_D,
      at: FOLDED,
      expect: { sequence: 7, count: 1032, slot0: 0 },
    },
    {
      title: 'New adds go around',
      text: 'CPU1 now adds 7. It sees the sequence odd, so it adds 7 to slowcount and leaves its delta, fbc->count and the sequence alone: it cannot disturb the sum.',
      params: SIX_D,
      at: DIVERTED,
      expect: { slowcount: 7, slot1: 0, sequence: 7 },
      predict: {
        question: 'Can this add make the sum start over?',
        answer: 'No: it never touches fbc->count, a delta or the sequence.',
      },
    },
    {
      title: 'One retry, then an answer',
      text: "At the end of its pass CPU3 finds the sequence moved (5 then 7) and starts over: fbc->count 1032 plus slowcount 7 plus the deltas, 5, gives 1044. The sequence has not moved this time, so the sum clears the bit and returns 1044. CPU2's add of 2 went to slowcount after the sum read it, so the true value is 1046: ordinary fuzz from an add in flight.",
      params: SIX_D,
      at: WHOLE,
      expect: { sum: 1044, retries: 1, sequence: 8, slowcount: 9, exact: 1046 },
      breaks: [],
    },
    {
      title: 'Why the retries end',
      text: 'Once the bit is set, every new add bypasses the deltas. Only adds that passed the check before it can still fold, and with preemption off a CPU has at most one such add: the sum starts over at most once per CPU. Eric: "we have guarantee that the _sum() loop wont be restarted ad infinitum."',
    },
  ],
  witnessQuestions: {
    'retry-once': {
      question:
        'CPU0 is past the sequence check when CPU3 starts its sum; CPU0 folds 32 and bumps the sequence; CPU1 and CPU2 then add 7 and 2. How many times does the sum start over, and what does it return?',
      answer:
        "Once: the second pass sees fbc->count 1032, slowcount 7 and the deltas, and returns 1044 (CPU2's 2 arrived after slowcount was read).",
    },
  },
  challenges: [
    {
      id: 'make-it-retry',
      title: 'Make the sum start over',
      task: "CPU0's delta is 3 and it adds 1, which folds. Make CPU1's sum start over once.",
      mode: 'reach',
      goal: { kind: 'observable', name: 'retries', atLeast: 1 },
      params: { slots: [3], amounts: [1, 0], adds: [1] },
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        {
          text: 'An add that sees the bit set never folds. The fold must come from an add already past the check.',
        },
        {
          text: 'Let CPU0 check the sequence before the sum sets the bit; fold while the sum is scanning.',
        },
        {
          text: 'CPU0 checks and reads its delta; the sum sets the bit and scans; CPU0 folds; the sum finishes.',
          schedule: '0*3 1*9 0*8 1*12',
        },
      ],
    },
    {
      id: 'no-livelock',
      title: 'Try to keep the sum busy',
      task: "The adders that made percpu-sum-fuzzy's sum start over four times: CPU0 and CPU1 each add 20 twice, and every add folds. Can you make this sum start over three times?",
      mode: 'impossible',
      goal: { kind: 'observable', name: 'retries', atLeast: 3 },
      params: KEEP_FOLDING,
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'Which adds can still fold once the sum has set the low bit?' },
        {
          text: 'Only adds that passed the sequence check before the bit was set: at most one per adding CPU.',
        },
        {
          text: 'The most you can get: both adders past the check when the sum starts, each folding during a different pass. Two retries.',
          schedule: '0*3 1*3 2*10 0*12 2*9 1*12 2*13',
        },
      ],
    },
  ],
};
