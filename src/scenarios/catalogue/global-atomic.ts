// global-atomic: Dipankar Sarma's `atomic_t nr_files` (2006). One LOCK-prefixed instruction per
// increment: always exact, but every CPU writes the same cache line.

import { NR_FILES_GROUP } from '../groups.ts';
import * as nrFiles from '../nrFiles.ts';
import { textScenario } from '../textScenario.ts';

const CODE = `
atomic_t nr_files = ATOMIC_INIT(INITIAL);	/* Dipankar Sarma, "[patch 2/2] fix file counting" */

void file_opened(void)
{
	atomic_inc(&nr_files);		/* lock incl nr_files: one indivisible step */
}
`;

export default textScenario({
  id: 'global-atomic',
  title: 'Atomic global counter: atomic_inc(&nr_files)',
  group: NR_FILES_GROUP,
  source: nrFiles.NR_FILES_SOURCE,
  summary:
    'A LOCK-prefixed increment is one indivisible step: always exact, but every CPU bounces one cache line.',
  reconstruction: false,
  params: nrFiles.params,
  text: (p) =>
    nrFiles.nrFilesText(p, {
      id: 'global-atomic',
      about: ["Dipankar Sarma's fix: nr_files becomes an atomic_t."],
      code: CODE,
      counter: ['count nr_files;', 'add file_opened;'],
      observe: ['observe nr = nr_files;'],
    }),
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): atomic_inc() is LOCK-prefixed: it drains the buffer and works on memory.',
  notes: () => [
    'The LOCK prefix makes the load and the store one step: no other CPU can come between them.',
    'Correct, but each increment must own the cache line holding nr_files, so it ping-pongs between CPUs (Bench mode measures the cost).',
  ],
  guarantees: { '*': ['no-lost-update'] },
  witnesses: [
    {
      name: 'interleaved',
      description:
        'The lost-update interleaving of global-plain, with atomic_inc: both increments count.',
      params: nrFiles.TWO_OPENS_FROM_100,
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
