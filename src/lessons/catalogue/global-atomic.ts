// global-atomic: Dipankar Sarma's atomic_t nr_files (2006; reference §1.11, §6a fix 2). One
// LOCK-prefixed instruction per increment: exact, but one cache line for every CPU.

import { TWO_OPENS_FROM_100 } from '../../scenarios/nr-files.ts';
import type { ScenarioLesson } from '../types.ts';
import { DIPANKAR_2006, NR_FILES_THREAD } from './sources.ts';

export const globalAtomicLesson: ScenarioLesson = {
  scenario: 'global-atomic',
  sources: [DIPANKAR_2006, NR_FILES_THREAD],
  slides: [
    {
      title: 'One instruction instead of a lock',
      text: 'Dipankar Sarma replaced filp_count_lock with an atomic_t nr_files. atomic_inc is one LOCK-prefixed instruction: the CPU holds the cache line from the load to the store, so the increment is one indivisible step.',
      params: TWO_OPENS_FROM_100,
      expect: { nr: 100, exact: 100 },
    },
    {
      title: 'Interleave as you like',
      text: 'CPU0 and CPU1 increment one after the other or at the same moment: each increment is one step, so there is no gap for the other CPU to load an old value. nr_files ends at 102.',
      params: TWO_OPENS_FROM_100,
      at: '0 1',
      expect: { nr: 102, exact: 102 },
      breaks: [],
      predict: {
        question: 'Is there any order of the two steps that ends below 102?',
        answer: 'No: with one step per increment there is nothing between a load and a store.',
      },
    },
    {
      title: 'The price: one cache line',
      text: 'Exact, with no lock to spin on. But every increment on every CPU needs the one cache line that holds nr_files, so the line moves from CPU to CPU: the "ping-pong" that Eric Dumazet\'s per-CPU counts avoid. In the thread, Andrew Morton asked whether putting an atomic operation into the file-free path would worsen large-SMP scalability.',
    },
    {
      title: 'Measured',
      text: 'Dipankar\'s kernbench run on a 32-way P4 Xeon found no measurable difference between the variants: the lock, the atomic_t and Eric\'s per-CPU counts. Of the last two he wrote that the difference is "statistically insignficant", adding that "there could be other workloads where we may get hit badly by the global atomic_t". Scaling mode measures such a workload: nothing but increments.',
    },
  ],
  witnessQuestions: {
    interleaved: {
      question:
        'The same interleaving that lost an update with nr_files++, now with atomic_inc. What is nr_files at the end?',
      answer: '102: each atomic_inc is one step, so both increments count.',
    },
  },
  challenges: [
    {
      id: 'no-loss-atomic',
      title: 'Try to lose an atomic increment',
      task: 'Three CPUs each run atomic_inc twice. Can any schedule lose an increment? Explore them all.',
      mode: 'impossible',
      goal: { kind: 'breaks', invariant: 'no-lost-update' },
      params: { cpus: 3, iterations: 2 },
      bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 },
      hints: [
        {
          text: "Losing an increment needs a load and a store of one CPU with another CPU's store between them.",
        },
        {
          text: 'atomic_inc has no "between": the LOCK prefix makes the load and the store one step.',
        },
        {
          text: 'Every schedule of six single-step increments ends at 6.',
          schedule: '0 1 2 0 1 2',
        },
      ],
    },
  ],
};
