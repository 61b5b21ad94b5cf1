// percpu-classic: `percpu_counter` as in Linux 2.6.39 (lib/percpu_counter.c). Adds stay in a
// per-CPU s32 until it reaches ±batch, then fold into fbc->count under fbc->lock. read() is the
// global alone (off by up to (batch − 1) × CPUs); sum() holds the lock, so overflowing adders on
// every CPU wait for the whole scan. Reference §1.2–1.9, walk-throughs §6b and §6c.

import { PERCPU_2_6_39_GROUP } from '../groups.ts';
import { abs, ProgramBuilder, type Reg } from '../../machine/builder.ts';
import * as percpu from '../percpu/index.ts';
import { readCell, readResults } from '../observe.ts';
import { plus } from '../../machine/int64.ts';
import { intParam, listParam, ParamError, intSpec } from '../params.ts';
import { defineScenario } from '../define.ts';
import type { Machine } from '../../machine/machine.ts';
import { Cond } from '../../machine/isa.ts';

const listing = percpu.counterListing({
  fields: [
    '\tspinlock_t lock;',
    '\ts64 count;                       /* the global part */',
    '\ts32 __percpu *counters;          /* one delta per CPU */',
  ],
  add: [
    '\tpreempt_disable();',
    ...percpu.batchTest([
      '\t\tspin_lock(&fbc->lock);',
      '\t\tfbc->count += count;',
      '\t\t__this_cpu_write(*fbc->counters, 0);',
      '\t\tspin_unlock(&fbc->lock);',
    ]),
    '\tpreempt_enable();',
  ],
  sum: [
    ...percpu.sumLocals,
    '',
    '\tspin_lock(&fbc->lock);',
    '\tret = fbc->count;',
    ...percpu.addEveryDelta,
    '\tspin_unlock(&fbc->lock);',
  ],
  read: 'return fbc->count;               /* no lock */',
  more: [
    'int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)',
    '{',
    '\ts64 count;',
    '',
    '\tcount = percpu_counter_read(fbc);',
    '\t/* is the rough count far enough from rhs to decide? */',
    '\tif (abs(count - rhs) > (percpu_counter_batch * num_online_cpus())) {',
    '\t\tif (count > rhs)',
    '\t\t\treturn 1;',
    '\t\telse',
    '\t\t\treturn -1;',
    '\t}',
    '\t/* no: use the precise count */',
    '\tcount = percpu_counter_sum(fbc);',
    '\tif (count > rhs)',
    '\t\treturn 1;',
    '\telse if (count < rhs)',
    '\t\treturn -1;',
    '\telse',
    '\t\treturn 0;',
    '}',
  ],
});

export const percpuClassic = defineScenario({
  id: 'percpu-classic',
  title: 'percpu_counter in 2.6.39: batch, fold under fbc->lock',
  group: PERCPU_2_6_39_GROUP,
  source: 'Linux 2.6.39 lib/percpu_counter.c, include/linux/percpu_counter.h',
  summary:
    'Per-CPU deltas fold into fbc->count at ±batch under a spinlock: read() is off by up to (batch − 1) × CPUs; sum() never sees a fold half done, but it blocks overflowing adders.',
  reconstruction: false,
  params: percpu.parameters([
    intSpec(
      'comparer',
      -1,
      [-1, 63],
      'An adding CPU that calls percpu_counter_compare(fbc, rhs) after its adds (−1: none)',
    ),
    intSpec(
      'rhs',
      0,
      [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      'The value percpu_counter_compare() compares the counter with',
    ),
  ]),
  presets: { kernel: percpu.kernelPreset },
  build(p, opts) {
    const r = percpu.rolesOf(p);
    const comparer = intParam(p, 'comparer');
    if (comparer >= r.cpus) {
      throw new ParamError(`comparer must be a CPU below ${r.cpus} (or −1), got ${comparer}`);
    }
    if (comparer >= 0 && (r.summers.includes(comparer) || comparer === r.reader)) {
      throw new ParamError('the comparer must be an adding CPU, not the summer or the reader');
    }
    const c = percpu.counterLayout(
      p,
      r,
      (L) => ({
        lock: L.cell('lock', 'fbc->lock', 'lock'),
        cmpOut: L.result('compare', 'percpu_counter_compare()', 1),
        cmpWindow: L.result('cmpwindow', 'exact total around compare()', 2),
      }),
      opts,
    );
    const { lock: lockCell, cmpOut, cmpWindow } = c.cells;
    const add = (b: ProgramBuilder, amount: number) => {
      b.line(11).preemptDisable();
      percpu.batchedAdd(b, c, r, amount, { read: 12, test: 13, fast: 19 }, (count) => {
        percpu.lockedFold(b, c, r, lockCell, count, { lock: 14, fold: 15 });
        percpu.resetDelta(b, c, amount, 16);
        b.line(17).spinUnlock(lockCell);
      });
      b.line(21).preemptEnable();
    };
    const sum = (b: ProgramBuilder, ret: Reg, line?: number) => {
      b.line(line ?? 29).spinLock(lockCell);
      b.line(line ?? 30).load(ret, abs(c.count), {
        say: '{who} starts the sum: ret = fbc->count = {v}',
      });
      percpu.addEverySlot(b, c, r, ret, line ?? 32);
      b.line(line ?? 33).spinUnlock(lockCell);
    };
    const tasks = percpu.tasksOf(c, r, 64, {
      add,
      sum: (b, ret) => {
        sum(b, ret);
      },
      read: (b, ret) => {
        b.line(39).load(ret, abs(c.count), { say: '{who} reads fbc->count without the lock: {v}' });
      },
    });
    if (comparer >= 0) {
      // The comparer makes its adds, then one percpu_counter_compare(fbc, rhs).
      const rhs = intParam(p, 'rhs');
      const limit = r.batch * r.cpus;
      const b = new ProgramBuilder(`T${comparer}`);
      b.repeat(r.adds[comparer] ?? 0, () => {
        add(b, r.amounts[comparer] ?? 0);
      });
      const count = b.reg('count');
      const d = b.reg('d');
      const res = b.reg('res');
      const sign = () => {
        b.sub(d, count, rhs).mov(res, 0);
        b.ifThen(Cond.Gt, d, 0, () => b.mov(res, 1));
        b.ifThen(Cond.Lt, d, 0, () => b.mov(res, -1));
      };
      b.recordTotal(cmpWindow);
      b.line(45).load(count, abs(c.count), {
        say: `{who} reads fbc->count: {v}, |{v} − ${rhs}| vs batch × CPUs = ${limit}`,
      });
      b.sub(d, count, rhs);
      b.ifThen(
        Cond.AbsGe,
        d,
        limit + 1,
        () => {
          b.line(47);
          sign();
        },
        () => {
          sum(b, count, 54);
          sign();
        },
      );
      b.recordTotal(cmpWindow).record(cmpOut, res, {
        say: `percpu_counter_compare(fbc, ${rhs}) returns {v}`,
      });
      tasks[comparer] = { name: `T${comparer}`, cpu: comparer, program: b.build() };
    }
    return percpu.instanceOf(p, c, r, tasks, {
      lines: listing,
      notes: [
        'Only preemption is disabled in add(), not interrupts: see irq-local-rmw for what an IRQ user of the same counter does.',
        'spin_lock also disables preemption, so a CPU spinning for fbc->lock cannot be preempted.',
        'The slow path writes 0 to the delta (2.6.39); modern kernels subtract instead (percpu-modern).',
        '2.6.39 percpu_counter_read_positive() returns 1 for a negative count (modern kernels return 0).',
      ],
    });
  },
  observables: (p) =>
    percpu.observables(p, [
      ...(intParam(p, 'comparer') >= 0
        ? [
            {
              name: 'compare',
              description: 'What percpu_counter_compare(fbc, rhs) returned',
              read: (m: Machine, s: Int32Array) => readResults(m, s, 'compare')[0] ?? null,
            },
          ]
        : []),
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
  invariants: [
    percpu.counterHoldsEveryAdd(),
    percpu.readWithinBound(),
    percpu.sumWithinWindow,
    percpu.slotBelowBatch,
    {
      id: 'compare-correct',
      when: 'always',
      reads: 'results',
      description:
        'percpu_counter_compare() answers as the true value did at some point while it ran (judged when all adds have one sign)',
      always: (m, s, p) => {
        const got = readResults(m, s, 'compare');
        if (got.length === 0) return null;
        const r = percpu.rolesOf(p);
        if (r.amounts.some((a) => a > 0) && r.amounts.some((a) => a < 0)) return null;
        const initial = listParam(p, 'slots').reduce<number | bigint>(
          (a, v) => plus(a, v),
          intParam(p, 'count'),
        );
        const w = readResults(m, s, 'cmpwindow');
        const a = Number(plus(initial, w[0] ?? 0));
        const b = Number(plus(initial, w[1] ?? 0));
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        const rhs = intParam(p, 'rhs');
        const res = Number(got[0]);
        const ok = res > 0 ? hi > rhs : res < 0 ? lo < rhs : lo <= rhs && rhs <= hi;
        return ok
          ? null
          : `compare() returned ${res} but the true value was ${lo === hi ? lo : `${lo}..${hi}`} against rhs ${rhs}`;
      },
    },
  ],
  bounds: { migrations: 1 },
  guarantees: {
    '*': [...percpu.CORRECT, 'compare-correct'],
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
    },
    {
      name: 'read-error-124',
      description:
        'Reference §6c: four CPUs each add 1 thirty-one times: every delta is 31, fbc->count is still 0, and read() is off by 124 = (32 − 1) × 4, the maximum.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [31] },
      schedule: '0*124 1*124 2*124 3*124',
      expect: { count: 0, slot0: 31, slot1: 31, slot2: 31, slot3: 31, exact: 124 },
    },
    {
      name: 'fold-at-32',
      description:
        'Reference §6c step 4: CPU0 adds once more: its delta reaches 32 and folds: fbc->count = 32.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [32, 31] },
      schedule: '0*132 1*124 2*124 3*124',
      expect: { count: 32, slot0: 0, slot1: 31, exact: 125 },
    },
    {
      name: 'compare-takes-the-sum',
      description:
        'Reference §1.5 and §6c: with every delta at 31, read() says 0 but the truth is 124. compare(fbc, 100): |0 − 100| = 100 is within batch × CPUs = 128, so compare() takes the precise sum and answers 1 (read() alone would have said below).',
      params: { cpus: 4, batch: 32, summer: -1, adds: [31], comparer: 0, rhs: 100 },
      schedule: '1*124 2*124 3*124 0*132',
      expect: { count: 0, exact: 124, compare: 1 },
    },
    {
      name: 'compare-trusts-the-read',
      description:
        'The same state, compare(fbc, 200): |0 − 200| = 200 > 128 = batch × CPUs, more than read() can be off (124), so the rough answer −1 is safe without a sum.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [31], comparer: 0, rhs: 200 },
      schedule: '1*124 2*124 3*124 0*125',
      expect: { count: 0, exact: 124, compare: -1 },
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
});
