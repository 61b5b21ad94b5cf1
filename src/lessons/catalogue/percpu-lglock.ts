// percpu-lglock: Shaohua Li's v2 with per-CPU locks (11 May 2011, reconstruction; reference
// §2.3, lglock variant).

import { REFERENCE_6D } from '../../scenarios/percpu/setup.ts';
import type { ScenarioLesson } from '../types.ts';
import { FOLD_MEETS_SUM, SUM_OFF_BY_A_BATCH } from './fold-of-4.ts';
import { LGLOCK_2_6_39, SHAOHUA_V2_2011, TEJUN_2011 } from './sources.ts';

const ONE_ADD = { cpus: 2, summer: 1, adds: [1], amounts: [1] };

export const percpuLglockLesson: ScenarioLesson = {
  scenario: 'percpu-lglock',
  sources: [SHAOHUA_V2_2011, LGLOCK_2_6_39, TEJUN_2011],
  slides: [
    {
      title: 'A lock per CPU',
      text: "Shaohua Li's v2 answered Tejun Heo's objection with an lglock: one spinlock per CPU. An add takes only the lock of the CPU it runs on, so adds on different CPUs never contend; the fold is an atomic64_add under that lock. A sum takes every CPU's lock. The cover letter: \"Each cpu has its private lock while other cpu doesn't take.\" (A reconstruction: the patch's code is not at hand.)",
      params: ONE_ADD,
      expect: { count: 0, slot0: 0, exact: 0 },
    },
    {
      title: 'Even a fast-path add waits',
      text: "CPU1's sum has taken both locks. CPU0 wants to add 1, far from the batch, but its add starts with lg_local_lock: it spins on its own lock.",
      params: ONE_ADD,
      at: '1 1 0',
      expect: { slot0: 0, sum: null },
      predict: {
        question: 'When can CPU0 make its add?',
        answer:
          "Only when the sum releases CPU0's lock: the sum returns 0, then CPU0's delta becomes 1.",
      },
    },
    {
      title: 'Then the add',
      text: "The sum returns 0 and releases the locks; CPU0's add goes through and its delta is 1.",
      params: ONE_ADD,
      at: '1 1 0 1*5 0*4',
      expect: { sum: 0, slot0: 1, count: 0, exact: 1 },
      breaks: [],
    },
    {
      title: 'The half-done fold, kept out',
      text: "The race that cost the atomic64 sum a whole batch: fbc->count 1000, CPU0's delta 31, CPU3 sums. CPU0's overflowing add must wait for CPU3's sum to release its lock, so the sum sees no fold and returns 1036; CPU0 then folds 32. The true value ends at 1037.",
      params: REFERENCE_6D,
      at: '3*5 0 3*8 0*5',
      expect: { sum: 1036, count: 1032, slot0: 0, exact: 1037 },
      breaks: [],
    },
    {
      title: 'The price moved',
      text: 'Transfers are atomic to the sum again, and adds no longer share one lock. But while a sum runs every adder on every CPU waits, on its fast path too, and the sum takes one lock per CPU. Sums are rare; Shaohua\'s v3 went further down this road: "When _sum starts, _add will wait _sum to finish."',
    },
  ],
  witnessQuestions: {
    'adder-waits-for-the-sum': {
      question:
        "CPU1's sum holds every CPU's lglock. CPU0's add of 1 would stay far below the batch. Does it have to wait?",
      answer:
        "Yes: every add starts with lg_local_lock, so it spins until the sum releases CPU0's lock.",
    },
    'transfer-waits': {
      question:
        "fbc->count 1000, CPU0's delta 31, batch 32: CPU3 sums while CPU0 adds 1. Can the sum return 1005, as without the lock?",
      answer: "No: CPU0's fold waits for the sum's lock, so the sum returns 1036.",
    },
  },
  challenges: [
    {
      id: 'no-half-done-fold',
      title: 'Try to make sum() miss a whole batch',
      task: "The machine on which the atomic64 sum missed a batch: CPU0's delta is 3 and it folds 4 while CPU1 sums. Can the sum miss the batch or count it twice here? Use at most one migration.",
      mode: 'impossible',
      goal: SUM_OFF_BY_A_BATCH,
      params: FOLD_MEETS_SUM,
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 },
      hints: [
        { text: "The fold now runs under the adding CPU's own lock." },
        {
          text: "The sum holds every CPU's lock from before it reads fbc->count until after the last delta.",
        },
        {
          text: 'The closest try: CPU0 takes its lock first, so the sum waits for the whole fold and returns 4.',
          schedule: '0 1 0 0 0 0 1*7',
        },
      ],
    },
  ],
};
