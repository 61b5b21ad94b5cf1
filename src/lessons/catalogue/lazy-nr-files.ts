// lazy-nr-files: Eric Dumazet's per-CPU nr_files with NR_FILES_THRESHOLD (2006; reference
// §1.11). No shared cache line on the fast path; the global is "lazy".

import type { ScenarioLesson } from '../types.ts';
import { DIPANKAR_2006, ERIC_2006 } from './sources.ts';

const ONE_EACH = { cpus: 2, iterations: 1, initial: 0, threshold: 1 };
const TWO_ON_ONE = { cpus: 1, iterations: 2, initial: 0, threshold: 1 };
const PATCH_64 = { cpus: 4, iterations: 16, initial: 0, threshold: 16 };

export const lazyNrFilesLesson: ScenarioLesson = {
  scenario: 'lazy-nr-files',
  sources: [ERIC_2006, DIPANKAR_2006],
  slides: [
    {
      title: 'Count locally, report now and then',
      text: 'Eric Dumazet kept one int per CPU. A CPU adds to its own count with preemption off, and only when that count passes NR_FILES_THRESHOLD does it atomic_add it to the global and reset it to 0. The shared cache line is touched once per report, not once per file.',
      params: ONE_EACH,
      expect: { nr: 0, read: 0, exact: 0 },
    },
    {
      title: 'Invisible files',
      text: 'With a threshold of 1, each of two CPUs opens one file. Neither local count passes the strict > 1 test, so nothing is reported: get_nr_files() says 0 while 2 files are open.',
      params: ONE_EACH,
      at: '0*5 1*5',
      expect: { nr: 2, read: 0, exact: 2 },
      breaks: [],
      predict: {
        question: 'Is an update lost here?',
        answer:
          'No: both files are counted, in the per-CPU counts. The global is only late, which is what the design accepts.',
      },
    },
    {
      title: 'A report',
      text: 'One CPU opens two files. The second makes its local count 2, which passes the threshold: the CPU adds 2 to the global and writes 0 to its own count. Now get_nr_files() says 2.',
      params: TWO_ON_ONE,
      at: '0*12',
      expect: { nr: 2, read: 2, exact: 2 },
    },
    {
      title: "The patch's numbers",
      text: 'With the patch\'s threshold of 16 and 4 CPUs that have each opened 16 files, no CPU has reported: get_nr_files() says 0 with 64 files open. Eric: "Its value can be off with a delta of +/- 16*num_possible_cpus()".',
      params: PATCH_64,
      at: '0*80 1*80 2*80 3*80',
      expect: { nr: 64, read: 0, exact: 64 },
      predict: {
        question: 'What does get_nr_files() return now?',
        answer: '0: 16 does not pass the strict > 16 test, so each CPU still holds its 16.',
      },
    },
    {
      title: 'Lazy, never wrong by more than the bound',
      text: 'The flush test is strict (>), so a CPU can hold at most ±threshold unreported files, and get_nr_files() is within ±threshold × CPUs of the truth. Preemption is off for the whole update, so a task cannot move to another CPU between finding its count and using it. Eric\'s own summary of the cost: "The lazy nr_files value in SMP, but who cares ?"',
    },
  ],
  witnessQuestions: {
    'both-below-threshold': {
      question:
        'Threshold 1. Two CPUs open one file each. What do get_nr_files() and the true count say?',
      answer:
        'get_nr_files() says 0 and the truth is 2: each CPU holds 1, which does not pass > 1.',
    },
    'kernel-64-invisible': {
      question:
        'Threshold 16, four CPUs, each has opened 16 files. What does get_nr_files() return?',
      answer: '0, with 64 files open: the most the lazy count can be off with 4 CPUs.',
    },
    report: {
      question: 'Threshold 1, one CPU opens two files. What is the global after the second?',
      answer:
        '2: the local count reached 2 > 1, so the CPU reported both files and reset its count.',
    },
  },
  challenges: [
    {
      id: 'migrate-mid-add',
      title: 'Try to move a task in the middle of an add',
      task: 'Two CPUs open three files each with threshold 1, and you may migrate a task once. Can you make a file go missing, or make get_nr_files() off by more than threshold × CPUs?',
      mode: 'impossible',
      goal: {
        kind: 'any',
        goals: [
          { kind: 'breaks', invariant: 'no-lost-update' },
          { kind: 'breaks', invariant: 'read-within-bound' },
        ],
      },
      params: { cpus: 2, iterations: 3 },
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 },
      hints: [
        { text: 'A migration is only possible where the task could be preempted.' },
        {
          text: 'add_nr_files() runs from preempt_disable() to preempt_enable(): the task can only move between two adds.',
        },
        {
          text: 'Moved between two adds, the task simply counts on its new CPU: every file is still counted once.',
          schedule: '0*5 mig0>1 1*5 1*5 1*7 1*5 1*7',
        },
      ],
    },
  ],
};
