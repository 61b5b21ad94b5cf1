// percpu-atomic64: Shaohua Li's "last post" of April 2011 (reconstruction): fbc->count becomes an
// atomic64_t and the overflow path drops fbc->lock. Adds scale, but a lockless sum can now read
// fbc->count and the deltas on either side of a transfer, so it can miss or double-count a whole
// batch (Tejun Heo's "@batch deviations").

import { PERCPU_2011_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, CORRECT_CLAUSES } from '../percpu/text.ts';
import { textScenario } from '../textScenario.ts';

const FUNCTIONS = `
${percpu.batchAdd({ fold: ['atomic64_add(count, &fbc->count);', '__this_cpu_write(*fbc->counters, 0);'] })}

s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret = atomic64_read(&fbc->count);	/* no lock: a transfer can be half done */
	int cpu;

	for_each_online_cpu(cpu)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	return ret;
}

${percpu.ATOMIC64_READ}
`;

export default textScenario({
  id: 'percpu-atomic64',
  title: 'atomic64 count, no lock: a sum can miss a whole batch',
  group: PERCPU_2011_GROUP,
  source:
    'Shaohua Li, atomic64 percpu_counter (linux-mm, ~12 Apr 2011, marc.info m=130259547913607; the "Last post" of "[patch v2 0/5] percpu_counter: bug fix and enhancement", LKML 11 May 2011); Tejun Heo <20110426121011.GD878@htj.dyndns.org>',
  summary:
    'Folding with atomic64_add and no lock scales, but a lockless sum can catch a transfer half done: off by a whole batch, not by the concurrent adds.',
  reconstruction: true,
  params: percpu.parameters(),
  presets: {
    kernel: percpu.kernelPreset,
    'five-adds': {
      description:
        'Each adder adds 5 times, past the batch of 4: folds happen while the sum runs, so Explore can show a sum outside its window',
      apply: () => ({ adds: [5] }),
    },
  },
  explorePresets: { '*': 'five-adds' },
  text: (p) =>
    counterText(p, {
      id: 'percpu-atomic64',
      about: [
        "The lockless percpu_counter of Shaohua Li's April 2011 series (a reconstruction: the",
        'design as the thread describes it; its code is not at hand).',
      ],
      fields: ['\tatomic64_t count;\t\t/* no spinlock any more */', '\ts32 __percpu *counters;'],
      functions: FUNCTIONS,
      invariants: CORRECT_CLAUSES,
    }),
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): the fold is a LOCKed atomic64_add(); the lockless sum's misses come from the interleaving, not from the buffers.",
  notes: () => [
    "Reconstruction: the patch is described in the thread (cover letter SL-v2, Tejun's replies); its code is not at hand. This is the design as described.",
    'atomic64_read and atomic64_add are one step each (on x86-32 they use cmpxchg8b, so they do not tear either).',
    'The transfer is two steps (atomic64_add, then the delta reset), so a sum that reads fbc->count and the deltas in between sees the batch twice or not at all.',
  ],
  bounds: { migrations: 1 },
  guarantees: { '*': ['no-lost-update', 'read-within-bound', 'slot-below-batch'] },
  witnesses: [
    {
      name: 'sum-misses-a-batch',
      description:
        'CPU3 reads fbc->count (1000), then CPU0 folds 32 into it and clears its delta, then CPU3 reads the deltas: the sum is 1005 while the counter went from 1036 to 1037.',
      params: percpu.FOUR_CPUS_AT_1000,
      schedule: '3 0*5 3*4',
      expect: { sum: 1005, count: 1032, slot0: 0, exact: 1037 },
      violates: ['sum-within-window'],
    },
    {
      name: 'sum-counts-a-batch-twice',
      description:
        "Other order: CPU0's atomic64_add lands first; CPU3 reads fbc->count = 1032 and then CPU0's delta, still 31: the sum is 1068, 31 too many.",
      params: percpu.FOUR_CPUS_AT_1000,
      schedule: '0 0 0 3 3 0 0 3 3 3',
      expect: { sum: 1068, count: 1032, slot0: 0, exact: 1037 },
      violates: ['sum-within-window'],
    },
  ],
  lesson: {
    summary:
      'Dropping fbc->lock from the overflow path removes the lock contention: the transfer is an atomic64_add plus a delta reset. But the two halves of the transfer are no longer atomic with respect to sum(), which reads fbc->count first and the deltas later: a sum between the halves misses the batch or counts it twice. Tejun Heo: "@batch deviations won\'t happen often but will happen once in a while".',
    question:
      "fbc->count = 1000, CPU0's delta is 31, batch 32, the true value is 1036. CPU3 starts a lockless sum and reads fbc->count; then CPU0 adds 1 and folds. What can CPU3's sum return?",
    answer:
      "1005: it read fbc->count before the fold and CPU0's delta after it, so CPU0's 32 is missing: an error of a whole batch from a single +1.",
  },
});
