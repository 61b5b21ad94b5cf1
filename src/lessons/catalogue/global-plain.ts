// global-plain: the strawman of the 2006 nr_files thread (reference §6a). nr_files++ on a shared
// int is a load and a store, and two CPUs can both load the old value.

import { TWO_OPENS_FROM_100 } from '../../scenarios/nr-files.ts';
import type { ScenarioLesson } from '../types.ts';
import { NR_FILES_THREAD } from './sources.ts';

export const globalPlainLesson: ScenarioLesson = {
  scenario: 'global-plain',
  sources: [NR_FILES_THREAD],
  slides: [
    {
      title: 'One counter for every CPU',
      text: 'The kernel counts open files in nr_files. Here two CPUs each open one file, so each runs nr_files++ once, starting from 100.',
      params: TWO_OPENS_FROM_100,
      expect: { nr: 100, exact: 100 },
    },
    {
      title: 'nr_files++ is two steps',
      text: 'The increment compiles to a load into a register, an add in the register, and a store. CPU0 has loaded 100 and not yet stored; memory still says 100.',
      params: TWO_OPENS_FROM_100,
      at: '0',
      expect: { nr: 100 },
      predict: {
        question: 'CPU1 now loads nr_files. What value does it get?',
        answer: '100: CPU0 has added 1 in its register but has not stored the result yet.',
      },
    },
    {
      title: 'Two stores of 101',
      text: 'Both CPUs loaded 100, both computed 101, both stored 101. Two files were opened but nr_files went up by one: an increment is lost.',
      params: TWO_OPENS_FROM_100,
      at: '0 1 0 1',
      expect: { nr: 101, exact: 102 },
      breaks: ['no-lost-update'],
    },
    {
      title: 'Only the order of steps differs',
      text: 'The same code, with CPU0 storing before CPU1 loads: CPU1 reads 101 and stores 102. Whether an update is lost depends only on how the steps interleave, which is why such bugs are hard to reproduce.',
      params: TWO_OPENS_FROM_100,
      at: '0 0 1 1',
      expect: { nr: 102, exact: 102 },
      breaks: [],
    },
    {
      title: 'Three ways out',
      text: "Three fixes meet in the 2006 thread, in increasing scalability: the lock the 2.6.16 kernel already took around the increment (filp_count_lock), one atomic instruction (Dipankar Sarma's atomic_t nr_files), and per-CPU counts that touch the shared counter only now and then (Eric Dumazet's). The next lessons take them in that order.",
    },
  ],
  witnessQuestions: {
    'lost-update': {
      question:
        'nr_files is 100. Both CPUs load it before either stores. What is nr_files at the end?',
      answer: '101, not 102: both stored 100 + 1, so one increment is lost.',
    },
    'one-after-the-other': {
      question: 'This time CPU0 stores before CPU1 loads. What is nr_files at the end?',
      answer: '102: CPU1 loads the 101 that CPU0 stored.',
    },
  },
  challenges: [
    {
      id: 'lose-one',
      title: 'Lose an increment',
      task: 'Two CPUs each increment nr_files twice. Schedule their steps so that nr_files ends below the number of increments.',
      mode: 'reach',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        {
          text: 'Each increment is a load followed by a store. Something must happen between them.',
        },
        { text: 'Let one CPU load, then let the other CPU load before the first one stores.' },
        { text: 'Start with 0 1 0 1, then let both CPUs finish.', schedule: '0 1 0 1 0 0 1 1' },
      ],
    },
    {
      id: 'lose-two',
      title: 'Lose half of the increments',
      task: 'Same machine: four increments in all. Make nr_files end at 2, so two increments are lost.',
      mode: 'reach',
      goal: { kind: 'difference', of: 'exact', minus: 'nr', atLeast: 2 },
      params: {},
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        {
          text: 'A store can overwrite more than one increment of the other CPU, if its load came early enough.',
        },
        {
          text: 'Let CPU0 load a value, then let CPU1 run both of its increments, then let CPU0 store.',
        },
        {
          text: 'CPU0 makes its first increment and loads 1; CPU1 takes the counter from 1 to 3; CPU0 stores 2.',
          schedule: '0 0 0 1 1 1 1 0',
        },
      ],
    },
  ],
};
