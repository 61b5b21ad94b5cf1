// this-cpu-ops: one this_cpu add, three implementations. The generic __this_cpu_add() is
// `*this_cpu_ptr(&pcp) += val`:
// address, load, store. A task preempted or migrated inside it finishes a read-modify-write on
// a slot whose owner has moved on, and an update is lost. The 2.6.3x generic this_cpu_add() wraps
// it in preempt_disable(); x86's is one `add %gs:` instruction that nothing on the CPU can split.

import { THIS_CPU_GROUP } from '../groups.ts';
import { initialSlots, KH_2009, migrationCpusParam } from '../localOps.ts';
import { intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['generic', 'generic-preempt', 'x86'],
  'generic',
  "generic: __this_cpu_add's generic fallback (no protection); generic-preempt: the 2.6.3x generic this_cpu_add (preempt_disable around it); x86: one add %gs: instruction",
);
type Variant = VariantOf<typeof VARIANT>;

/** count(), as each implementation of the add has it. */
const COUNT: Record<Variant, string> = {
  generic: `/* generic __this_cpu_add(nr, amount) = *this_cpu_ptr(&nr) += amount */
void count(long amount)
{
	long *p = this_cpu_ptr(&nr);	/* address of the slot of the CPU it is on now */
	long v = *p;			/* load */

	*p = v + amount;		/* store: maybe from another CPU by now */
}`,
  'generic-preempt': `/* generic this_cpu_add(nr, amount), 2.6.32–2.6.39: preempt-safe */
void count(long amount)
{
	long *p, v;

	preempt_disable();
	p = this_cpu_ptr(&nr);
	v = *p;
	*p = v + amount;
	preempt_enable();
}`,
  x86: `/* x86 __this_cpu_add(nr, amount) (= this_cpu_add = irqsafe_cpu_add) */
void count(long amount)
{
	this_cpu_add(nr, amount);	/* addq %rsi, %gs:nr: one instruction, no LOCK */
}`,
};

function programOf(p: Params): string {
  const variant = VARIANT.of(p);
  const cpus = intParam(p, 'cpus');
  const init = initialSlots(p)
    .map((v, k) => (v === 0 ? null : `\tper_cpu(nr, ${k}) = ${v};`))
    .filter((l): l is string => l !== null);
  const slots = Array.from({ length: cpus }, (_, k) => `observe slot${k} = per_cpu(nr, ${k});`);
  return `C this-cpu-ops-${variant}

/*
 * One this_cpu add, as Linux 2.6.39 implements it. P0 starts on CPU0, preemptible; P1 waits on
 * CPU0 and runs there when P0 is preempted or leaves. The other CPUs start idle, so a task
 * migrated there runs at once.
 */

#define NR_CPUS ${cpus}
#define AMOUNT ${intParam(p, 'amount')}		/* what P0 adds */
#define OTHER_AMOUNT ${intParam(p, 'otherAmount')}	/* what P1 adds */

DEFINE_PER_CPU(long, nr);		/* one slot per CPU */
${init.length > 0 ? `\n{\n${init.join('\n')}\n}\n` : ''}
${COUNT[variant]}

P0()
{
	count(AMOUNT);
}

P1() on cpu 0
{
	count(OTHER_AMOUNT);
}

counter {
	deltas nr;
	add count(amount);
}

${slots.join('\n')}
observe exact;

invariant final no-lost-update;
`;
}

const NOTES: Record<Variant, string[]> = {
  generic: [
    "The generic fallback computes the slot address (this CPU's offset added to &nr) before it loads and stores: a migration after the address is taken makes the load and store hit the old CPU's slot from the new CPU.",
    "A preemption inside the add loses an update too, without any migration: U runs on the same CPU between T's load and store.",
    'Christoph Lameter (Nov 2009): "The fallback fro __this_cpu_add is just to rely on the caller to ensure that preempt is disabled somehow."',
  ],
  'generic-preempt': [
    'Christoph Lameter (Nov 2009): "The fallback for this_cpu_add is to protect the add with preempt_disable()/enable."',
    'Preemption off keeps the task on one CPU from address to store. It does not keep interrupts out (see irq-local-rmw).',
  ],
  x86: [
    'An interrupt, a preemption or a migration can only come between instructions, so one `add %gs:` is atomic with respect to its own CPU for free; no LOCK prefix is needed because no other CPU writes this slot.',
    'The model runs the instruction as a load step and a store step that nothing on the CPU can split; other CPUs may step in between (they touch their own slots).',
  ],
};

export default textScenario({
  id: 'this-cpu-ops',
  title: 'One this_cpu add: generic, preempt-safe generic, x86',
  group: THIS_CPU_GROUP,
  source: `Linux 2.6.39 include/linux/percpu.h (generic __this_cpu_add / this_cpu_add) and arch/x86/include/asm/percpu.h (percpu_add_op); ${KH_2009}`,
  summary:
    "The generic __this_cpu_add is address, load, store: a task moved in between adds to a slot another task is updating. x86's single add %gs: cannot be split.",
  reconstruction: false,
  params: [
    VARIANT.param,
    {
      name: 'slots',
      kind: 'list',
      default: [10, 0],
      min: -1_000_000_000,
      max: 1_000_000_000,
      maxLength: 8,
      description: "Each CPU's nr at the start, CPU0 first (missing ones are 0)",
    },
    intSpec('amount', 1, [-1_000_000, 1_000_000], 'What T adds'),
    intSpec(
      'otherAmount',
      5,
      [-1_000_000, 1_000_000],
      'What U adds (U waits on CPU0 and runs there when T is preempted or leaves)',
    ),
    migrationCpusParam,
  ],
  text: programOf,
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): a CPU reads its own buffered stores, and a preemption or a migration drains its buffer.',
  notes: (p) => [
    ...NOTES[VARIANT.of(p)],
    'exact is the initial slots plus every add made; no-lost-update asks that the slots add up to it.',
  ],
  bounds: { preemptions: 1, migrations: 1 },
  guarantees: VARIANT.guarantees({
    generic: [],
    'generic-preempt': ['no-lost-update'],
    x86: ['no-lost-update'],
  }),
  witnesses: [
    VARIANT.witness('generic', {
      name: 'migrate-after-address',
      description:
        "Single-RMW variant: T takes the address of CPU0's slot, is migrated to CPU1 and loads 10 from there; U, now on CPU0, adds 5 (15); T stores 11 into CPU0's slot. U's +5 is lost.",
      schedule: '0 mig0>1 1 0*3 1',
      expect: { slot0: 11, slot1: 0, exact: 16 },
      violates: ['no-lost-update'],
    }),
    VARIANT.witness('generic', {
      name: 'preempted-mid-add',
      description:
        'No migration needed: T is preempted between its load (10) and store; U adds 5 on the same CPU (15); T resumes and stores 11.',
      schedule: '0 0 pre0 0*3 0',
      expect: { slot0: 11, slot1: 0, exact: 16 },
      violates: ['no-lost-update'],
    }),
    VARIANT.witness('generic-preempt', {
      name: 'preempt-safe',
      description:
        "With preemption off inside the add, T can only move before or after it: migrated first, T adds to CPU1's slot while U adds to CPU0's, even interleaved step by step.",
      schedule: 'mig0>1 (1 0)*5',
      expect: { slot0: 15, slot1: 1, exact: 16 },
    }),
    VARIANT.witness('x86', {
      name: 'x86-one-instruction',
      description:
        "x86: T is migrated before its add, then T's and U's single add instructions overlap on two CPUs; each hits its own CPU's slot.",
      schedule: 'mig0>1 1 0 0 1',
      expect: { slot0: 15, slot1: 1, exact: 16 },
    }),
  ],
  lesson: {
    summary:
      "A per-CPU add is a read-modify-write of the current CPU's slot. Where the architecture has no single instruction for it, the generic code computes the address, loads and stores, and the task can be preempted or migrated in between: it then finishes the add on a slot another task is also updating, and one update is lost. __this_cpu_add leaves the protection to the caller; this_cpu_add brings its own (preemption off); x86 gets it free from one add %gs: instruction.",
    question:
      "With the generic __this_cpu_add, T has taken the address of CPU0's slot (10) and is migrated to CPU1. U then adds 5 on CPU0 while T finishes adding 1. What can CPU0's slot end up as?",
    answer:
      "If both load 10: 11 when T stores last (U's +5 lost) or 15 when U stores last (T's +1 lost). 16 only if one store comes before the other's load.",
  },
});
