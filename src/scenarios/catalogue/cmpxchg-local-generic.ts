// cmpxchg-local-generic: the generic cmpxchg_local of asm-generic/cmpxchg-local.h (Mathieu
// Desnoyers, Oct 2007). It emulates a local compare-and-exchange by
// disabling interrupts around load, compare and store. That holds against IRQs on the same CPU,
// not against an NMI (which interrupts-off does not mask) and not against another CPU: in both
// cases two updates can each "succeed" while one overwrites the other.

import { CMPXCHG_LOCAL_2007_GROUP } from '../groups.ts';
import { MD_2007 } from '../localOps.ts';
import { intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['irq', 'nmi', 'smp'],
  'irq',
  "Who else updates c: irq: CPU0's IRQ handler; nmi: CPU0's NMI handler; smp: a task on CPU1",
);
type Variant = VariantOf<typeof VARIANT>;

/** The other updater's thread, as each variant has it. */
const OTHER: Record<Variant, string> = {
  irq: "IRQ0()\t\t\t\t/* CPU0's IRQ handler */",
  nmi: "NMI0()\t\t\t\t/* CPU0's NMI handler: local_irq_save() does not mask it */",
  smp: 'P1()\t\t\t\t/* the task on CPU1 */',
};

function programOf(p: Params): string {
  const variant = VARIANT.of(p);
  return `C cmpxchg-local-generic-${variant}

/*
 * The generic cmpxchg_local of include/asm-generic/cmpxchg-local.h (Mathieu Desnoyers, 2007),
 * in teaching form: the kernel's also takes the operand's size.
 */

#define INITIAL ${intParam(p, 'initial')}		/* c at the start */
#define AMOUNT ${intParam(p, 'amount')}		/* what CPU0's task adds */
#define OTHER_AMOUNT ${intParam(p, 'otherAmount')}	/* what the ${variant === 'smp' ? 'task on CPU1' : `${variant.toUpperCase()} handler`} adds */

unsigned long c = INITIAL;

unsigned long __cmpxchg_local_generic(unsigned long *ptr, unsigned long old, unsigned long new)
{
	unsigned long flags, prev;

	local_irq_save(flags);		/* masks IRQs on THIS CPU: not NMIs, not other CPUs */
	prev = *ptr;
	if (prev == old)
		*ptr = new;
	local_irq_restore(flags);
	return prev;
}

void counter_add(long amount)
{
	unsigned long old = c, prev;

	while ((prev = __cmpxchg_local_generic(&c, old, old + amount)) != old)
		old = prev;			/* it changed: retry from what we saw */
	record(succeeded, 1);		/* the call returned prev == old */
}

P0()				/* the task on CPU0 */
{
	counter_add(AMOUNT);
}

${OTHER[variant]}
{
	counter_add(OTHER_AMOUNT);
}

counter {
	count c;
	add counter_add(amount);
}

observe c = c;
observe succeeded = count(succeeded);	/* calls that reported success */
observe exact;

invariant final no-lost-update;
`;
}

const NOTES: Record<Variant, string[]> = {
  irq: [
    'An IRQ raised inside cmpxchg_local stays pending until local_irq_restore; one raised before it changes c, so the compare fails and the caller retries. Either way nothing is lost.',
    'Mathieu Desnoyers (MD-2007): "It is only protected against normal interrupts, but this is enough for architectures without such interrupt sources or if used in a context where the data is not shared with such handlers."',
  ],
  nmi: [
    'Mathieu Desnoyers (MD-2007): "This is not reentrant wrt NMIs and MCEs." local_irq_save() does not mask an NMI, so one can run between the compare and the store.',
    "The task's cmpxchg_local still returns prev == old, so its caller believes it succeeded: nothing tells it that the NMI's update was overwritten.",
  ],
  smp: [
    'local_irq_save() on CPU0 does nothing to CPU1: both CPUs can load the same prev, both compares pass and both store. This is why asm-generic/cmpxchg.h refuses to build on SMP: #error "Cannot use generic cmpxchg on SMP".',
    'MD-2007: "asm-generic/cmpxchg.h defines a cmpxchg that uses cmpxchg_local. It is meant to be used as a cmpxchg fallback for architectures that do not support SMP."',
  ],
};

export default textScenario({
  id: 'cmpxchg-local-generic',
  title: 'Generic cmpxchg_local: safe against IRQs, not NMIs or other CPUs',
  group: CMPXCHG_LOCAL_2007_GROUP,
  source: `${MD_2007}; v2.6.39 include/asm-generic/cmpxchg-local.h and cmpxchg.h`,
  summary:
    'cmpxchg_local emulated with local_irq_save: an NMI or another CPU can write between its compare and its store, and both updates report success.',
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec('initial', 10, [-1_000_000_000, 1_000_000_000], 'c at the start'),
    intSpec('amount', 1, [1, 1_000_000], "What CPU0's task adds"),
    intSpec(
      'otherAmount',
      5,
      [1, 1_000_000],
      'What the IRQ handler, the NMI handler or CPU1 adds (each time it runs)',
    ),
  ],
  handlers: [
    'irq variant: IRQ on CPU0: counter_add(otherAmount) with cmpxchg_local (c += 5)',
    'nmi variant: NMI on CPU0: counter_add(otherAmount) with cmpxchg_local (c += 5)',
    'smp variant: no handlers; CPU1 runs counter_add(otherAmount)',
  ],
  text: programOf,
  underTso:
    "Under memory tso the outcomes are those under sc (a test explores both): a handler reads its CPU's buffer, and the smp variant's double success is an interleaving of two CPUs, buffers or not.",
  notes: (p) => [
    ...NOTES[VARIANT.of(p)],
    'succeeded counts the adds whose cmpxchg_local returned prev == old (each completed add ends with one). exact is initial plus every add that reported success.',
  ],
  bounds: { irqs: 1, nmis: 1 },
  guarantees: VARIANT.guarantees({ irq: ['no-lost-update'], nmi: [], smp: [] }),
  witnesses: [
    VARIANT.witness('irq', {
      name: 'irq-held-pending',
      description:
        "The IRQ comes between the task's local_irq_save and its store: it stays pending; the task stores 11; at local_irq_restore the handler runs its own cmpxchg_local 11→16.",
      schedule: '0*3 irq0 0 0 0*5',
      expect: { c: 16, succeeded: 2, exact: 16 },
    }),
    VARIANT.witness('irq', {
      name: 'irq-before-save',
      description:
        "The IRQ comes after the task read old = 10 but before local_irq_save: the handler makes c 15, the task's compare fails (prev 15), and its retry stores 16.",
      schedule: '0 irq0 0*5 0*3 0*4',
      expect: { c: 16, succeeded: 2, exact: 16 },
    }),
    VARIANT.witness('nmi', {
      name: 'nmi-inside',
      description:
        "The task's compare passes (prev = 10); an NMI runs its own cmpxchg_local 10→15; the task then stores 11 and returns prev = 10, so it believes it succeeded. c = 11: the NMI's +5 is lost.",
      schedule: '0*3 nmi0 0*5 0 0',
      expect: { c: 11, succeeded: 2, exact: 16 },
      violates: ['no-lost-update'],
    }),
    VARIANT.witness('smp', {
      name: 'smp-both-succeed',
      description:
        'The same interleaving with CPU1 instead of an NMI: both CPUs load prev = 10 under their own local_irq_save; CPU1 stores 15, CPU0 stores 11. Both report success; c = 11.',
      schedule: '0*3 1*5 0 0',
      expect: { c: 11, succeeded: 2, exact: 16 },
      violates: ['no-lost-update'],
    }),
  ],
  lesson: {
    summary:
      'Where the CPU has no cmpxchg instruction, the generic cmpxchg_local makes load-compare-store atomic by disabling interrupts. That excludes exactly one kind of intruder: an IRQ on the same CPU. An NMI is not masked by local_irq_save, and another CPU is not affected by it at all; either can store between the compare and the store, and both updates then report success while one is overwritten. Hence the #error on SMP and the warning about NMIs.',
    question:
      "c = 10. The task's cmpxchg_local(&c, 10, 11) has disabled interrupts and found prev == old. An NMI now runs cmpxchg_local(&c, 10, 15). What does the task's call return, and what is c afterwards?",
    answer:
      "It returns 10, so the task thinks it succeeded; the NMI's call also succeeded; but the task's store overwrote 15 with 11. c = 11, and the +5 is silently lost.",
  },
});
