// percpu-hotplug-sum: __percpu_counter_sum() against a CPU going offline. The offline clears the
// CPU from cpu_online_mask before its dead callback (percpu_counter_cpu_dead) folds its slot into
// fbc->count, so a sum that walks only the online CPUs, run in between, misses a slot that is not
// zero: the false "BUG: Bad rss-counter state" of 6.2. Linux 6.3 (commit 8b57b11cca88) walks
// online | dying: the sum and the fold both hold fbc->lock, so whichever runs first, the slot is
// counted exactly once.

import { PERCPU_MAINLINE_GROUP } from '../groups.ts';
import { lockedSum } from '../percpu/functions.ts';
import { intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['online-only', 'online-or-dying'],
  'online-only',
  'online-only: the sum walks for_each_online_cpu (before 6.3); online-or-dying: it walks for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) (6.3, commit 8b57b11cca88)',
);
type Variant = VariantOf<typeof VARIANT>;

/** The sum's CPU walk, as each variant writes it. */
const WALK: Record<Variant, string> = {
  'online-only': '/* 6.2: the online CPUs only */\n\tfor_each_online_cpu(cpu)',
  'online-or-dying':
    '/* 6.3: the online CPUs and a dying one */\n\tfor_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)',
};

function programOf(p: Params): string {
  const variant = VARIANT.of(p);
  return `C percpu-hotplug-sum-${variant}

/*
 * An mm's RSS counter (MM_ANONPAGES) at exit, while CPU1 goes offline. The task mapped MAPPED
 * pages while it ran on CPU1 and unmapped them on CPU0: CPU1's slot holds +MAPPED, CPU0's
 * -MAPPED, and the counter's value is 0. check_mm() sums it on CPU2 and reports any value but 0
 * as "BUG: Bad rss-counter state". Take CPU1 offline (off1): its dead callback runs on CPU0.
 */

#define NR_CPUS 3
#define MAPPED ${intParam(p, 'mapped')}			/* pages mapped on CPU1, unmapped on CPU0 */

struct percpu_counter {
	raw_spinlock_t lock;
	s64 count;			/* the global part */
	s32 __percpu *counters;		/* one delta per CPU */
};

struct percpu_counter fbc = { .count = 0 };

{
	per_cpu(fbc.counters, 1) = MAPPED;	/* mapped while the task ran on CPU1 */
	per_cpu(fbc.counters, 0) = -MAPPED;	/* unmapped on CPU0 */
}

/* lib/percpu_counter.c: the precise sum, under the lock the fold takes too */
${lockedSum(WALK[variant])}

/*
 * lib/percpu_counter.c, the CPUHP_PERCPU_CNT_DEAD callback: on a surviving CPU, once \`cpu\`
 * is offline, fold its slot into fbc->count under fbc->lock. (The kernel walks the list of
 * every percpu_counter under percpu_counters_lock; here the list holds fbc alone.)
 */
int percpu_counter_cpu_dead(unsigned int cpu)
{
	s32 *pcount;

	raw_spin_lock(&fbc.lock);
	pcount = per_cpu_ptr(fbc.counters, cpu);
	fbc.count += *pcount;
	*pcount = 0;
	raw_spin_unlock(&fbc.lock);
	return 0;
}

P2()				/* the exiting task's last look at its mm: check_mm() */
{
	s64 rss;

	rss = __percpu_counter_sum(&fbc);
	record(sum, rss);		/* not 0: "BUG: Bad rss-counter state" */
}

DEAD1()				/* CPU1's dead callbacks: off1 starts them on CPU0 */
{
	percpu_counter_cpu_dead(1);
}

counter {
	count fbc.count;
	deltas fbc.counters;
	sum __percpu_counter_sum;
}

observe sum;
observe count = fbc.count;
observe slot1 = per_cpu(fbc.counters, 1);
observe online = cpu_online_mask;
observe exact;

invariant always sum-within-window;
invariant always rss-never-negative: count(sum) == 0 || sum >= 0 "check_mm() never sees a negative RSS: the counter never was negative";
`;
}

const NOTES: Record<Variant, string[]> = {
  'online-only': [
    'Before 6.3: the sum walks cpu_online_mask. The offline clears CPU1 from it before the dead callback folds CPU1\'s slot, so a sum in between skips +MAPPED that is still in the slot and reports -MAPPED (Dave Chinner, "pcpctr: fix percpu_counter_sum vs cpu offline race", <20230315084938.2544737-1-david@fromorbit.com>).',
    'The lock does not help: the sum and the fold both take fbc->lock, but the sum skips CPU1 because of the mask, not because of the race on the slot.',
  ],
  'online-or-dying': [
    'Linux 6.3 (commit 8b57b11cca88, with for_each_cpu_or from 1470afefc3c4): the sum walks cpu_online_mask | cpu_dying_mask. A CPU stays dying until its dead callbacks return, so between the offline and the fold the sum still counts its slot.',
    'Both orders give 0 because both take fbc->lock: the sum first counts the slot where it is; the fold first moves it into fbc->count and zeroes the slot before the sum looks.',
  ],
};

export default textScenario({
  id: 'percpu-hotplug-sum',
  title: 'A sum against a CPU going offline (the false rss-counter BUG)',
  group: PERCPU_MAINLINE_GROUP,
  source:
    'Linux 6.2/6.3 lib/percpu_counter.c (__percpu_counter_sum, percpu_counter_cpu_dead), kernel/cpu.c; Dave Chinner, "[PATCH 0/4] pcpctr: fix percpu_counter_sum vs cpu offline race" <20230315084938.2544737-1-david@fromorbit.com>, commits 1470afefc3c4 and 8b57b11cca88 (6.3-rc3); Shakeel Butt, percpu_counter_sum_all <20221109012011.881058-1-shakeelb@google.com>',
  summary:
    'A sum that walks only the online CPUs, run after a CPU left the online mask but before its slot is folded, reports a value the counter never had. 6.3 walks online | dying.',
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec('mapped', 3, [1, 1_000_000], 'Pages mapped on CPU1 and unmapped on CPU0'),
  ],
  handlers: ["CPU1's dead callbacks (DEAD1): percpu_counter_cpu_dead(1), on CPU0 after off1"],
  text: programOf,
  underTso:
    "Under memory tso the outcomes are those under sc: the offline needs CPU1's store buffer empty, and the sum and the fold meet under fbc->lock, whose acquire drains the buffer.",
  notes: (p) => [
    ...NOTES[VARIANT.of(p)],
    "The offline, in the kernel's order: CPU1 is marked dying, cleared from cpu_online_mask, its dead callbacks run on a surviving CPU (CPU0 here), and it leaves cpu_dying_mask when they return.",
  ],
  bounds: { hotplugs: 1 },
  guarantees: VARIANT.guarantees({
    'online-only': [],
    'online-or-dying': ['sum-within-window', 'rss-never-negative'],
  }),
  witnesses: [
    VARIANT.witness('online-only', {
      name: 'false-rss-bug',
      description:
        'CPU1 goes offline: it is dying and no longer online. Before its dead callback runs, check_mm() on CPU2 sums: fbc->count 0, CPU0 -3, CPU1 skipped (not online), CPU2 0: -3, a value the counter never had ("BUG: Bad rss-counter state ... val:-3"). Then CPU0 folds CPU1\'s +3: fbc->count 3, the value 0 all along.',
      schedule: 'off1 2*10 0*6',
      expect: { sum: -3, count: 3, slot1: 0, exact: 0 },
      violates: ['sum-within-window', 'rss-never-negative'],
    }),
    VARIANT.witness('online-only', {
      name: 'fold-first',
      description:
        'The fold and the sum swapped: CPU1 goes offline and CPU0 runs its dead callback first, moving +3 into fbc->count under fbc->lock and zeroing the slot. The sum then reads 3 + (-3) = 0: a sum that misses CPU1 is harmless once the slot is folded.',
      schedule: 'off1 0*6 2*10',
      expect: { sum: 0, count: 3, slot1: 0, exact: 0 },
    }),
    VARIANT.witness('online-or-dying', {
      name: 'dying-counted',
      description:
        'The same order as the false BUG: the sum runs between the offline and the fold. CPU1 is no longer online but still dying, so the walk over online | dying counts its +3: 0 + (-3) + 3 = 0. Then the fold moves it into fbc->count.',
      schedule: 'off1 2*14 0*6',
      expect: { sum: 0, count: 3, slot1: 0, exact: 0 },
    }),
    VARIANT.witness('online-or-dying', {
      name: 'fold-first-locked',
      description:
        'The fold first: CPU0 moves +3 into fbc->count and zeroes the slot; CPU1 leaves the dying mask. The sum reads 3, skips CPU1 (neither online nor dying) and gets 0. Whichever takes fbc->lock first, the slot is counted once.',
      schedule: 'off1 0*6 2*13',
      expect: { sum: 0, count: 3, slot1: 0, exact: 0 },
    }),
  ],
  lesson: {
    summary:
      'Taking a CPU offline is not one instant: the kernel marks it dying, clears it from cpu_online_mask, runs the dead callbacks on a surviving CPU (percpu_counter_cpu_dead folds the CPU\'s slot into fbc->count under fbc->lock), then clears dying. A sum that walks only the online CPUs, run between the second and third steps, skips a slot that still holds a delta, and reports a value the counter never had: mm\'s RSS sum at exit then says "Bad rss-counter state". Linux 6.3 walks online | dying; since the sum and the fold take the same lock, either the sum counts the slot where it is or the fold has already moved it.',
    question:
      "CPU1's slot holds +3, CPU0's -3, fbc->count 0. CPU1 leaves cpu_online_mask; before its slot is folded, a sum walks for_each_online_cpu. What does it return?",
    answer:
      '-3: fbc->count (0) plus CPU0 (-3) plus CPU2 (0); CPU1 is skipped though its +3 is not folded yet. The counter was 0 all along.',
  },
});
