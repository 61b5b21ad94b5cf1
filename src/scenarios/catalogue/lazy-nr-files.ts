// lazy-nr-files: Eric Dumazet's per-CPU nr_files with a threshold (LKML, 26 Jan 2006,
// <43D92DD6.6090607@cosmosbay.com>). Each CPU counts locally and only adds to the global when its
// local count passes the threshold: no cache-line ping-pong, but the global is "lazy": off by up
// to ±threshold per CPU ("Its value can be off with a delta of +/- 16*num_possible_cpus()").

import { NR_FILES_GROUP } from '../groups.ts';
import { intParam, intSpec } from '../params.ts';
import * as nrFiles from '../nrFiles.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const CODE = `
static DEFINE_PER_CPU(int, nr_files);		/* files this CPU has not yet reported */
struct files_stat_struct { atomic_t nr_files; };
struct files_stat_struct files_stat = { .nr_files = ATOMIC_INIT(INITIAL) };	/* the global */

static void add_nr_files(int delta)
{
	int *local;
	int v;

	preempt_disable();
	local = &__get_cpu_var(nr_files);
	v = *local + delta;		/* the patch: *local += delta, then tests *local */
	*local = v;
	if (v > NR_FILES_THRESHOLD || v < -NR_FILES_THRESHOLD) {
		atomic_add(v, &files_stat.nr_files);
		*local = 0;
	}
	preempt_enable();
}

int get_nr_files(void)
{
	return atomic_read(&files_stat.nr_files);	/* lazy: misses the local counts */
}
`;

/** The count held in memory: the global and every CPU's local count. */
function held(p: Params): string {
  const locals = Array.from({ length: intParam(p, 'cpus') }, (_, k) => `per_cpu(nr_files, ${k})`);
  return ['files_stat.nr_files', ...locals].join(' + ');
}

const thresholdOf = (p: Params) => intParam(p, 'threshold');

export default textScenario({
  id: 'lazy-nr-files',
  title: 'Lazy per-CPU nr_files (Eric Dumazet, 2006)',
  group: NR_FILES_GROUP,
  source:
    'Eric Dumazet, "Re: [patch 2/2] fix file counting", LKML, 26 Jan 2006, <43D92DD6.6090607@cosmosbay.com>',
  summary:
    'Each CPU counts locally and reports to the global only past a threshold: no ping-pong, but get_nr_files() is off by up to ±threshold per CPU.',
  reconstruction: false,
  params: [
    nrFiles.cpusParam,
    nrFiles.iterationsParam,
    nrFiles.initialParam,
    intSpec(
      'threshold',
      1,
      [0, 1_000_000],
      'NR_FILES_THRESHOLD: a CPU reports when its local count passes it (16 in the patch)',
    ),
  ],
  presets: {
    kernel: {
      description: 'NR_FILES_THRESHOLD 16, as in the patch',
      apply: () => ({ threshold: 16 }),
    },
  },
  text: (p) =>
    nrFiles.nrFilesText(p, {
      id: 'lazy-nr-files',
      about: [
        "Eric Dumazet's per-CPU nr_files (LKML, 26 Jan 2006): each CPU counts locally and",
        'reports to files_stat.nr_files only when its count passes the threshold.',
      ],
      defines: [`#define NR_FILES_THRESHOLD ${thresholdOf(p)}\t/* 16 in the patch */`],
      code: CODE,
      open: 'add_nr_files(1)',
      counter: [
        'count files_stat.nr_files;',
        'deltas nr_files;',
        'threshold NR_FILES_THRESHOLD;\t/* a count past it is reported */',
        'error NR_FILES_THRESHOLD * NR_CPUS;\t/* how far get_nr_files() may be off */',
        'add add_nr_files(delta);',
        'read get_nr_files();',
      ],
      observe: [`observe nr = ${held(p)};`, 'observe read = get_nr_files();'],
      invariants: ['invariant final read-within-bound;'],
    }),
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): a buffered store is seen late, never out of order, and the fold into nr_files is made under the lock.',
  notes: () => [
    'The test is strict (>), so a CPU can hold up to ±threshold unreported: get_nr_files() is within ±threshold × CPUs of the truth.',
    'Preemption is off for the whole update, so the task cannot move between computing `local` and using it.',
    'nr below is where the count really is (the global plus every local count); read is what get_nr_files() returns.',
  ],
  guarantees: { '*': ['no-lost-update', 'read-within-bound'] },
  witnesses: [
    {
      name: 'both-below-threshold',
      description:
        'Each CPU opens one file and stays at the threshold: get_nr_files() still says 0 while 2 files are open, the most it can be off with 2 CPUs and threshold 1.',
      params: { cpus: 2, iterations: 1, initial: 0, threshold: 1 },
      schedule: '0*5 1*5',
      expect: { nr: 2, read: 0, exact: 2 },
    },
    {
      name: 'kernel-64-invisible',
      description:
        "The lesson's question with the patch's threshold 16: four CPUs open 16 files each and none passes the strict > 16 test, so get_nr_files() says 0 with 64 files open: the ±16 × CPUs bound, reached.",
      params: { cpus: 4, iterations: 16, initial: 0, threshold: 16 },
      schedule: '0*80 1*80 2*80 3*80',
      expect: { nr: 64, read: 0, exact: 64 },
    },
    {
      name: 'report',
      description: 'CPU0 opens two files: its local count passes the threshold and is reported.',
      params: { cpus: 1, iterations: 2, initial: 0, threshold: 1 },
      schedule: '0*12',
      expect: { nr: 2, read: 2, exact: 2 },
    },
  ],
  lesson: {
    summary:
      'Per-CPU counting removes the shared cache line from the fast path: a CPU only touches the global when its local count passes the threshold. The global is then lazy: each CPU may hold up to ±threshold files it has not reported, so get_nr_files() can be off by threshold × CPUs. Nothing is lost: the missing files are in the per-CPU counts.',
    question:
      'Threshold 16 and 4 CPUs. Each CPU has opened 16 files since its last report. What does get_nr_files() return, if it started at 0?',
    answer:
      '0: each CPU holds 16, which does not pass the strict > 16 test, so 64 open files are invisible to the lazy read.',
  },
});
