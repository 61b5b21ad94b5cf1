// percpu-sum-fuzzy: the two retrying sums proposed on linux-mm in April 2011 for the lockless
// (atomic64) percpu_counter, before Eric's in-flight bit:
// - retry-delta: Shaohua Li's sum re-reads fbc->count after the scan and starts over if it moved
//   by more than batch × CPUs;
// - seqcount: Eric Dumazet's sum with `maxfuzzy`: adders bump a shared seqcount whenever they
//   change fbc->count; the sum starts over if it moved by maxfuzzy or more.
// Nothing stops adders from folding while a sum runs, so adders that keep overflowing can keep
// the sum retrying (a livelock, bounded here only because the adders stop), and the seqcount
// sum can still accept a scan that saw a fold half done.

import { PERCPU_2011_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, RETRYING_CLAUSES } from '../percpu/text.ts';
import { choiceParam, intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(['retry-delta', 'seqcount'], 'retry-delta', 'Which retrying sum');
type Variant = VariantOf<typeof VARIANT>;

const SUMS: Record<Variant, string> = {
  'retry-delta': `
/* Shaohua Li, linux-mm, 22 Apr 2011 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 sum, old, new;
	int cpu;

again:
	sum = 0;
	old = atomic64_read(&fbc->count);
	for_each_online_cpu(cpu)
		sum += *per_cpu_ptr(fbc->counters, cpu);
	new = atomic64_read(&fbc->count);
	if (new - old > BATCH * NR_CPUS || old - new > BATCH * NR_CPUS)
		goto again;
	return new + sum;
}`,
  seqcount: `
/* Eric Dumazet, linux-mm, 28 Apr 2011 (with his correction) */
s64 __percpu_counter_sum(struct percpu_counter *fbc, unsigned int maxfuzzy)
{
	s64 ret;
	unsigned int oldseq, newseq;
	int cpu;

restart:
	oldseq = atomic_read(&fbc->seqcount);
	smp_rmb();
	ret = atomic64_read(&fbc->count);
	for_each_online_cpu(cpu)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	smp_rmb();
	newseq = atomic_read(&fbc->seqcount);
	if (newseq - oldseq >= maxfuzzy)
		goto restart;
	return ret;
}`,
};

function functions(v: Variant): string {
  const add = percpu.batchAdd({
    fold: [
      'atomic64_add(count, &fbc->count);\t/* no lock (the atomic64 design) */',
      '__this_cpu_write(*fbc->counters, 0);',
      ...(v === 'seqcount' ? ['atomic_inc(&fbc->seqcount);'] : []),
    ],
  });
  return `
${add}
${SUMS[v]}

${percpu.ATOMIC64_READ}
`;
}

function text(p: Params): string {
  const v = choiceParam(p, 'variant') as Variant;
  return counterText(p, {
    id: 'percpu-sum-fuzzy',
    about: [
      'The retrying sums of linux-mm, April 2011, on the lockless atomic64 percpu_counter.',
      `Variant: ${v}.`,
    ],
    fields: [
      '\tatomic64_t count;',
      ...(v === 'seqcount' ? ['\tatomic_t seqcount;\t\t/* bumped at every fold */'] : []),
      '\ts32 __percpu *counters;',
    ],
    defines: v === 'seqcount' ? [`#define MAXFUZZY ${intParam(p, 'maxfuzzy')}`] : [],
    functions: functions(v),
    sumCall:
      v === 'seqcount' ? '__percpu_counter_sum(&fbc, MAXFUZZY)' : '__percpu_counter_sum(&fbc)',
    counter: v === 'seqcount' ? ['sequence fbc.seqcount, changes;'] : [],
    observe: ['observe retries;'],
    invariants: RETRYING_CLAUSES,
  });
}

export default textScenario({
  id: 'percpu-sum-fuzzy',
  title: 'Retrying sums without an in-flight bit: fuzzy, and a livelock',
  group: PERCPU_2011_GROUP,
  source:
    "linux-mm \"Re: [PATCH] percpu: preemptless __per_cpu_counter_add\", Apr 2011: Shaohua Li's retrying sum <1303439580.3981.241.camel@sli10-conroe> (22 Apr), quoted in Tejun Heo's reply <20110426121011.GD878@htj.dyndns.org> (26 Apr); Eric Dumazet's seqcount sum <1304005726.3360.69.camel@edumazet-laptop>, corrected in <1304006345.3360.72.camel@edumazet-laptop> (28 Apr)",
  summary:
    'A sum that starts over when fbc->count moved can be kept retrying by adders that keep folding, and a seqcount bumped after the fold still lets a half-done transfer through.',
  reconstruction: false,
  params: percpu.parameters(
    [
      VARIANT.param,
      intSpec(
        'maxfuzzy',
        1,
        [1, 1000],
        'seqcount variant: restart when the seqcount moved this much or more',
      ),
    ],
    // Defaults that make every add fold (the adders "keep overflowing"): 3 CPUs, two adders.
    { cpus: 3, summer: 2, amounts: [20], adds: [2] },
  ),
  presets: { kernel: percpu.kernelPreset },
  text,
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): the retrying sums need stores kept in order and loads kept in order, which x86 keeps.',
  notes: () => [
    'The sums are the code quoted in the thread; the adds are the reconstructed lockless atomic64 design of percpu-atomic64. Our choices: the seqcount bump comes right after the fold ("increment it each time one cpu changes global count"), and fbc->count is read with atomic64_read (Eric wrote `ret = fbc->count;` against the 2.6.39 s64), and so is the seqcount, which the adds bump with atomic_inc.',
    "The model has finitely many adds, so the retries end when the adders stop; in the kernel, adders that keep overflowing could keep a sum retrying forever. percpu-seq's in-flight bit bounds the retries.",
  ],
  bounds: { migrations: 1 },
  guarantees: VARIANT.guarantees({
    'retry-delta': ['no-lost-update', 'read-within-bound', 'slot-below-batch'],
    seqcount: ['no-lost-update', 'read-within-bound', 'slot-below-batch'],
  }),
  witnesses: [
    VARIANT.witness('retry-delta', {
      name: 'delta-keeps-retrying',
      description:
        "Adders on CPU0 and CPU1 fold 20 at a time (more than batch × CPUs = 12): each lands during a pass of CPU2's sum, which starts over four times, more than once per CPU.",
      schedule: '2 0*5 2*4 2 1*5 2*4 2 0*5 2*4 2 1*5 2*4 2*5',
      expect: { sum: 80, count: 80, retries: 4, exact: 80 },
      violates: ['retries-bounded'],
    }),
    VARIANT.witness('seqcount', {
      name: 'seqcount-keeps-retrying',
      description:
        'The same adders against the seqcount sum with maxfuzzy 1: every fold restarts it.',
      schedule: '2 0*6 2*5 2 1*6 2*5 2 0*6 2*5 2 1*6 2*5 2*6',
      expect: { sum: 80, count: 80, retries: 4, exact: 80 },
      violates: ['retries-bounded'],
    }),
    VARIANT.witness('retry-delta', {
      name: 'delta-misses-a-half-done-fold',
      description:
        "Tejun Heo's objection: CPU0 (delta 3) adds 1 and folds 4 with atomic64_add; the sum reads old = 4 after it and CPU0's delta (still 3) before the reset, then new = 4: fbc->count did not move, so it accepts 7 while the true value is 3, then 4.",
      params: percpu.ONE_FOLD_OF_4,
      schedule: '0 0 0 2*5 0 0',
      expect: { sum: 7, count: 4, retries: 0, exact: 4 },
      violates: ['sum-within-window'],
    }),
    VARIANT.witness('seqcount', {
      name: 'seqcount-misses-a-half-done-fold',
      description:
        "CPU0 (delta 3) adds 1 and folds 4 into fbc->count; the sum reads fbc->count and CPU0's delta (still 3) before CPU0 bumps the seqcount, so it accepts 7 while the true value is 3, then 4.",
      params: percpu.ONE_FOLD_OF_4,
      schedule: '2 0 0 0 2*5 0*3',
      expect: { sum: 7, count: 4, retries: 0, exact: 4 },
      violates: ['sum-within-window'],
    }),
  ],
  lesson: {
    summary:
      'Re-reading the global (or a sequence counter) after the scan lets a lockless sum notice that a fold ran during it and start over. But nothing stops new folds, so adders that keep overflowing can keep the sum retrying: a livelock. And a counter bumped after the fold leaves a window in which a half-done transfer still goes unnoticed.',
    question:
      'Two CPUs keep adding 20 with batch 4 on 3 CPUs: every add folds (20 ≥ batch), and each fold moves fbc->count by more than batch × CPUs = 12. How many times can a retrying sum start over?',
    answer:
      "Without limit: every fold during a pass makes it start over. Eric's in-flight bit (percpu-seq) stops new folds while a sum runs, which bounds the retries to one per CPU.",
  },
});
