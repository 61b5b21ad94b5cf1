// torn-read-32: 64-bit percpu_counter values on a 32-bit CPU. An s64 load or store
// is two 32-bit accesses, so a reader that does not take fbc->lock can combine one half from
// before a writer's update with the other half from after it: a value 2^32 away from the truth.
// On SMP Shaohua Li's 2011 series made the count an atomic64_t (one cmpxchg8b per read); on UP
// the 2.6.39 percpu_counter_add() only disabled preemption, so an IRQ could read a half-written
// count or have its own add overwritten (fixed by Manfred Spraul in Dec 2022).

import { PERCPU_2011_GROUP } from '../groups.ts';
import { choiceParam, intParam, intSpec } from '../params.ts';
import { type VariantOf, variants } from '../define.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

const VARIANT = variants(
  ['lo-hi', 'hi-lo', 'atomic64', 'up-irq'],
  'lo-hi',
  'lo-hi / hi-lo: SMP, the reader loads the halves in that order; atomic64: SMP with an atomic64_t count; up-irq: uniprocessor add, interrupted by an IRQ',
);
type Variant = VariantOf<typeof VARIANT>;

const variantOf = VARIANT.of;

/** The SMP variants' functions: the counter, its lockless read, and the fold that writes it. */
function smpCode(variant: Exclude<Variant, 'up-irq'>): string {
  if (variant === 'atomic64')
    return `/* Shaohua Li, May 2011: "percpu_counter: use atomic64 for counter in SMP" (32-bit SMP) */
struct percpu_counter {
	atomic64_t count;
};

struct percpu_counter fbc = { .count = ATOMIC64_INIT(INITIAL) };

s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return atomic64_read(&fbc->count);	/* x86-32: one cmpxchg8b reads both halves */
}

/* CPU1: its delta (amount) reached the batch */
void fold(struct percpu_counter *fbc, s64 count)
{
	atomic64_add(count, &fbc->count);	/* LOCK cmpxchg8b loop: one atomic update */
}`;
  const order = variant === 'lo-hi' ? 'low half, then high half' : 'high half, then low half';
  return `/* v2.6.39 on a 32-bit SMP machine */
struct percpu_counter {
	spinlock_t lock;
	s64 count;			/* two 32-bit words: low at +0, high at +4 */
	/* s32 __percpu *counters; (the deltas play no part here) */
};

struct percpu_counter fbc = { .count = INITIAL };

s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return fbc->count;		/* no lock; two 32-bit loads: ${order} */
}

/* __percpu_counter_add()'s slow path, on CPU1: its delta (amount) reached the batch */
void fold(struct percpu_counter *fbc, s64 count)
{
	spin_lock(&fbc->lock);
	fbc->count += count;		/* load lo, load hi, add with carry, store lo, store hi */
	/* ... and its per-CPU delta is reset (left out: it does not touch fbc->count) */
	spin_unlock(&fbc->lock);
}`;
}

const UP_CODE = `/* v2.6.39, uniprocessor (CONFIG_SMP=n), 32-bit */
struct percpu_counter { s64 count; };

struct percpu_counter fbc = { .count = INITIAL };

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	preempt_disable();		/* other tasks wait; interrupts do not */
	fbc->count += amount;		/* load lo, load hi, add with carry, store lo, store hi */
	preempt_enable();
}

static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return fbc->count;		/* two 32-bit loads: low half, then high half */
}`;

function programOf(p: Params): string {
  const variant = variantOf(p);
  const up = variant === 'up-irq';
  const irqReads = choiceParam(p, 'irqDoes') === 'read';
  const threads = up
    ? [
        'P0()\t\t\t\t/* the task */\n{\n\tpercpu_counter_add(&fbc, AMOUNT);\n}',
        irqReads
          ? 'IRQ0()\t\t\t\t/* the IRQ handler reads */\n{\n\trecord(read, percpu_counter_read(&fbc));\n}'
          : 'IRQ0()\t\t\t\t/* the IRQ handler adds */\n{\n\tpercpu_counter_add(&fbc, IRQ_AMOUNT);\n}',
      ]
    : [
        'P0()\t\t\t\t/* reads, without the lock */\n{\n\trecord(read, percpu_counter_read(&fbc));\n}',
        'P1()\t\t\t\t/* folds its delta */\n{\n\tfold(&fbc, AMOUNT);\n}',
      ];
  const reads = !up || irqReads;
  return `C torn-read-32-${variant}

/*
 * 64-bit percpu_counter values on a 32-bit CPU: an s64 load or store is two 32-bit accesses.
 * OLD is the count before the ${up ? "task's add" : "writer's add"}, NEW the count after it; a read that is
 * neither is torn.
 */

#define BITS_PER_LONG 32
${variant === 'hi-lo' ? '#pragma lab load_order hi-lo\t\t/* the compiler loads the high half first */\n' : ''}#define INITIAL ${intParam(p, 'initial')}
#define AMOUNT ${intParam(p, 'amount')}${up && !irqReads ? `\n#define IRQ_AMOUNT ${intParam(p, 'irqAmount')}` : ''}
#define OLD INITIAL
#define NEW (INITIAL + AMOUNT)

${up ? UP_CODE : smpCode(variant)}

${threads.join('\n\n')}

counter {
	count fbc.count;
	add ${up ? 'percpu_counter_add(amount)' : 'fold(count)'};
	read percpu_counter_read(&fbc);
}

observe read = ${reads ? (up ? 'read[0]' : 'read') : 'none'};	/* what the first read returned */
observe old = OLD;
observe new = NEW;
observe count = fbc.count;
observe exact;

invariant always read-not-torn: ${reads ? 'all(read, v, v == OLD || v == NEW)' : '1'} "Every percpu_counter_read() returns old or new, never a mix of their halves";
invariant final no-lost-update;
`;
}

const NOTES: Record<Variant, string[]> = {
  'lo-hi': [
    'Which half the compiler loads first is its choice; this variant loads the low half first (hi-lo shows the other order). The writer stores the low half first. The orders are an assumption, not taken from a compiler listing.',
    'The writer holds fbc->lock, so writers are exact; percpu_counter_read() takes no lock, so it can see the store half done.',
    'Shaohua Li, SL-v2 cover letter (11 May 2011): "percpu_counter uses s64 counter. Without any locking reading s64 in 32-bit system isn\'t safe and can cause bad side effect."',
  ],
  'hi-lo': [
    'This variant loads the high half first; the writer stores the low half first. The orders are an assumption (the compiler chooses).',
    'The writer holds fbc->lock, so writers are exact; percpu_counter_read() takes no lock, so it can see the store half done.',
  ],
  atomic64: [
    'The atomic64 code of the series is not at hand: that the read is atomic64_read and the fold atomic64_add without fbc->lock follows the patch title (inferred, not from code; the SMP and UP races themselves are quoted code).',
    'Eric Dumazet on its price: "atomic64_add() uses two \'lock cmpxchg8b\' on x86_32".',
  ],
  'up-irq': [
    'The UP percpu_counter_add() of 2.6.39 only disables preemption. Manfred Spraul (Dec 2022): "if an interrupt happens during the +=, then the result is undefined. Therefore: switch from preempt_disable() to local_irq_save()".',
    'The compiler is assumed to load both halves, add with carry, then store the low half and then the high half (the order the walk-through assumes).',
    "The handler's reads are recorded one per IRQ; read is the first.",
  ],
};

export default textScenario({
  id: 'torn-read-32',
  title: 'Torn 64-bit reads of fbc->count on a 32-bit CPU',
  group: PERCPU_2011_GROUP,
  source:
    'v2.6.39 include/linux/percpu_counter.h (SMP and UP); Shaohua Li, "[patch v2 0/5] percpu_counter: bug fix and enhancement", LKML, 11 May 2011 (https://lkml.org/lkml/2011/5/11/15), patch 1/5 and 4/5; Manfred Spraul, 16 Dec 2022 <20221216150441.200533-2-manfred@colorfullife.com>',
  summary:
    'A lockless read of an s64 on a 32-bit CPU is two loads: between them a writer can carry into the high half, and the read is off by 2^32.',
  reconstruction: false,
  params: [
    VARIANT.param,
    intSpec(
      'initial',
      4294967280,
      [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      'fbc->count at the start (4294967280 = 0x0:0xFFFFFFF0)',
    ),
    intSpec(
      'amount',
      32,
      [-1_000_000_000, 1_000_000_000],
      "What the writer adds: CPU1's fold (SMP) or the task's add (up-irq)",
    ),
    {
      name: 'irqDoes',
      kind: 'choice',
      default: 'read',
      choices: ['read', 'add'],
      description:
        'up-irq only: the IRQ handler calls percpu_counter_read() or percpu_counter_add(irqAmount)',
    },
    intSpec(
      'irqAmount',
      5,
      [-1_000_000_000, 1_000_000_000],
      'up-irq with irqDoes = add: what the IRQ handler adds',
    ),
  ],
  explorePresets: { 'up-irq': 'irq-adds' },
  presets: {
    'irq-adds': {
      description:
        "UP: the IRQ handler adds 5 while the task's add of 1 to 0x0:0xFFFFFFFF is half done",
      apply: () => ({ initial: 4294967295, amount: 1, irqDoes: 'add', irqAmount: 5 }),
    },
    walkthrough: {
      description: "The starting values of the variant's walk-through",
      apply: (p): Params =>
        variantOf(p) === 'up-irq'
          ? { initial: 4294967295, amount: 1, irqAmount: 5 }
          : { initial: 4294967280, amount: 32 },
    },
  },
  handlers: [
    'up-irq only: IRQ on CPU0: percpu_counter_read() (irqDoes = read) or percpu_counter_add(irqAmount) (irqDoes = add)',
  ],
  text: programOf,
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): a torn read comes from two halves in two steps; the buffer delays the halves but keeps their order.',
  notes: (p) => NOTES[variantOf(p)],
  bounds: { irqs: 1 },
  guarantees: VARIANT.guarantees({
    'lo-hi': ['no-lost-update'],
    'hi-lo': ['no-lost-update'],
    atomic64: ['read-not-torn', 'no-lost-update'],
    'up-irq': [],
  }),
  witnesses: [
    VARIANT.witness('lo-hi', {
      name: 'lo-then-hi',
      description:
        'SMP: CPU0 loads the low half 0xFFFFFFF0; CPU1 adds 32 under fbc->lock (0x1:0x00000010); CPU0 loads the high half 0x1: 0x1_FFFFFFF0 = 8589934576, exactly 2^32 above the old value.',
      schedule: '0 1*6 0',
      expect: { read: 8589934576, old: 4294967280, new: 4294967312, count: 4294967312 },
      violates: ['read-not-torn'],
    }),
    VARIANT.witness('hi-lo', {
      name: 'hi-then-lo',
      description:
        'SMP, other load order: CPU0 loads the high half 0x0 before the add and the low half 0x10 after it: 16, exactly 2^32 below the new value.',
      schedule: '0 1*6 0',
      expect: { read: 16, old: 4294967280, new: 4294967312, count: 4294967312 },
      violates: ['read-not-torn'],
    }),
    VARIANT.witness('atomic64', {
      name: 'atomic64-read',
      description:
        "With an atomic64_t count the read is one cmpxchg8b: it sees the count before or after CPU1's atomic64_add, never half of it.",
      schedule: '1 0',
      expect: { read: 4294967312, old: 4294967280, new: 4294967312, count: 4294967312 },
    }),
    VARIANT.witness('up-irq', {
      name: 'up-irq-reads-half',
      description:
        'UP: the task adding 1 to 0x0:0xFFFFFFFF has stored the low half (0) but not the high half when an IRQ calls percpu_counter_read(): 0, though the count is 4294967295 before the add and 4294967296 after.',
      params: { initial: 4294967295, amount: 1, irqDoes: 'read' },
      schedule: '0*4 irq0 0 0 0 0',
      expect: { read: 0, old: 4294967295, new: 4294967296, count: 4294967296, exact: 4294967296 },
      violates: ['read-not-torn'],
    }),
    VARIANT.witness('up-irq', {
      name: 'up-irq-add-lost',
      description:
        'UP: the task has loaded both halves of 0x0:0xFFFFFFFF when an IRQ adds 5 (0x1:0x00000004); the task then stores its 0x1:0x00000000: 4294967296 instead of 4294967301, the +5 is lost.',
      params: { initial: 4294967295, amount: 1, irqDoes: 'add', irqAmount: 5 },
      schedule: '0*3 irq0 0*6 0*3',
      expect: { read: null, count: 4294967296, exact: 4294967301 },
      violates: ['no-lost-update'],
    }),
  ],
  lesson: {
    summary:
      'On a 32-bit CPU a 64-bit counter is two words. A writer updates them one at a time, so a reader without the lock can take the low half from one value and the high half from another; when the add carries into the high half, the mix is off by exactly 2^32. The fixes make the read one access (atomic64_read with cmpxchg8b on SMP) or keep interrupts out of the update (local_irq_save on UP).',
    question:
      'fbc->count is 4294967280 (0x0:0xFFFFFFF0). CPU0 reads the low half; CPU1 adds 32 under fbc->lock; CPU0 reads the high half. What does percpu_counter_read() return?',
    answer:
      '8589934576 (0x1:0xFFFFFFF0): the old low half with the new high half, exactly 2^32 more than the old value 4294967280, and nowhere near the new one, 4294967312.',
  },
});
