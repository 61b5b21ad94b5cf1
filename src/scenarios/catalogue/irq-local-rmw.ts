// irq-local-rmw: a per-CPU read-modify-write interrupted by an IRQ on the same CPU. Preemption
// off does not keep interrupts out: an IRQ handler that updates the same
// slot between the task's load and store has its update overwritten. Two fixes: interrupts off
// around the update (the IRQ is held pending and taken at local_irq_restore), or one local
// cmpxchg in a retry loop (atomic with respect to this CPU's interrupts).

import { THIS_CPU_GROUP } from '../groups.ts';
import { intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['none', 'irqsave', 'cmpxchg-local'],
  'none',
  'none: load; store with only preemption off; irqsave: local_irq_save around them; cmpxchg-local: a this_cpu_cmpxchg retry loop',
);
type Variant = VariantOf<typeof VARIANT>;

/** counter_add's body, as each variant writes it. */
const ADD: Record<Variant, string> = {
  none: `
	long v;

	/* the 2.6.39 fast path: preemption off, interrupts on */
	preempt_disable();
	v = __this_cpu_read(c) + amount;	/* load */
	__this_cpu_write(c, v);			/* store: an IRQ may have come between */
	preempt_enable();`,
  irqsave: `
	unsigned long flags;
	long v;

	local_irq_save(flags);			/* an IRQ now waits, pending */
	v = __this_cpu_read(c) + amount;
	__this_cpu_write(c, v);
	local_irq_restore(flags);		/* a pending IRQ is taken here */`,
  'cmpxchg-local': `
	long old, prev;

	old = this_cpu_read(c);
	for (;;) {
		prev = this_cpu_cmpxchg(c, old, old + amount);	/* x86: one cmpxchg, no LOCK */
		if (prev == old)
			break;
		old = prev;			/* c changed under us: try again */
	}`,
};

function programOf(p: Params): string {
  const variant = VARIANT.of(p);
  return `C irq-local-rmw-${variant}

/*
 * A per-CPU add that CPU0's task and CPU0's IRQ handler both make: one CPU is enough, the race
 * is between the task and an interrupt on its own CPU.
 */

#define INITIAL ${intParam(p, 'initial')}		/* CPU0's c at the start */
#define AMOUNT ${intParam(p, 'amount')}		/* what the task adds */
#define IRQ_AMOUNT ${intParam(p, 'irqAmount')}	/* what the IRQ handler adds, each time */

DEFINE_PER_CPU(long, c);

{
	per_cpu(c, 0) = INITIAL;
}

void counter_add(long amount)
{${ADD[variant]}
}

P0()				/* the task on CPU0 */
{
	counter_add(AMOUNT);
}

IRQ0()				/* CPU0's IRQ handler: interrupts off */
{
	counter_add(IRQ_AMOUNT);
}

counter {
	deltas c;
	add counter_add(amount);
}

observe c = per_cpu(c, 0);
observe irqs;
observe exact;

invariant final no-lost-update;
`;
}

const NOTES: Record<Variant, string[]> = {
  none: [
    "This is v2.6.39 __percpu_counter_add()'s fast path (read the delta, write it back) if the counter is also updated from IRQ context: preempt_disable() stops other tasks, not interrupts.",
    "The IRQ handler's own update is safe (interrupts are off inside it); the task's is not.",
  ],
  irqsave: [
    'The fix of irqsafe_cpu_add (2.6.39 generic fallback), of the modern generic this_cpu_add, and of MS-2022 for percpu_counter_add_batch: interrupts off around the decision and the update.',
    'An IRQ raised while interrupts are off is not lost: it stays pending and the handler runs at local_irq_restore.',
  ],
  'cmpxchg-local': [
    'x86 this_cpu_cmpxchg is one cmpxchg on a %gs: operand without LOCK: an interrupt comes before or after it, never inside. The model runs it as a load step and (when the values match) a store step that nothing on the CPU can split.',
    'On failure cmpxchg returns what it found, and the loop retries from that value. The same loop protects the modern percpu_counter_add_batch (v6.11, MG-2024).',
  ],
};

export default textScenario({
  id: 'irq-local-rmw',
  title: 'A per-CPU add interrupted by an IRQ on the same CPU',
  group: THIS_CPU_GROUP,
  source:
    'Linux 2.6.39 lib/percpu_counter.c (__percpu_counter_add fast path) and include/linux/percpu.h (irqsafe_cpu_*); x86 this_cpu_cmpxchg (percpu_cmpxchg_op); Mathieu Desnoyers, cmpxchg_local <20071030192101.749932864@polymtl.ca>; Manfred Spraul, Dec 2022 <20221216150441.200533-1-manfred@colorfullife.com>',
  summary:
    "Preemption off is not enough: an IRQ between the task's load and store loses the handler's update. Interrupts off or a local cmpxchg retry fix it.",
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec('initial', 10, [-1_000_000_000, 1_000_000_000], "CPU0's c at the start"),
    intSpec('amount', 1, [-1_000_000, 1_000_000], 'What the task adds'),
    intSpec(
      'irqAmount',
      5,
      [-1_000_000, 1_000_000],
      "What CPU0's IRQ handler adds, each time it runs",
    ),
  ],
  handlers: ['IRQ on CPU0: counter_add(irqAmount), c += 5 by default'],
  text: programOf,
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): the IRQ handler runs on the CPU it interrupts and reads that CPU's buffer.",
  notes: (p) => [
    ...NOTES[VARIANT.of(p)],
    "exact is initial plus every add that completed (the task's and each IRQ's).",
  ],
  bounds: { irqs: 1 },
  guarantees: VARIANT.guarantees({
    none: [],
    irqsave: ['no-lost-update'],
    'cmpxchg-local': ['no-lost-update'],
  }),
  witnesses: [
    VARIANT.witness('none', {
      name: 'irq-between-load-and-store',
      description:
        "The task loads 10; the IRQ handler adds 5 (15); the task stores 11. The IRQ's +5 is lost (expected 16).",
      schedule: '0 0 irq0 0*4 0 0',
      expect: { c: 11, irqs: 1, exact: 16 },
      violates: ['no-lost-update'],
    }),
    VARIANT.witness('irqsave', {
      name: 'irq-held-pending',
      description:
        'The IRQ comes while interrupts are off and stays pending; local_irq_restore takes it after the task stored 11; the handler adds 5: 16.',
      schedule: '0 0 irq0 0 0 0*4',
      expect: { c: 16, irqs: 1, exact: 16 },
    }),
    VARIANT.witness('cmpxchg-local', {
      name: 'cmpxchg-retry',
      description:
        "The task reads old = 10; the IRQ's own cmpxchg 10→15 succeeds; the task's cmpxchg(10→11) fails and returns 15; the retry cmpxchg(15→16) succeeds.",
      schedule: '0 irq0 0*3 0 0 0',
      expect: { c: 16, irqs: 1, exact: 16 },
    }),
  ],
  lesson: {
    summary:
      "A per-CPU slot written only by its own CPU still has two writers: the task and the interrupt handlers on that CPU. preempt_disable() keeps other tasks out, not interrupts, so an IRQ between the task's load and store has its update overwritten. Either keep interrupts off around the read-modify-write (the IRQ waits, pending) or make it one instruction that an interrupt cannot split, retried if the value moved.",
    question:
      'c is 10. The task, with preemption disabled, loads c; an IRQ on the same CPU adds 5; the task stores its result. What is c?',
    answer:
      "11, not 16: the task stored 10 + 1 over the handler's 15. Disabling preemption did nothing against the interrupt.",
  },
});
