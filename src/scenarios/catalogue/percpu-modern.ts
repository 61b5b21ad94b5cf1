// percpu-modern: mainline percpu_counter_add_batch() and the IRQ user it must survive.
// - preempt-only: v4.13-era code (preempt_disable, then this_cpu_add on the fast path). An IRQ
//   between the decision and the add pushes the delta past the batch (Manfred Spraul, Dec 2022).
// - irqsave: the fix (~v6.3): local_irq_save around the decision and the update.
// - try-cmpxchg: v6.11 (Mateusz Guzik, May 2024): a this_cpu_try_cmpxchg loop, no irq-off on
//   the fast path; the slow path re-reads the delta under the lock.

import { PERCPU_MAINLINE_GROUP } from '../groups.ts';
import { type VariantOf, variants } from '../define.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, CORRECT_CLAUSES } from '../percpu/text.ts';
import { choiceParam, intParam, intSpec } from '../params.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['preempt-only', 'irqsave', 'try-cmpxchg'],
  'preempt-only',
  'Which mainline version of percpu_counter_add_batch()',
);
type Variant = VariantOf<typeof VARIANT>;

/**
 * The Dec-2022 moment: CPU0's delta is 20 with batch 32 and it adds 10 once, while its IRQ
 * handler adds 10 too; no summer. Every variant's witness starts from it.
 */
const IRQ_ON_20 = {
  batch: 32,
  slots: [20],
  amounts: [10, 0],
  adds: [1],
  summer: -1,
  irqAmount: 10,
};

const ADDS: Record<Variant, string> = {
  'preempt-only': `
/* ~v4.13 .. v6.2: preemption off, interrupts on (abs() came with a later cleanup) */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s64 count;

	preempt_disable();
	count = __this_cpu_read(*fbc->counters) + amount;
	if (abs(count) >= batch) {
		unsigned long flags;
		raw_spin_lock_irqsave(&fbc->lock, flags);
		fbc->count += count;
		__this_cpu_sub(*fbc->counters, count - amount);
		raw_spin_unlock_irqrestore(&fbc->lock, flags);
	} else {
		this_cpu_add(*fbc->counters, amount);	/* an IRQ may have run since the test */
	}
	preempt_enable();
}`,
  irqsave: `
/* ~v6.3 (Manfred Spraul, Dec 2022): decision and update under local_irq_save */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s64 count;
	unsigned long flags;

	local_irq_save(flags);
	count = __this_cpu_read(*fbc->counters) + amount;
	if (abs(count) >= batch) {
		raw_spin_lock(&fbc->lock);
		fbc->count += count;
		__this_cpu_sub(*fbc->counters, count - amount);
		raw_spin_unlock(&fbc->lock);
	} else {
		this_cpu_add(*fbc->counters, amount);
	}
	local_irq_restore(flags);
}`,
  'try-cmpxchg': `
/* v6.11 (Mateusz Guzik, May 2024), CONFIG_HAVE_CMPXCHG_LOCAL */
${percpu.addBatchCmpxchg('/* we may have migrated, or the delta changed */')}`,
};

const REST = `
${percpu.lockedSum('for_each_online_cpu(cpu)\t\t/* for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) */')}

s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return fbc->count;
}
`;

function text(p: Params): string {
  const v = choiceParam(p, 'variant') as Variant;
  const irq = intParam(p, 'irqAmount');
  return counterText(p, {
    id: 'percpu-modern',
    about: [
      `Mainline percpu_counter_add_batch() (variant ${v}) and an IRQ handler on CPU0 that adds too.`,
    ],
    fields: ['\traw_spinlock_t lock;', '\ts64 count;', '\ts32 __percpu *counters;'],
    defines: irq !== 0 ? [`#define IRQ_AMOUNT ${irq}\t\t/* what CPU0's IRQ handler adds */`] : [],
    functions: `${ADDS[v]}\n${REST}`,
    add: 'percpu_counter_add_batch',
    handlers:
      irq !== 0
        ? [
            'IRQ0()\t\t\t\t/* CPU0, interrupts off */',
            '{',
            '\tpercpu_counter_add_batch(&fbc, IRQ_AMOUNT, BATCH);',
            '}',
          ].join('\n')
        : undefined,
    observe: ['observe irqs;'],
    invariants: CORRECT_CLAUSES,
  });
}

export default textScenario({
  id: 'percpu-modern',
  title: 'Modern percpu_counter_add_batch and an IRQ user',
  group: PERCPU_MAINLINE_GROUP,
  source:
    'Mainline lib/percpu_counter.c as of about v4.13 (torvalds/linux 104b4e5139fe); Manfred Spraul <20221216150441.200533-1-manfred@colorfullife.com> (Dec 2022); Mateusz Guzik <20240528204257.434817-1-mjguzik@gmail.com> (v6.11)',
  summary:
    'With only preemption off, an IRQ between the batch test and this_cpu_add pushes the delta past the batch; local_irq_save or a this_cpu_try_cmpxchg loop fixes it.',
  reconstruction: false,
  params: percpu.parameters([
    VARIANT.param,
    intSpec(
      'irqAmount',
      1,
      [-1_000_000, 1_000_000],
      "What CPU0's IRQ handler adds with percpu_counter_add() (0: no IRQ user)",
    ),
  ]),
  presets: {
    kernel: percpu.kernelPreset,
    'irq-past-batch': {
      description:
        "CPU0 and its IRQ each add batch − 1 from delta 0 while CPU1's delta is batch − 1: with the race, at rest the count can be off by more than (batch − 1) × CPUs",
      apply: (p) => {
        const b = intParam(p, 'batch');
        return { slots: [0, b - 1], amounts: [b - 1, 0], adds: [1], irqAmount: b - 1, summer: -1 };
      },
    },
  },
  explorePresets: { 'preempt-only': 'irq-past-batch' },
  handlers: ['IRQ on CPU0: percpu_counter_add(fbc, irqAmount)'],
  text,
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): adds are this_cpu operations on the CPU's own slot, read through its own buffer, and folds are made under the lock.",
  notes: () => [
    'The IRQ handler on CPU0 runs the same percpu_counter_add_batch() with irqAmount.',
    'this_cpu_add, __this_cpu_sub and this_cpu_try_cmpxchg are single x86 instructions: no interrupt can split them (their load and store are two steps that only another CPU can come between).',
    "Since about v4.13 the slow path subtracts what it folded instead of writing 0, so an IRQ's delta that lands in between is kept.",
  ],
  bounds: { irqs: 1, migrations: 1 },
  guarantees: VARIANT.guarantees({
    'preempt-only': ['no-lost-update', 'sum-within-window'],
    irqsave: percpu.CORRECT,
    'try-cmpxchg': percpu.CORRECT,
  }),
  witnesses: [
    VARIANT.witness('preempt-only', {
      name: 'dec-2022-race',
      description:
        'Dec-2022 bug: CPU0 decides on the fast path (20 + 10 < 32), an IRQ adds 10 (delta 30), then this_cpu_add makes the delta 40: past the batch.',
      params: IRQ_ON_20,
      schedule: '0 0 irq0 0*8',
      expect: { slot0: 40, count: 0, exact: 40, irqs: 1 },
      violates: ['slot-below-batch'],
    }),
    VARIANT.witness('irqsave', {
      name: 'irqsave-holds-the-irq',
      description:
        'The same moment with local_irq_save: the IRQ stays pending until the add is done, then its own add sees 30 + 10 and folds 40.',
      params: IRQ_ON_20,
      schedule: '0 0 irq0 0*4 0*8',
      expect: { slot0: 0, count: 40, exact: 40, irqs: 1 },
    }),
    VARIANT.witness('try-cmpxchg', {
      name: 'try-cmpxchg-retries',
      description:
        "The task reads 20; the IRQ's try_cmpxchg 20→30 succeeds; the task's try_cmpxchg fails and reloads 30; 30 + 10 ≥ 32, so it folds 40 under the lock.",
      params: IRQ_ON_20,
      schedule: '0 irq0 0*13',
      expect: { slot0: 0, count: 40, exact: 40, irqs: 1 },
    }),
  ],
  lesson: {
    summary:
      'this_cpu_add is interrupt-safe on its own, but the decision "fast path or fold?" is made earlier, from a value an interrupt can change. With only preemption disabled, an IRQ that adds in between makes the delta overshoot the batch, and read()\'s error bound no longer holds. Disabling interrupts makes decision and update one unit; the v6.11 version instead retries a cmpxchg that fails if anything changed the delta.',
    question:
      "batch 32, CPU0's delta is 20. CPU0 adds 10 (preemption off, interrupts on) and an IRQ on CPU0 adds 10 right after the batch test. What is the delta afterwards?",
    answer:
      '40: both saw room below 32 and both added with this_cpu_add. No update is lost, but the delta is past the batch.',
  },
});
