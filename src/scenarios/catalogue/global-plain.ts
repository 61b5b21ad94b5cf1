// global-plain: `nr_files++` on a shared int, with no protection. The increment compiles to a
// load and a store, and two CPUs can both load the old value: one increment is lost.
// The strawman every fix in the 2006 thread improves on.

import { NR_FILES_GROUP } from '../groups.ts';
import * as nrFiles from '../nrFiles.ts';
import { textScenario } from '../textScenario.ts';

const CODE = `
int nr_files = INITIAL;			/* one counter, shared by every CPU */

void file_opened(void)
{
	int r;

	/* nr_files++ compiles to a load, an add and a store: */
	r = nr_files;			/* mov nr_files, %eax   (load)  */
	r = r + 1;			/* inc %eax             (local) */
	nr_files = r;			/* mov %eax, nr_files   (store) */
}
`;

export default textScenario({
  id: 'global-plain',
  title: 'Plain global counter: nr_files++',
  group: NR_FILES_GROUP,
  source: nrFiles.NR_FILES_SOURCE,
  summary:
    'nr_files++ is a load and a store: two CPUs can both read the old value and lose an update.',
  reconstruction: false,
  params: nrFiles.params,
  text: (p) =>
    nrFiles.nrFilesText(p, {
      id: 'global-plain',
      about: ['The strawman of the 2006 nr_files thread: one int, incremented by every CPU.'],
      code: CODE,
      counter: ['count nr_files;', 'add file_opened;'],
      observe: ['observe nr = nr_files;'],
    }),
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): a store waiting in its buffer shows the other CPU an older value, which some sequentially consistent schedule shows too.',
  notes: () => [
    'A non-LOCK `incl nr_files` behaves the same on SMP: the CPU still loads and stores.',
    'The add happens in a register, so it is not a step of its own.',
  ],
  witnesses: [
    {
      name: 'lost-update',
      description: 'Both CPUs load 100 before either stores, so both store 101 (expected 102).',
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
