// global-atomic: Dipankar Sarma's `atomic_t nr_files` (2006). One LOCK-prefixed instruction per
// increment: always exact, but every CPU writes the same cache line.

import { NR_FILES_GROUP } from '../groups.ts';
import { abs } from '../../machine/builder.ts';
import { LayoutBuilder } from '../../machine/layout.ts';
import { intParam } from '../params.ts';
import * as nrFiles from '../nr-files.ts';
import { defineScenario } from '../define.ts';

const listing = [
  'atomic_t nr_files;             /* Dipankar Sarma, "[patch 2/2] fix file counting" */',
  '',
  'void file_opened(void)         /* each CPU runs this `iterations` times */',
  '{',
  '\tatomic_inc(&nr_files);       /* lock incl nr_files: one indivisible step */',
  '}',
];

export const globalAtomic = defineScenario({
  id: 'global-atomic',
  title: 'Atomic global counter: atomic_inc(&nr_files)',
  group: NR_FILES_GROUP,
  source: nrFiles.NR_FILES_SOURCE,
  summary:
    'A LOCK-prefixed increment is one indivisible step: always exact, but every CPU bounces one cache line.',
  reconstruction: false,
  params: nrFiles.params,
  build(p, opts) {
    const L = new LayoutBuilder(intParam(p, 'cpus'), opts);
    const nr = L.cell('nr', 'nr_files', 's32', intParam(p, 'initial'));
    const tasks = nrFiles.perCpuTasks(p, (b) => {
      b.line(5).atomicAdd(abs(nr), 1, { tally: 1 });
    });
    return {
      params: p,
      machine: nrFiles.machineOf(p, L.build(), tasks),
      listing: {
        lines: listing,
        notes: [
          'The LOCK prefix makes the load and the store one step: no other CPU can come between them.',
          'Correct, but each increment must own the cache line holding nr_files, so it ping-pongs between CPUs (Bench mode measures the cost).',
        ],
      },
    };
  },
  observables: () => [nrFiles.nrObservable, nrFiles.exactObservable],
  invariants: [nrFiles.everyFileCounted],
  guarantees: { '*': ['no-lost-update'] },
  witnesses: [
    {
      name: 'interleaved',
      description: 'The §6a interleaving, with atomic_inc: both increments count.',
      params: { cpus: 2, iterations: 1, initial: 100 },
      schedule: '0 1',
      expect: { nr: 102, exact: 102 },
    },
  ],
  lesson: {
    summary:
      'atomic_inc is a single LOCK-prefixed instruction: the CPU holds the cache line for the whole read-modify-write, so no update is lost. The price is that every CPU must fetch that one line for every increment.',
    question: 'With atomic_inc, can any interleaving of two CPUs lose an increment?',
    answer: 'No: each increment is one indivisible step, so every schedule ends with nr = exact.',
  },
});
