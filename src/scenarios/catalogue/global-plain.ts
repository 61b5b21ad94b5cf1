// global-plain: `nr_files++` on a shared int, with no protection. The increment compiles to a
// load and a store, and two CPUs can both load the old value: one increment is lost.
// Reference §6a. The strawman every fix in the 2006 thread improves on.

import { abs } from '../../machine/builder.ts';
import * as nrFiles from '../nr-files.ts';

const listing = [
  'int nr_files;                  /* one counter, shared by every CPU */',
  '',
  'void file_opened(void)         /* each CPU runs this `iterations` times */',
  '{',
  '\t/* nr_files++ compiles to a load, an add and a store: */',
  '\tint r = nr_files;            /* mov nr_files, %eax   (load)  */',
  '\tr = r + 1;                   /* inc %eax             (local) */',
  '\tnr_files = r;                /* mov %eax, nr_files   (store) */',
  '}',
];

export const globalPlain = nrFiles.globalCounter({
  id: 'global-plain',
  title: 'Plain global counter: nr_files++',
  summary:
    'nr_files++ is a load and a store: two CPUs can both read the old value and lose an update.',
  listing,
  notes: [
    'A non-LOCK `incl nr_files` behaves the same on SMP: the CPU still loads and stores.',
    'The add happens in a register, so it is not a step of its own.',
  ],
  before: () => null,
  increment: (b, nr) => {
    const r = b.reg('r');
    b.line(6).load(r, abs(nr));
    b.line(7).add(r, r, 1);
    b.line(8).store(abs(nr), r, { tally: 1 });
  },
  witnesses: [
    {
      name: 'lost-update',
      description:
        'Reference §6a: both CPUs load 100 before either stores, so both store 101 (expected 102).',
      params: nrFiles.TWO_OPENS_FROM_100,
      schedule: '0 1 0 1',
      expect: { nr: 101, exact: 102 },
      violates: ['no-lost-update'],
    },
    {
      name: 'one-after-the-other',
      description: 'CPU0 finishes its increment before CPU1 starts: nothing is lost.',
      params: nrFiles.TWO_OPENS_FROM_100,
      schedule: '0 0 1 1',
      expect: { nr: 102, exact: 102 },
    },
  ],
  lesson: {
    summary:
      'A C increment of a shared variable is three instructions: load, add, store. Between the load and the store another CPU can load the same old value; the second store then overwrites the first, and one increment vanishes.',
    question:
      'nr_files is 100. CPU0 and CPU1 each run nr_files++ once, and both load before either stores. What is nr_files afterwards?',
    answer: '101, not 102: both CPUs computed 100 + 1 and stored it, so one increment is lost.',
  },
});
