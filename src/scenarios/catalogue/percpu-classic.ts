// percpu-classic: `percpu_counter` as in Linux 2.6.39 (lib/percpu_counter.c). Adds stay in a
// per-CPU s32 until it reaches ±batch, then fold into fbc->count under fbc->lock. read() is the
// global alone (off by up to (batch − 1) × CPUs); sum() holds the lock, so overflowing adders on
// every CPU wait for the whole scan. The program is text (its one home): percpu/text.ts writes
// what every percpu_counter entry shares, this file the 2.6.39 functions.

import { PERCPU_2_6_39_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, CORRECT_CLAUSES } from '../percpu/text.ts';
import { intParam, listParam, ParamError, intSpec } from '../params.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const FUNCTIONS = `
${percpu.batchAdd({
  fold: [
    'spin_lock(&fbc->lock);',
    'fbc->count += count;',
    '__this_cpu_write(*fbc->counters, 0);',
    'spin_unlock(&fbc->lock);',
  ],
})}

s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	int cpu;

	spin_lock(&fbc->lock);
	ret = fbc->count;
	for_each_online_cpu(cpu)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	spin_unlock(&fbc->lock);
	return ret;
}

s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return fbc->count;			/* no lock */
}

int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	s64 count;

	count = percpu_counter_read(fbc);
	/* is the rough count far enough from rhs to decide? */
	if (abs(count - rhs) > BATCH * NR_CPUS) {
		if (count > rhs)
			return 1;
		else
			return -1;
	}
	/* no: use the precise count */
	count = __percpu_counter_sum(fbc);
	if (count > rhs)
		return 1;
	else if (count < rhs)
		return -1;
	else
		return 0;
}
`;

/** The comparer's thread: its adds, then one percpu_counter_compare(fbc, RHS). */
function comparer(k: number, adds: number, amount: number): string {
  const each =
    adds === 0
      ? []
      : adds === 1
        ? [`\t__percpu_counter_add(&fbc, ${amount}, BATCH);`]
        : [`\tfor (i = 0; i < ${adds}; i++)`, `\t\t__percpu_counter_add(&fbc, ${amount}, BATCH);`];
  return [
    `P${k}()\t\t\t\t/* adds, then compares */`,
    '{',
    '\tint i;',
    '\tint res;',
    '',
    ...each,
    '\trecord_added(cmpwindow);\t\t/* the exact total when compare() starts */',
    '\tres = percpu_counter_compare(&fbc, RHS);',
    '\trecord_added(cmpwindow);\t\t/* and when it returns */',
    '\trecord(compare, res);',
    '}',
  ].join('\n');
}

/**
 * compare-correct: compare() answers as the true value did at some point while it ran, judged
 * when all adds have one sign (else the total may leave the window between its two ends).
 */
function compareClause(p: Params, present: boolean): string {
  const r = percpu.rolesOf(p);
  const mixed = r.amounts.some((a) => a > 0) && r.amounts.some((a) => a < 0);
  const initial = listParam(p, 'slots').reduce((a, v) => a + v, intParam(p, 'count'));
  const text =
    'percpu_counter_compare() answers as the true value did at some point while it ran (judged when all adds have one sign)';
  if (!present || mixed) return `invariant always compare-correct: 1 ${JSON.stringify(text)};`;
  const lo = `min(cmpwindow[0], cmpwindow[1]) + ${initial}`;
  const hi = `max(cmpwindow[0], cmpwindow[1]) + ${initial}`;
  return [
    'invariant always compare-correct:',
    '\tcount(compare) == 0 ||',
    `\t(compare > 0 ? ${hi} > RHS :`,
    `\t compare < 0 ? ${lo} < RHS :`,
    `\t ${lo} <= RHS && RHS <= ${hi})`,
    `\t${JSON.stringify(text)};`,
  ].join('\n');
}

function text(p: Params): string {
  const r = percpu.rolesOf(p);
  const cmp = intParam(p, 'comparer');
  if (cmp >= r.cpus)
    throw new ParamError(`comparer must be a CPU below ${r.cpus} (or −1), got ${cmp}`);
  if (cmp >= 0 && (r.summers.includes(cmp) || cmp === r.reader))
    throw new ParamError('the comparer must be an adding CPU, not the summer or the reader');
  return counterText(
    p,
    {
      id: 'percpu-classic',
      about: [
        'percpu_counter in Linux 2.6.39 (lib/percpu_counter.c, include/linux/percpu_counter.h),',
        "in teaching form: the functions are the kernel's, the threads below drive them.",
      ],
      fields: [
        '\tspinlock_t lock;',
        '\ts64 count;\t\t\t/* the global part */',
        '\ts32 __percpu *counters;\t\t/* one delta per CPU */',
      ],
      defines:
        cmp >= 0
          ? [`#define RHS ${intParam(p, 'rhs')}\t\t\t/* what the comparer compares with */`]
          : [],
      functions: FUNCTIONS,
      observe: [
        ...(cmp >= 0 ? ['observe compare;'] : []),
        'observe readPositive = fbc.count < 0 ? 1 : fbc.count;\t/* 2.6.39: 1 for a negative count */',
      ],
      invariants: [...CORRECT_CLAUSES, compareClause(p, cmp >= 0)],
    },
    (k) => (k === cmp ? comparer(k, r.adds[k] ?? 0, r.amounts[k] ?? 0) : null),
  );
}

const params = percpu.parameters([
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
]);

export default textScenario({
  id: 'percpu-classic',
  title: 'percpu_counter in 2.6.39: batch, fold under fbc->lock',
  group: PERCPU_2_6_39_GROUP,
  source: 'Linux 2.6.39 lib/percpu_counter.c, include/linux/percpu_counter.h',
  summary:
    'Per-CPU deltas fold into fbc->count at ±batch under a spinlock: read() is off by up to (batch − 1) × CPUs; sum() never sees a fold half done, but it blocks overflowing adders.',
  reconstruction: false,
  params,
  presets: { kernel: percpu.kernelPreset },
  text,
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): folds are made under fbc->lock (a LOCK operation), and x86 keeps each CPU's stores, and its loads, in program order.",
  notes: () => [
    'Only preemption is disabled in add(), not interrupts: see irq-local-rmw for what an IRQ user of the same counter does.',
    'spin_lock also disables preemption, so a CPU spinning for fbc->lock cannot be preempted.',
    'The slow path writes 0 to the delta (2.6.39); modern kernels subtract instead (percpu-modern).',
    '2.6.39 percpu_counter_read_positive() returns 1 for a negative count (modern kernels return 0).',
  ],
  bounds: { migrations: 1 },
  guarantees: {
    '*': [...percpu.CORRECT, 'compare-correct'],
  },
  witnesses: [
    {
      name: 'sum-holds-the-lock',
      description:
        'CPU3 sums under fbc->lock; CPU1 overflows and spins until the sum is done, CPU0 adds on its fast path. The sum returns 1036.',
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
        'Four CPUs each add 1 thirty-one times: every delta is 31, fbc->count is still 0, and read() is off by 124 = (32 − 1) × 4, the maximum.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [31] },
      schedule: '0*124 1*124 2*124 3*124',
      expect: { count: 0, slot0: 31, slot1: 31, slot2: 31, slot3: 31, exact: 124 },
    },
    {
      name: 'fold-at-32',
      description: 'CPU0 adds once more: its delta reaches 32 and folds: fbc->count = 32.',
      params: { cpus: 4, batch: 32, summer: -1, adds: [32, 31] },
      schedule: '0*132 1*124 2*124 3*124',
      expect: { count: 32, slot0: 0, slot1: 31, exact: 125 },
    },
    {
      name: 'compare-takes-the-sum',
      description:
        'With every delta at 31, read() says 0 but the truth is 124. compare(fbc, 100): |0 − 100| = 100 is within batch × CPUs = 128, so compare() takes the precise sum and answers 1 (read() alone would have said below).',
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
        'CPUs 1–3 hold +31 each; CPU0 frees all 93: it folds −32 twice and stops at −29. The count is 0 but read() says −64, and 2.6.39 read_positive() says 1.',
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
