// percpu-seq-multi: Eric Dumazet's announced V2, several sums in flight and no spinlock (13 May
// 2011, reconstruction; reference §2.5).

import { ONE_FOLD_OF_4 } from '../../scenarios/percpu/setup.ts';
import type { ScenarioLesson } from '../types.ts';
import { ERIC_V1_2011, TEJUN_2011 } from './sources.ts';

const AS_DESCRIBED = { variant: 'as-described', summer2: -1, ...ONE_FOLD_OF_4 };
const GUARDED = { variant: 'guarded', summer2: -1, ...ONE_FOLD_OF_4 };

export const percpuSeqMultiLesson: ScenarioLesson = {
  scenario: 'percpu-seq-multi',
  sources: [ERIC_V1_2011, TEJUN_2011],
  slides: [
    {
      title: 'Several sums, no spinlock',
      text: 'In the same mail Eric Dumazet announced a V2: "we could allow several _sum() in flight (we would need an atomic_t counter for counter of _sum(), not a single bit, and remove the spinlock." Only that announcement is at hand, so this model is ours: while fbc->sums is not zero, adds go to slowcount; a fold increments fbc->changed; a sum starts over if `changed` moved during its pass.',
      expect: { count: 0, slowcount: 0, exact: 0 },
    },
    {
      title: 'A fold without its lock',
      text: "As described, a fold is an atomic64_add, a delta reset, then changed++. CPU0, its delta at 3, adds 1 and folds 4. CPU1's sum reads fbc->count after the add (4), CPU0's delta before the reset (3), and `changed` before the bump: it returns 7 while the true value was 3, then 4.",
      params: AS_DESCRIBED,
      at: '0 0 1 1 0 0 1*7 0*3',
      expect: { sum: 7, count: 4, retries: 0, exact: 4 },
      breaks: ['sum-within-window'],
      predict: {
        question: 'Why did checking `changed` not catch the fold?',
        answer:
          'The check came before the bump: the lock used to make fold and bump one unit, and it is gone.',
      },
    },
    {
      title: 'Announce the fold first',
      text: 'Our guarded variant also counts folds in progress in fbc->changing: a sum waits while it is not zero, and rejects a pass during which it became non-zero. The same moment: the pass that saw 7 is rejected, the sum waits for the fold to end, and its second pass returns 4.',
      params: GUARDED,
      at: '0 0 1 1 1 0 0 0 1*6 0*4 1*10',
      expect: { sum: 4, count: 4, retries: 1, exact: 4 },
      breaks: [],
    },
    {
      title: 'What is not known',
      text: 'The mail also says V2 would use a separate integer for add_did_change_fbc_count, removing "the atomic_add(2, &fbc->sequence); of my previous patch" from _add(), and might move fbc->count and fbc->slowcount out of line. Which design was finally posted is not at hand, and as far as the reference could check, later mainline kept one spinlock around the fold.',
    },
  ],
  witnessQuestions: {
    'half-done-fold-accepted': {
      question:
        "As described: CPU0 (delta 3) folds 4; CPU1's sum reads fbc->count after the atomic64_add, CPU0's delta before its reset, and `changed` before the bump. What does the sum return?",
      answer:
        '7, while the true value was 3, then 4: the batch was counted twice and the check did not notice.',
    },
    'guarded-rescans': {
      question:
        'Guarded: the same moment, but CPU0 announced its fold in `changing` before the atomic64_add. What does the sum do?',
      answer: 'It rejects the pass, waits for the fold to end, and returns 4 after one retry.',
    },
  },
  challenges: [
    {
      id: 'accept-a-half-fold',
      title: 'Get a half-done fold accepted',
      task: "As described, with one summer: CPU0's delta is 3 and it adds 1, folding 4. Make CPU1's sum return a value the counter never had.",
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'sum-within-window' },
      params: AS_DESCRIBED,
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        { text: 'The sum checks `changed` after its scan. When does the fold bump it?' },
        {
          text: "Read fbc->count after CPU0's atomic64_add, and CPU0's delta and `changed` before the rest of the fold.",
        },
        {
          text: 'CPU0 passes the sums check; the sum starts; CPU0 folds; the whole sum runs; CPU0 finishes.',
          schedule: '0 0 1 1 0 0 1*7 0*3',
        },
      ],
    },
    {
      id: 'guarded-holds',
      title: 'Try the same against the guarded fold',
      task: 'Guarded variant, same machine, and one migration if you like. Can the sum still accept a half-done fold?',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'sum-within-window' },
      params: GUARDED,
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 },
      hints: [
        {
          text: 'A fold raises fbc->changing before it touches fbc->count, and lowers it after bumping `changed`.',
        },
        {
          text: 'A pass starts only when `changing` is 0, and is rejected if `changing` is not 0 at its end.',
        },
        {
          text: 'The closest try: the sum catches the fold half done, rejects that pass and returns 4.',
          schedule: '0 0 1 1 1 0 0 0 1*6 0*4 1*10',
        },
      ],
    },
  ],
};
