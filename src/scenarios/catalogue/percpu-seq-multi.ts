// percpu-seq-multi: Eric Dumazet's V2 of "percpu_counter: scalability works" (13 May 2011), as
// announced in his V1 mail: a count of sums in flight instead of a bit (so several sums can run),
// no spinlock, and a separate `add_did_change_fbc_count` instead of bumping the sequence. The code
// is not at hand: this is a reconstruction, in two variants.
// - as-described: a fold is atomic64_add, delta reset, then changed++. Without the lock nothing
//   makes the three one unit, so a sum can read fbc->count after the add and the delta before the
//   reset, and check `changed` before the bump: Tejun's window, unnoticed.
// - guarded: the fold also counts itself in `changing` while it runs; the sum waits for
//   `changing` to be 0 and rejects a pass during which it was not: no idealised multi-word step
//   is needed, and no sum accepts a half-done fold.

import { PERCPU_2011_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, RETRYING_CLAUSES } from '../percpu/text.ts';
import { intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['guarded', 'as-described'],
  'guarded',
  'as-described: changed++ after the fold; guarded: the fold also counts itself in `changing`',
);
type Variant = VariantOf<typeof VARIANT>;

/**
 * One summer, and CPU0 at delta 3 adds 1: its fold of 4 can land in the middle of the sum. The
 * preset Explore proposes and both witnesses start from it.
 */
const HALF_DONE_FOLD: Params = { summer2: -1, ...percpu.ONE_FOLD_OF_4 };

function functions(v: Variant): string {
  const g = v === 'guarded';
  const lines = (xs: readonly string[]) => xs.filter((x) => x !== '').join('\n');
  const add = percpu.batchAdd({
    inFlight: { test: 'atomic_read(&fbc->sums)', comment: '\t\t/* a sum is in flight */' },
    fold: [
      ...(g ? ['atomic_inc(&fbc->changing);\t\t/* guarded: a fold is under way */'] : []),
      'atomic64_add(count, &fbc->count);',
      '__this_cpu_write(*fbc->counters, 0);',
      'atomic_inc(&fbc->changed);',
      ...(g ? ['atomic_dec(&fbc->changing);\t\t/* guarded: it is done */'] : []),
    ],
  });
  return `
${add}

s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	int changed, cpu;

	atomic_inc(&fbc->sums);			/* no spinlock */
again:
${lines([
  g ? '\twhile (atomic_read(&fbc->changing))\t/* guarded: wait for a fold to end */' : '',
  g ? '\t\tcpu_relax();' : '',
  '\tchanged = atomic_read(&fbc->changed);',
  '\tret = atomic64_read(&fbc->count) + atomic64_read(&fbc->slowcount);',
  '\tfor_each_online_cpu(cpu)',
  '\t\tret += *per_cpu_ptr(fbc->counters, cpu);',
  g
    ? '\tif (atomic_read(&fbc->changing) ||\t/* guarded: a fold began meanwhile */\n\t    atomic_read(&fbc->changed) != changed)'
    : '\tif (atomic_read(&fbc->changed) != changed)',
  '\t\tgoto again;',
])}
	atomic_dec(&fbc->sums);
	return ret;
}

s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return atomic64_read(&fbc->count) + atomic64_read(&fbc->slowcount);
}
`;
}

function text(p: Params): string {
  const v = VARIANT.of(p);
  return counterText(p, {
    id: 'percpu-seq-multi',
    about: [
      'Eric Dumazet\'s V2 of "percpu_counter: scalability works" (13 May 2011), reconstructed from',
      `its announcement: a count of sums in flight and no spinlock. Variant: ${v}.`,
    ],
    fields: [
      '\tatomic_t sums;\t\t\t/* sums in flight (V1 had a bit) */',
      '\tatomic_t changed;\t\t/* add_did_change_fbc_count */',
      '\tatomic_t changing;\t\t/* folds under way (guarded variant) */',
      '\tatomic64_t count;',
      '\tatomic64_t slowcount;',
      '\ts32 __percpu *counters;',
    ],
    functions: functions(v),
    counter: [
      'parts fbc.slowcount;',
      'sequence fbc.sums, sums;',
      'sequence fbc.changed, changes;',
      'sequence fbc.changing, folds;',
    ],
    observe: ['observe slowcount = fbc.slowcount;', 'observe retries;'],
    invariants: RETRYING_CLAUSES,
  });
}

export default textScenario({
  id: 'percpu-seq-multi',
  title: "Several sums in flight, no spinlock (Eric's V2)",
  group: PERCPU_2011_GROUP,
  source:
    'Eric Dumazet, "Re: [patch] percpu_counter: scalability works", LKML, 13 May 2011, <1305301151.3866.39.camel@edumazet-laptop> (V2 announced there, posted 16:35 the same day)',
  summary:
    'A count of sums in flight lets several sums run and drops the spinlock; without the lock, the fold must announce itself or a sum can accept a half-done transfer.',
  reconstruction: true,
  params: percpu.parameters(
    [
      VARIANT.param,
      intSpec(
        'summer2',
        2,
        [-1, 63],
        'A second CPU that calls percpu_counter_sum() at the same time (−1: none)',
      ),
    ],
    { cpus: 3 },
  ),
  presets: {
    kernel: percpu.kernelPreset,
    'half-done-fold': {
      description:
        'One summer; CPU0 at delta 3 adds 1, so its fold can land in the middle of a sum (the half-done-fold-accepted witness)',
      apply: () => HALF_DONE_FOLD,
    },
  },
  explorePresets: { 'as-described': 'half-done-fold' },
  text,
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): the sequence protocol needs stores kept in order and loads kept in order, which x86 keeps (on Arm it would need smp_wmb() and smp_rmb()).',
  notes: () => [
    'Reconstruction: V2 is known only from its announcement in the V1 mail (several sums, an atomic count instead of the bit, no spinlock, a separate changed count). The lines marked "guarded" are ours.',
    "as-described bumps `changed` after the fold: a sum can see fbc->count after the atomic64_add and the delta before its reset, then `changed` before the bump, and accept the batch twice (Tejun's objection to lockless transfers).",
    'guarded adds `changing`: the sum waits until no fold is under way and rejects a scan during which one started, so every accepted scan saw each fold either wholly or not at all.',
    'While any sum is in flight, new adds go to slowcount, so only folds already under way can make a sum start over: at most once per CPU.',
    "V2 is said to remove one atomic operation from _add(); which one is not known. Here `changed` is an atomic_inc, which keeps the sum's check exact.",
  ],
  // No migration by default: adders run with preemption off, and two summers already make a
  // large space (400 k states with one migration, 82 k without).
  guarantees: VARIANT.guarantees({
    guarded: [...percpu.CORRECT, 'retries-bounded'],
    'as-described': ['no-lost-update', 'read-within-bound', 'slot-below-batch', 'retries-bounded'],
  }),
  witnesses: [
    VARIANT.witness('as-described', {
      name: 'half-done-fold-accepted',
      description:
        "as-described: CPU0 (delta 3) passes the sums check and folds 4; CPU1's sum reads fbc->count after the atomic64_add, CPU0's delta before its reset, and `changed` before the bump: it returns 7 while the true value is 3, then 4.",
      params: HALF_DONE_FOLD,
      schedule: '0 0 1 1 0 0 1*7 0*3',
      expect: { sum: 7, count: 4, exact: 4, retries: 0 },
      violates: ['sum-within-window'],
    }),
    VARIANT.witness('guarded', {
      name: 'guarded-rescans',
      description:
        'guarded, same moment: CPU0 has announced its fold in `changing`, so the sum rejects the pass, waits for the fold to end and returns 4.',
      params: HALF_DONE_FOLD,
      schedule: '0 0 1 1 1 0 0 0 1*6 0*4 1*10',
      expect: { sum: 4, count: 4, exact: 4, retries: 1 },
    }),
  ],
  lesson: {
    summary:
      'Counting sums in flight lets several sums run at once, and dropping the spinlock removes the last shared lock. But the lock was what made a fold (add to the global, reset the delta, bump the change count) one unit for the sum: without it, a change count bumped after the fold leaves a window in which a sum sees the fold half done and does not notice. A fold that announces itself before it starts, and a sum that waits it out, close the window.',
    question:
      "No spinlock: CPU0 folds with atomic64_add, then resets its delta, then increments `changed`. Can a sum that checks `changed` before and after its scan still count CPU0's batch twice?",
    answer:
      'Yes, if its whole second check happens before the increment: it read fbc->count after the atomic64_add and the delta before the reset, and `changed` never moved while it looked.',
  },
});
