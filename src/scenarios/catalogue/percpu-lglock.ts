// percpu-lglock: Shaohua Li's v2 (11 May 2011), reconstructed from the cover letter and the
// 2.6.39 lglock API: each CPU's add takes only its own lock; a sum takes every CPU's lock, so a
// transfer can never be half done under it. Exact again, but while a sum runs every adder on
// every CPU waits, even on its fast path.

import { PERCPU_2011_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, CORRECT_CLAUSES } from '../percpu/text.ts';
import { textScenario } from '../textScenario.ts';

const FUNCTIONS = `
${percpu.batchAdd({
  guard: [
    "lg_local_lock(fbc->lglock);\t\t/* preemption off + this CPU's lock */",
    'lg_local_unlock(fbc->lglock);',
  ],
  fold: ['atomic64_add(count, &fbc->count);', '__this_cpu_write(*fbc->counters, 0);'],
})}

s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	int cpu;

	lg_global_lock(fbc->lglock);		/* every CPU's lock, in CPU order */
	ret = atomic64_read(&fbc->count);
	for_each_online_cpu(cpu)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	lg_global_unlock(fbc->lglock);
	return ret;
}

${percpu.ATOMIC64_READ}
`;

export default textScenario({
  id: 'percpu-lglock',
  title: 'Per-CPU locks (lglock): exact sums, but a sum stops every adder',
  group: PERCPU_2011_GROUP,
  source:
    'Shaohua Li, "[patch v2 0/5] percpu_counter: bug fix and enhancement", LKML, 11 May 2011 (lkml.org/lkml/2011/5/11/15); lglock from Linux 2.6.39 include/linux/lglock.h',
  summary:
    "Each add takes only its own CPU's lock and a sum takes them all: transfers are atomic to the sum again, but every adder waits while a sum runs.",
  reconstruction: true,
  params: percpu.parameters(),
  presets: { kernel: percpu.kernelPreset },
  text: (p) =>
    counterText(p, {
      id: 'percpu-lglock',
      about: [
        "Shaohua Li's v2 of May 2011 with per-CPU locks (a reconstruction from its cover letter",
        'and the 2.6.39 lglock API).',
      ],
      fields: [
        '\tatomic64_t count;',
        '\tspinlock_t __percpu *lglock;\t/* struct lglock: one lock per CPU */',
        '\ts32 __percpu *counters;',
      ],
      functions: FUNCTIONS,
      invariants: CORRECT_CLAUSES,
    }),
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): every access that matters is made under a per-CPU spinlock, whose LOCKed acquire drains the buffer.',
  notes: () => [
    "Reconstruction: the patch's code is not at hand; this follows its cover letter and the 2.6.39 lglock API (lg_local_lock = preempt_disable + this CPU's arch_spin_lock; lg_global_lock takes every CPU's lock in order).",
    "The model folds lg_local_lock's one preempt_disable() into the lock step (each lock step counts in preempt_count): the same effect on what can be preempted.",
    "The transfer runs under the adding CPU's own lock and the sum holds all of them, so no sum can see it half done.",
  ],
  bounds: { migrations: 1 },
  guarantees: {
    '*': percpu.CORRECT,
  },
  witnesses: [
    {
      name: 'adder-waits-for-the-sum',
      description:
        "CPU1's sum holds every CPU's lock; CPU0's add, even a fast-path one, spins on its own lock until the sum releases it.",
      params: { cpus: 2, summer: 1, adds: [1], amounts: [1] },
      schedule: '1 1 0 1*5 0*4',
      expect: { sum: 0, slot0: 1, count: 0, exact: 1 },
    },
    {
      name: 'transfer-waits',
      description:
        "percpu-atomic64's missed-batch race under lglock: CPU0's overflowing add must wait for CPU3's sum, so the sum is 1036, never 1005.",
      params: percpu.FOUR_CPUS_AT_1000,
      schedule: '3*5 0 3*8 0*5',
      expect: { sum: 1036, count: 1032, slot0: 0, exact: 1037 },
    },
  ],
  lesson: {
    summary:
      "Giving each CPU its own lock keeps adds uncontended: an add takes only the lock of the CPU it runs on. A sum takes every CPU's lock, so no transfer can be half done while it reads: the sum is exact with respect to transfers again. The cost moved: during a sum every adder waits, on its fast path too, and the sum takes N locks.",
    question:
      'A sum holds all the lglocks. CPU0 wants to add 1 and its delta is far from the batch. Does it have to wait?',
    answer:
      "Yes: every add starts with lg_local_lock, so even a fast-path add spins until the sum releases CPU0's lock.",
  },
});
