// lazy-nr-files: Eric Dumazet's per-CPU nr_files with a threshold (LKML, 26 Jan 2006,
// <43D92DD6.6090607@cosmosbay.com>). Each CPU counts locally and only adds to the global when its
// local count passes the threshold: no cache-line ping-pong, but the global is "lazy": off by up
// to ±threshold per CPU ("Its value can be off with a delta of +/- 16*num_possible_cpus()").

import { NR_FILES_GROUP } from '../groups.ts';
import { deref, abs } from '../../machine/builder.ts';
import { Cond, Kind } from '../../machine/isa.ts';
import { LayoutBuilder } from '../../machine/layout.ts';
import { intParam, intSpec } from '../params.ts';
import * as nrFiles from '../nr-files.ts';
import { readCell, readPerCpu } from '../observe.ts';
import { distance, plus, unwrap32 } from '../../machine/int64.ts';
import { defineScenario } from '../define.ts';
import type { Params } from '../types.ts';

function listing(threshold: number): string[] {
  return [
    `#define NR_FILES_THRESHOLD ${threshold}      /* 16 in the patch */`,
    'static DEFINE_PER_CPU(int, nr_files);   /* files this CPU has not yet reported */',
    'struct { atomic_t nr_files; } files_stat;   /* the global, read by get_nr_files() */',
    '',
    'static void add_nr_files(int delta)     /* each CPU: `iterations` times, delta +1 */',
    '{',
    '\tint *local;',
    '\tpreempt_disable();',
    '\tlocal = &__get_cpu_var(nr_files);',
    '\t*local += delta;',
    '\tif (*local > NR_FILES_THRESHOLD || *local < -NR_FILES_THRESHOLD) {',
    '\t\tatomic_add(*local, &files_stat.nr_files);',
    '\t\t*local = 0;',
    '\t}',
    '\tpreempt_enable();',
    '}',
    '',
    'int get_nr_files(void)',
    '{',
    '\treturn atomic_read(&files_stat.nr_files);   /* lazy: misses the local counts */',
    '}',
  ];
}

const thresholdOf = (p: Params) => intParam(p, 'threshold');

export const lazyNrFiles = defineScenario({
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
  build(p, opts) {
    const threshold = thresholdOf(p);
    const L = new LayoutBuilder(intParam(p, 'cpus'), opts);
    const global = L.cell('global', 'files_stat.nr_files', 's32', intParam(p, 'initial'));
    const local = L.perCpu('local', 'nr_files', 's32');
    const tasks = nrFiles.perCpuTasks(p, (b) => {
      const ptr = b.reg('local');
      const v = b.reg('v');
      b.line(8).preemptDisable();
      b.line(9).addrGen(ptr, local, {
        say: "{who} computes &__get_cpu_var(nr_files): the address of {cpu}'s local count",
      });
      b.line(10).load(v, deref(ptr)).add(v, v, 1).store(deref(ptr), v, { tally: 1 });
      b.line(11).ifThen(Cond.AbsGe, v, threshold + 1, () => {
        b.line(12).atomicAdd(abs(global), v, {
          kind: Kind.Fold,
          say: "{who}'s local count passed the threshold: adds {v} to {cell}, now {new}",
        });
        b.line(13).mov(v, 0).store(deref(ptr), v);
      });
      b.line(15).preemptEnable();
    });
    return {
      params: p,
      machine: nrFiles.machineOf(p, L.build(), tasks),
      listing: {
        lines: listing(threshold),
        notes: [
          'The test is strict (>), so a CPU can hold up to ±threshold unreported: get_nr_files() is within ±threshold × CPUs of the truth.',
          'Preemption is off for the whole update, so the task cannot move between computing `local` and using it.',
          'nr below is where the count really is (the global plus every local count); read is what get_nr_files() returns.',
        ],
      },
    };
  },
  observables: () => [
    {
      name: 'nr',
      description:
        "The full count held in memory: files_stat.nr_files + every CPU's local nr_files",
      read: (m, s) => readPerCpu(m, s, 'local').reduce(plus, readCell(m, s, 'global')),
    },
    {
      name: 'read',
      description: 'What get_nr_files() returns: the lazy global alone',
      read: (m, s) => readCell(m, s, 'global'),
    },
    nrFiles.exactObservable,
  ],
  invariants: [
    nrFiles.everyFileCounted,
    {
      id: 'read-within-bound',
      when: 'final',
      description: 'get_nr_files() is within ±threshold × CPUs of the exact count',
      final: (o, p) => {
        const bound = thresholdOf(p) * intParam(p, 'cpus');
        // The global count is an int: read modulo 2^32 (see unwrap32).
        const d = distance(o.exact as number, unwrap32(o.read as number, o.exact as number));
        return d <= bound
          ? null
          : `read is ${String(o.read)}, ${String(d)} away from ${String(o.exact)} (bound ${bound})`;
      },
    },
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
