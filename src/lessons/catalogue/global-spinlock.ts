// global-spinlock: the 2.6.16 nr_files, counted under filp_count_lock (reference §1.11, §6a
// fix 1). Exact, but every CPU takes one lock for every file.

import { TWO_OPENS_FROM_100 } from '../../scenarios/nr-files.ts';
import type { ScenarioLesson } from '../types.ts';
import { FILE_TABLE_2_6_16, NR_FILES_THREAD } from './sources.ts';

const NONE = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 };

export const globalSpinlockLesson: ScenarioLesson = {
  scenario: 'global-spinlock',
  sources: [FILE_TABLE_2_6_16, NR_FILES_THREAD],
  slides: [
    {
      title: 'A lock around the increment',
      text: 'Linux 2.6.16 counted files under a global spinlock: spin_lock_irqsave(&filp_count_lock, flags), then nr_files++, then unlock. Only one CPU at a time can be between lock and unlock.',
      params: TWO_OPENS_FROM_100,
      expect: { nr: 100, exact: 100 },
    },
    {
      title: 'The other CPU spins',
      text: 'CPU0 holds the lock and has loaded 100. CPU1 has disabled its interrupts and tries the lock: every step it tries again and fails, doing no useful work.',
      params: TWO_OPENS_FROM_100,
      at: '0 0 0 1 1 1',
      expect: { nr: 100 },
      predict: {
        question: 'CPU0 now stores and releases the lock. What will CPU1 load when it gets in?',
        answer:
          "The value CPU0 stored, 100 + 1: CPU1's load comes after that store, so nothing is lost.",
      },
    },
    {
      title: 'Exact',
      text: "The load and the store of one CPU can no longer be separated by the other CPU's: nr_files ends at 102, and no schedule can end anywhere else.",
      params: TWO_OPENS_FROM_100,
      at: '0 0 0 1 1 1 0 0 0 1 1 1 1 1',
      expect: { nr: 102, exact: 102 },
      breaks: [],
    },
    {
      title: 'The price: everyone waits for one lock',
      text: "Correct, but every file opened on every CPU takes the same lock and pulls the same cache lines. With many CPUs opening files, they queue on filp_count_lock. Dipankar Sarma's patch and Eric Dumazet's answer to it both removed filp_count_lock.",
    },
  ],
  witnessQuestions: {
    contended: {
      question:
        'CPU0 has taken filp_count_lock and read 100. CPU1 reaches spin_lock_irqsave. What does CPU1 do, and what does it read in the end?',
      answer:
        'It spins, retrying the lock at every step, until CPU0 releases it; then it reads 101 and stores 102.',
    },
  },
  challenges: [
    {
      id: 'no-loss-under-lock',
      title: 'Try to lose an update under the lock',
      task: 'Two CPUs increment twice each under filp_count_lock. Can any order of their steps lose an increment? Explore every schedule to be sure.',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: {},
      bounds: NONE,
      hints: [
        { text: 'To lose an increment, both CPUs must load before either stores.' },
        { text: 'A CPU loads only after taking the lock, and stores before releasing it.' },
        {
          text: 'The closest you can get: CPU1 spins while CPU0 is between its load and its store, then reads the stored value.',
          schedule: '0 0 0 1 1 1 0 0 0 1 1 1 1 1 0 0 0 0 0 0 1 1 1 1 1 1',
        },
      ],
    },
  ],
};
