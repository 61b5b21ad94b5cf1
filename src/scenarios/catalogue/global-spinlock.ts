// global-spinlock: the 2.6.16 nr_files, counted under `filp_count_lock` with interrupts off.
// Exact, but every CPU takes one lock for every file it opens: the CPUs that lose the race spin.

import { NR_FILES_GROUP } from '../groups.ts';
import * as nrFiles from '../nrFiles.ts';
import { textScenario } from '../textScenario.ts';

const CODE = `
static DEFINE_SPINLOCK(filp_count_lock);	/* 2.6.16: fs/file_table.c */
int nr_files = INITIAL;

void file_opened(void)
{
	unsigned long flags;

	spin_lock_irqsave(&filp_count_lock, flags);
	nr_files++;			/* load; store: safe under the lock */
	spin_unlock_irqrestore(&filp_count_lock, flags);
}
`;

export default textScenario({
  id: 'global-spinlock',
  title: 'Global counter under a spinlock: filp_count_lock',
  group: NR_FILES_GROUP,
  source: `Linux 2.6.16 fs/file_table.c (filp_count_lock), as replaced in ${nrFiles.NR_FILES_SOURCE}`,
  summary: 'The lock makes load and store a critical section: exact, but CPUs wait for each other.',
  reconstruction: false,
  params: nrFiles.params,
  text: (p) =>
    nrFiles.nrFilesText(p, {
      id: 'global-spinlock',
      about: ['nr_files in Linux 2.6.16, counted under filp_count_lock with interrupts off.'],
      code: CODE,
      counter: ['count nr_files;', 'add file_opened;'],
      observe: ['observe nr = nr_files;'],
    }),
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): spin_lock() is a LOCKed cmpxchg that drains the buffer; the unlock's store waiting in it only delays the next holder.",
  notes: () => [
    'In 2.6.16 this counting ran in the filp slab constructor and destructor (filp_ctor, filp_dtor) on files_stat.nr_files; file_opened() stands for them.',
    'spin_lock_irqsave is two steps here: interrupts off, then the lock (which also disables preemption).',
    'A CPU that finds the lock taken spins: its step changes nothing until the holder releases it.',
  ],
  guarantees: { '*': ['no-lost-update'] },
  witnesses: [
    {
      name: 'contended',
      description:
        'CPU0 takes the lock and reads 100; CPU1 spins until CPU0 releases it, then reads 101: nothing is lost.',
      params: nrFiles.TWO_OPENS_FROM_100,
      schedule: '0 0 0 1 1 1 0 0 0 1 1 1 1 1',
      expect: { nr: 102, exact: 102 },
    },
  ],
  lesson: {
    summary:
      'A spinlock turns the load and the store into a critical section: only one CPU at a time can be between spin_lock and spin_unlock, so no increment is lost. The others spin, burning their CPU, which is the contention the per-CPU counters were invented to remove.',
    question:
      'CPU0 holds filp_count_lock and has read nr_files. What does CPU1 do when it reaches spin_lock_irqsave?',
    answer:
      'It spins: every step it tries the lock and fails, until CPU0 releases it. Then it reads the updated value.',
  },
});
