// torn-read-32: 64-bit percpu_counter values on a 32-bit CPU (reference §6g). An s64 load or store
// is two 32-bit accesses, so a reader that does not take fbc->lock can combine one half from
// before a writer's update with the other half from after it: a value 2^32 away from the truth.
// On SMP Shaohua Li's 2011 series made the count an atomic64_t (one cmpxchg8b per read); on UP
// the 2.6.39 percpu_counter_add() only disabled preemption, so an IRQ could read a half-written
// count or have its own add overwritten (fixed by Manfred Spraul in Dec 2022).

import { PERCPU_2011_GROUP } from '../groups.ts';
import { abs, ProgramBuilder } from '../../machine/builder.ts';
import { type Cell, LayoutBuilder, type ResultSlot } from '../../machine/layout.ts';
import { compile, type Machine } from '../../machine/machine.ts';
import { KeyedListing, cellHoldsEveryAdd, same } from '../local-ops.ts';
import { readCell, readResults, totalTally } from '../observe.ts';
import { plus } from '../../machine/int64.ts';
import { choiceParam, intParam, intSpec } from '../params.ts';
import { defineScenario, type VariantOf, variants } from '../define.ts';
import type { BuildOptions, Params } from '../types.ts';

const VARIANT = variants(
  ['lo-hi', 'hi-lo', 'atomic64', 'up-irq'],
  'lo-hi',
  'lo-hi / hi-lo: SMP, the reader loads the halves in that order; atomic64: SMP with an atomic64_t count; up-irq: uniprocessor add, interrupted by an IRQ',
);
type Variant = VariantOf<typeof VARIANT>;

/** How many values the IRQ handler's reads can record (one per IRQ) before the slot is full. */
const READS = 8;

const variantOf = VARIANT.of;

function listingOf(variant: Variant): KeyedListing {
  switch (variant) {
    case 'lo-hi':
    case 'hi-lo': {
      const order = variant === 'lo-hi' ? 'low half, then high half' : 'high half, then low half';
      return new KeyedListing([
        '/* v2.6.39 on a 32-bit SMP machine */',
        'struct percpu_counter {',
        '\tspinlock_t lock;',
        '\ts64 count;                      /* two 32-bit words: low at +0, high at +4 */',
        '\ts32 __percpu *counters;',
        '};',
        '',
        '/* CPU0 */',
        's64 percpu_counter_read(struct percpu_counter *fbc)',
        '{',
        ['read', `\treturn fbc->count;             /* no lock; two 32-bit loads: ${order} */`],
        '}',
        '',
        "/* CPU1, in __percpu_counter_add()'s slow path: its delta (amount) reached the batch */",
        ['lock', '\tspin_lock(&fbc->lock);'],
        [
          'add',
          '\tfbc->count += count;           /* load lo, load hi, add with carry, store lo, store hi */',
        ],
        '\t/* ... and its per-CPU delta is reset (left out: it does not touch fbc->count) */',
        ['unlock', '\tspin_unlock(&fbc->lock);'],
      ]);
    }
    case 'atomic64':
      return new KeyedListing([
        '/* Shaohua Li, May 2011: "percpu_counter: use atomic64 for counter in SMP" (32-bit SMP) */',
        'struct percpu_counter {',
        '\tatomic64_t count;',
        '\ts32 __percpu *counters;',
        '};',
        '',
        '/* CPU0 */',
        's64 percpu_counter_read(struct percpu_counter *fbc)',
        '{',
        [
          'read',
          '\treturn atomic64_read(&fbc->count);   /* x86-32: one cmpxchg8b reads both halves */',
        ],
        '}',
        '',
        '/* CPU1: its delta (amount) reached the batch */',
        [
          'add',
          '\tatomic64_add(count, &fbc->count);     /* LOCK cmpxchg8b loop: one atomic update */',
        ],
      ]);
    case 'up-irq':
      return new KeyedListing([
        '/* v2.6.39, uniprocessor (CONFIG_SMP=n), 32-bit */',
        'struct percpu_counter { s64 count; };',
        '',
        'static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)',
        '{',
        ['off', '\tpreempt_disable();              /* other tasks wait; interrupts do not */'],
        [
          'add',
          '\tfbc->count += amount;           /* load lo, load hi, add with carry, store lo, store hi */',
        ],
        ['on', '\tpreempt_enable();'],
        '}',
        '',
        'static inline s64 percpu_counter_read(struct percpu_counter *fbc)',
        '{',
        [
          'read',
          '\treturn fbc->count;              /* two 32-bit loads: low half, then high half */',
        ],
        '}',
        '',
        '/* the task: percpu_counter_add(fbc, amount);',
        ' * the IRQ handler: percpu_counter_read(fbc) or percpu_counter_add(fbc, irqAmount) (irqDoes) */',
      ]);
  }
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
    'The atomic64 code of the series is not at hand: that the read is atomic64_read and the fold atomic64_add without fbc->lock follows the patch title and §2.3 of the reference (inferred from the patch title, not from code; the SMP and UP races themselves are quoted code).',
    'Eric Dumazet on its price: "atomic64_add() uses two \'lock cmpxchg8b\' on x86_32".',
  ],
  'up-irq': [
    'The UP percpu_counter_add() of 2.6.39 only disables preemption. Manfred Spraul (Dec 2022): "if an interrupt happens during the +=, then the result is undefined. Therefore: switch from preempt_disable() to local_irq_save()".',
    "The compiler is assumed to load both halves, add with carry, then store the low half and then the high half (as in the reference's table).",
    `The handler's reads are recorded one per IRQ, up to ${READS}.`,
  ],
};

function addInto(b: ProgramBuilder, count: Cell, amount: number, line: number) {
  const v = b.reg('v');
  b.line(line).load(v, abs(count)).add(v, v, amount).store(abs(count), v, { tally: amount });
}

function readInto(b: ProgramBuilder, count: Cell, slot: ResultSlot, line: number) {
  const v = b.reg('v');
  b.line(line).load(v, abs(count)).record(slot, v);
}

function build(p: Params, opts?: BuildOptions) {
  const variant = variantOf(p);
  const amount = intParam(p, 'amount');
  const lst = listingOf(variant);
  const up = variant === 'up-irq';
  const L = new LayoutBuilder(up ? 1 : 2, opts);
  const lock = up ? null : L.cell('lock', 'fbc->lock', 'lock');
  const count = L.cell('count', 'fbc->count', 's64', intParam(p, 'initial'));
  const slot = L.result('read', 'percpu_counter_read()', up ? READS : 1);
  let machine: Machine;
  if (up) {
    const task = new ProgramBuilder('T', { wordBits: 32 });
    task.line(lst.at('off')).preemptDisable();
    addInto(task, count, amount, lst.at('add'));
    task.line(lst.at('on')).preemptEnable();
    const irq = new ProgramBuilder('irq', { wordBits: 32 });
    if (choiceParam(p, 'irqDoes') === 'read') readInto(irq, count, slot, lst.at('read'));
    else {
      irq.line(lst.at('off')).preemptDisable();
      addInto(irq, count, intParam(p, 'irqAmount'), lst.at('add'));
      irq.line(lst.at('on')).preemptEnable();
    }
    machine = compile({
      cpus: 1,
      wordBits: 32,
      layout: L.build(),
      tasks: [{ name: 'T', cpu: 0, program: task.build() }],
      irq: [irq.build()],
    });
  } else {
    const reader = new ProgramBuilder('reader', {
      wordBits: 32,
      loadOrder: variant === 'hi-lo' ? 'hi-lo' : 'lo-hi',
    });
    const writer = new ProgramBuilder('writer', { wordBits: 32 });
    if (variant === 'atomic64') {
      const v = reader.reg('v');
      reader
        .line(lst.at('read'))
        .cmpxchg(v, abs(count), v, v, {
          say: '{who} reads {cell} with one cmpxchg8b (atomic64_read): {v}',
        })
        .record(slot, v);
      writer.line(lst.at('add')).atomicAdd(abs(count), amount, { tally: amount });
    } else {
      readInto(reader, count, slot, lst.at('read'));
      if (lock) writer.line(lst.at('lock')).spinLock(lock);
      addInto(writer, count, amount, lst.at('add'));
      if (lock) writer.line(lst.at('unlock')).spinUnlock(lock);
    }
    machine = compile({
      cpus: 2,
      wordBits: 32,
      layout: L.build(),
      tasks: [
        { name: 'reader', cpu: 0, program: reader.build() },
        { name: 'writer', cpu: 1, program: writer.build() },
      ],
    });
  }
  return {
    params: p,
    machine,
    listing: {
      lines: lst.lines,
      notes: [
        ...NOTES[variant],
        "old is the count before the writer's add, new the count after it (old + amount). A read that is neither is torn.",
      ],
    },
  };
}

const oldOf = (p: Params) => intParam(p, 'initial');
const newOf = (p: Params) => plus(intParam(p, 'initial'), intParam(p, 'amount'));

/** How a torn value relates to old and new: "2^32 above old", or the plain difference. */
function offBy(v: number | bigint, p: Params): string {
  const TWO32 = 1n << 32n;
  const fromOld = BigInt(v) - BigInt(oldOf(p));
  const fromNew = BigInt(v) - BigInt(newOf(p));
  if (fromOld === TWO32 || fromOld === -TWO32) {
    return `exactly 2^32 ${fromOld > 0n ? 'above' : 'below'} old`;
  }
  if (fromNew === TWO32 || fromNew === -TWO32) {
    return `exactly 2^32 ${fromNew > 0n ? 'above' : 'below'} new`;
  }
  return `${fromOld >= 0n ? '+' : ''}${String(fromOld)} from old`;
}

export const tornRead32 = defineScenario({
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
        "§6g (UP): the IRQ handler adds 5 while the task's add of 1 to 0x0:0xFFFFFFFF is half done",
      apply: () => ({ initial: 4294967295, amount: 1, irqDoes: 'add', irqAmount: 5 }),
    },
    reference: {
      description: "§6g's starting values for the chosen variant",
      apply: (p): Params =>
        variantOf(p) === 'up-irq'
          ? { initial: 4294967295, amount: 1, irqAmount: 5 }
          : { initial: 4294967280, amount: 32 },
    },
  },
  handlers: [
    'up-irq only: IRQ on CPU0: percpu_counter_read() (irqDoes = read) or percpu_counter_add(irqAmount) (irqDoes = add)',
  ],
  build,
  observables: () => [
    {
      name: 'read',
      description: 'What the first percpu_counter_read() returned (null if none ran)',
      read: (m, s) => readResults(m, s, 'read')[0] ?? null,
    },
    {
      name: 'old',
      description: "fbc->count before the writer's add",
      read: (_m, _s, p) => oldOf(p),
    },
    {
      name: 'new',
      description: "fbc->count after the writer's add (old + amount)",
      read: (_m, _s, p) => newOf(p),
    },
    {
      name: 'count',
      description: 'fbc->count at the end',
      read: (m, s) => readCell(m, s, 'count'),
    },
    {
      name: 'exact',
      description: "initial + every add made (the writer's, and the IRQ handler's in up-irq)",
      read: (m, s, p) => plus(intParam(p, 'initial'), totalTally(m, s)),
    },
  ],
  invariants: [
    {
      id: 'read-not-torn',
      when: 'always',
      reads: 'results',
      description: 'Every percpu_counter_read() returns old or new, never a mix of their halves',
      always: (m, s, p) => {
        for (const v of readResults(m, s, 'read')) {
          if (same(v, oldOf(p)) || same(v, newOf(p))) continue;
          return `percpu_counter_read() returned ${String(v)}, neither old ${String(oldOf(p))} nor new ${String(newOf(p))} (${offBy(v, p)}): one half came from before the add, the other from after`;
        }
        return null;
      },
    },
    cellHoldsEveryAdd('count', 'fbc->count'),
  ],
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
        'Reference §6g (SMP): CPU0 loads the low half 0xFFFFFFF0; CPU1 adds 32 under fbc->lock (0x1:0x00000010); CPU0 loads the high half 0x1: 0x1_FFFFFFF0 = 8589934576, exactly 2^32 above the old value.',
      schedule: '0 1*6 0',
      expect: { read: 8589934576, old: 4294967280, new: 4294967312, count: 4294967312 },
      violates: ['read-not-torn'],
    }),
    VARIANT.witness('hi-lo', {
      name: 'hi-then-lo',
      description:
        'Reference §6g (SMP, other load order): CPU0 loads the high half 0x0 before the add and the low half 0x10 after it: 16, exactly 2^32 below the new value.',
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
        'Reference §6g (UP): the task adding 1 to 0x0:0xFFFFFFFF has stored the low half (0) but not the high half when an IRQ calls percpu_counter_read(): 0, though the count is 4294967295 before the add and 4294967296 after.',
      params: { initial: 4294967295, amount: 1, irqDoes: 'read' },
      schedule: '0*4 irq0 0 0 0 0',
      expect: { read: 0, old: 4294967295, new: 4294967296, count: 4294967296, exact: 4294967296 },
      violates: ['read-not-torn'],
    }),
    VARIANT.witness('up-irq', {
      name: 'up-irq-add-lost',
      description:
        'Reference §6g (UP): the task has loaded both halves of 0x0:0xFFFFFFFF when an IRQ adds 5 (0x1:0x00000004); the task then stores its 0x1:0x00000000: 4294967296 instead of 4294967301, the +5 is lost.',
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
