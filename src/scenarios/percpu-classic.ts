// percpu-classic: `percpu_counter` as in Linux 2.6.39 (lib/percpu_counter.c). Adds stay in a
// per-CPU s32 until it reaches ±batch, then fold into fbc->count under fbc->lock. read() is the
// global alone (off by up to (batch − 1) × CPUs); sum() holds the lock, so overflowing adders on
// every CPU wait for the whole scan. Reference §1.2–1.9, walk-throughs §6b and §6c.

import { abs } from '../machine/builder.ts';
import {
  addEverySlot,
  batchedAdd,
  lockedFold,
  resetDelta,
  counterLayout,
  kernelPreset,
  machineOf,
  noLostUpdate,
  percpuObservables,
  percpuParams,
  readWithinBound,
  rolesOf,
  slotBelowBatch,
  sumWithinWindow,
  tasksOf,
} from './percpu-common.ts';
import { readCell } from './observe.ts';
import type { Scenario } from './types.ts';

const listing = [
  'struct percpu_counter {',
  '\tspinlock_t lock;',
  '\ts64 count;                       /* the global part */',
  '\ts32 __percpu *counters;          /* one delta per CPU */',
  '};',
  '',
  'void __percpu_counter_add(struct percpu_counter *fbc, s64 amount, s32 batch)',
  '{',
  '\ts64 count;',
  '',
  '\tpreempt_disable();',
  '\tcount = __this_cpu_read(*fbc->counters) + amount;',
  '\tif (count >= batch || count <= -batch) {',
  '\t\tspin_lock(&fbc->lock);',
  '\t\tfbc->count += count;',
  '\t\t__this_cpu_write(*fbc->counters, 0);',
  '\t\tspin_unlock(&fbc->lock);',
  '\t} else {',
  '\t\t__this_cpu_write(*fbc->counters, count);',
  '\t}',
  '\tpreempt_enable();',
  '}',
  '',
  's64 __percpu_counter_sum(struct percpu_counter *fbc)',
  '{',
  '\ts64 ret;',
  '\tint cpu;',
  '',
  '\tspin_lock(&fbc->lock);',
  '\tret = fbc->count;',
  '\tfor_each_online_cpu(cpu)',
  '\t\tret += *per_cpu_ptr(fbc->counters, cpu);',
  '\tspin_unlock(&fbc->lock);',
  '\treturn ret;',
  '}',
  '',
  's64 percpu_counter_read(struct percpu_counter *fbc)',
  '{',
  '\treturn fbc->count;               /* no lock */',
  '}',
];

export const percpuClassic: Scenario = {
  id: 'percpu-classic',
  title: 'percpu_counter in 2.6.39: batch, fold under fbc->lock',
  group: 'percpu_counter (2.6.39)',
  source: 'Linux 2.6.39 lib/percpu_counter.c, include/linux/percpu_counter.h',
  summary:
    'Per-CPU deltas fold into fbc->count at ±batch under a spinlock: read() is off by up to (batch − 1) × CPUs; sum() is exact but blocks overflowing adders.',
  reconstruction: false,
  params: percpuParams(),
  presets: { kernel: kernelPreset },
  handlers: [],
  build(p) {
    const r = rolesOf(p);
    const c = counterLayout(p, r, (L) => L.cell('lock', 'fbc->lock', 'lock'));
    const lockCell = c.cells;
    const tasks = tasksOf(c, r, 64, {
      add: (b, amount) => {
        b.line(11).preemptDisable();
        batchedAdd(b, c, r, amount, { read: 12, test: 13, fast: 19 }, (count) => {
          lockedFold(b, c, r, lockCell, count, { lock: 14, fold: 15 });
          resetDelta(b, c, amount, 16);
          b.line(17).spinUnlock(lockCell);
        });
        b.line(21).preemptEnable();
      },
      sum: (b, ret) => {
        b.line(29).spinLock(lockCell);
        b.line(30).load(ret, abs(c.count), { say: '{who} starts the sum: ret = fbc->count = {v}' });
        addEverySlot(b, c, r, ret, 32);
        b.line(33).spinUnlock(lockCell);
      },
      read: (b, ret) => {
        b.line(39).load(ret, abs(c.count), { say: '{who} reads fbc->count without the lock: {v}' });
      },
    });
    return {
      params: p,
      machine: machineOf(c, r, 64, tasks),
      listing: {
        lines: listing,
        notes: [
          'Only preemption is disabled in add(), not interrupts: see irq-local-rmw for what an IRQ user of the same counter does.',
          'spin_lock also disables preemption, so a CPU spinning for fbc->lock cannot be preempted.',
          'The slow path writes 0 to the delta (2.6.39); modern kernels subtract instead (percpu-modern).',
          '2.6.39 percpu_counter_read_positive() returns 1 for a negative count (modern kernels return 0).',
        ],
      },
    };
  },
  observables: (p) =>
    percpuObservables(p, [
      {
        name: 'readPositive',
        description:
          'What percpu_counter_read_positive() would return now (2.6.39: 1 for a negative count)',
        read: (m, s) => {
          const v = readCell(m, s, 'count');
          return v < 0 ? 1 : v;
        },
      },
    ]),
  invariants: [noLostUpdate(), readWithinBound(), sumWithinWindow, slotBelowBatch],
  bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 1 },
  guarantees: {
    '*': ['no-lost-update', 'read-within-bound', 'sum-within-window', 'slot-below-batch'],
  },
  witnesses: [
    {
      name: 'sum-holds-the-lock',
      description:
        'Reference §6b: CPU3 sums under fbc->lock; CPU1 overflows and spins until the sum is done, CPU0 adds on its fast path. The sum returns 1036.',
      params: {
        cpus: 4,
        batch: 32,
        count: 1000,
        slots: [10, 31, -5, 0],
        summer: 3,
        amounts: [3, 1, 0, 0],
        adds: [1],
      },
      schedule: '3 3 3 1 1 1 0 0 0 0 3 3 3 3 1 1 1 1 1 1',
      expect: { sum: 1036, count: 1032, slot0: 13, slot1: 0, slot2: -5, slot3: 0, exact: 1040 },
      violates: [],
    },
    {
      name: 'read-error-124',
      description:
        'Reference §6c: four CPUs each add 1 thirty-one times: every delta is 31, fbc->count is still 0, and read() is off by 124 = (32 − 1) × 4, the maximum.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [31] },
      schedule: '0*124 1*124 2*124 3*124',
      expect: { count: 0, slot0: 31, slot1: 31, slot2: 31, slot3: 31, exact: 124 },
      violates: [],
    },
    {
      name: 'fold-at-32',
      description:
        'Reference §6c step 4: CPU0 adds once more: its delta reaches 32 and folds: fbc->count = 32.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [32, 31] },
      schedule: '0*132 1*124 2*124 3*124',
      expect: { count: 32, slot0: 0, slot1: 31, exact: 125 },
      violates: [],
    },
    {
      name: 'negative-mirror',
      description:
        'Reference §6c mirror: CPUs 1–3 hold +31 each; CPU0 frees all 93: it folds −32 twice and stops at −29. The count is 0 but read() says −64, and 2.6.39 read_positive() says 1.',
      params: {
        cpus: 4,
        batch: 32,
        summer: -1,
        slots: [0, 31, 31, 31],
        amounts: [-1, 0],
        adds: [93],
      },
      schedule: '0*380',
      expect: { count: -64, slot0: -29, exact: 0, readPositive: 1 },
      violates: [],
    },
  ],
  lesson: {
    summary:
      'Each CPU adds into its own delta and only takes the global lock when the delta reaches ±batch, so the shared cache line is touched once per batch instead of once per add. The price: read() sees only fbc->count and can be off by (batch − 1) per CPU, and sum(), which takes the lock to get an exact answer, makes every overflowing adder on every CPU wait.',
    question:
      'Four CPUs, batch 32, fbc->count = 0. Each CPU adds 1 thirty-one times. What does percpu_counter_read() return, and what is the true value?',
    answer:
      'read() returns 0 while the true value is 124: every CPU holds 31 in its delta, one short of the batch.',
  },
};
