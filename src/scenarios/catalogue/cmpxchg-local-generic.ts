// cmpxchg-local-generic: the generic cmpxchg_local of asm-generic/cmpxchg-local.h (Mathieu
// Desnoyers, Oct 2007; reference §5, §6f part 4). It emulates a local compare-and-exchange by
// disabling interrupts around load, compare and store. That holds against IRQs on the same CPU,
// not against an NMI (which interrupts-off does not mask) and not against another CPU: in both
// cases two updates can each "succeed" while one overwrites the other.

import { CMPXCHG_LOCAL_2007_GROUP } from '../groups.ts';
import { abs, ProgramBuilder } from '../../machine/builder.ts';
import { Cond } from '../../machine/isa.ts';
import { type Cell, LayoutBuilder } from '../../machine/layout.ts';
import { compile, type TaskSpec } from '../../machine/machine.ts';
import { contextTally, KeyedListing, MD_2007, cellHoldsEveryAdd } from '../local-ops.ts';
import { readCell, totalTally } from '../observe.ts';
import { plus } from '../../machine/int64.ts';
import { intParam, intSpec } from '../params.ts';
import { defineScenario, type VariantOf, variants } from '../define.ts';

const VARIANT = variants(
  ['irq', 'nmi', 'smp'],
  'irq',
  "Who else updates c: irq: CPU0's IRQ handler; nmi: CPU0's NMI handler; smp: a task on CPU1",
);
type Variant = VariantOf<typeof VARIANT>;

const OTHER: Record<Variant, string> = {
  irq: "CPU0's IRQ handler",
  nmi: "CPU0's NMI handler",
  smp: 'the task on CPU1',
};

function listingOf(variant: Variant): KeyedListing {
  return new KeyedListing([
    '/* asm-generic/cmpxchg-local.h (2007), in teaching form */',
    'unsigned long cmpxchg_local(unsigned long *ptr, unsigned long old, unsigned long new)',
    '{',
    '\tunsigned long flags, prev;',
    '',
    [
      'save',
      '\tlocal_irq_save(flags);      /* masks IRQs on THIS CPU: not NMIs, not other CPUs */',
    ],
    ['load', '\tprev = *ptr;'],
    ['cmp', '\tif (prev == old)'],
    ['store', '\t\t*ptr = new;'],
    ['restore', '\tlocal_irq_restore(flags);'],
    '\treturn prev;',
    '}',
    '',
    'unsigned long c;                             /* starts at `initial` */',
    '',
    `/* the task on CPU0 adds amount; ${OTHER[variant]} adds otherAmount */`,
    'void counter_add(long amount)',
    '{',
    ['read', '\tunsigned long old = c, prev;'],
    '',
    ['call', '\twhile ((prev = cmpxchg_local(&c, old, old + amount)) != old)'],
    ['retry', '\t\told = prev;                   /* it changed: retry from what we saw */'],
    '}',
    ...(variant === 'smp'
      ? []
      : [
          '',
          `void ${variant}_handler(void)             /* CPU0's ${variant === 'irq' ? 'IRQ' : 'NMI'} handler */`,
          '{',
          '\tcounter_add(otherAmount);',
          '}',
        ]),
  ]);
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

const variantOf = VARIANT.of;

function addProgram(name: string, lst: KeyedListing, c: Cell, amount: number, handler: string) {
  const b = new ProgramBuilder(name);
  const old = b.reg('old');
  const prev = b.reg('prev');
  const next = b.reg('new');
  const flags = b.reg('flags');
  const top = b.label();
  const done = b.label();
  const skip = b.label();
  b.line(lst.at('read')).load(old, abs(c), { say: '{who} reads {cell}: old = {v}' });
  b.bind(top);
  b.line(lst.at('save'))
    .add(next, old, amount)
    .irqSave(flags, { say: '{who} disables its own interrupts (local_irq_save)' });
  b.line(lst.at('load')).load(prev, abs(c), { say: '{who} loads {cell}: prev = {v}' });
  b.line(lst.at('cmp')).branch(Cond.Ne, prev, old, skip);
  b.line(lst.at('store')).store(abs(c), next, {
    tally: amount,
    say: '{who} saw prev == old, so it stores new: {cell} {old} → {new}',
  });
  b.bind(skip);
  b.line(lst.at('restore')).irqRestore(flags, {
    say:
      handler === 'irq'
        ? '{who} restores the saved flags: interrupts stay off inside the handler'
        : handler === 'nmi'
          ? '{who} restores the saved flags (an NMI runs with interrupts off)'
          : '',
  });
  b.line(lst.at('call')).branch(Cond.Eq, prev, old, done);
  b.line(lst.at('retry')).mov(old, prev).jump(top, {
    say: 'cmpxchg_local returned prev ≠ old: c changed, retry with old = prev',
  });
  b.bind(done);
  return b.build();
}

export const cmpxchgLocalGeneric = defineScenario({
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
  build(p, opts) {
    const variant = variantOf(p);
    const cpus = variant === 'smp' ? 2 : 1;
    const L = new LayoutBuilder(cpus, opts);
    const c = L.cell('c', 'c', 's64', intParam(p, 'initial'));
    const lst = listingOf(variant);
    const amount = intParam(p, 'amount');
    const other = intParam(p, 'otherAmount');
    const tasks: TaskSpec[] = [
      { name: 'T0', cpu: 0, program: addProgram('T0', lst, c, amount, '') },
    ];
    if (variant === 'smp')
      tasks.push({ name: 'T1', cpu: 1, program: addProgram('T1', lst, c, other, '') });
    const handler = variant === 'smp' ? null : addProgram(variant, lst, c, other, variant);
    return {
      params: p,
      machine: compile({
        cpus,
        wordBits: 64,
        layout: L.build(),
        tasks,
        irq: variant === 'irq' ? [handler] : [],
        nmi: variant === 'nmi' ? [handler] : [],
      }),
      listing: {
        lines: lst.lines,
        notes: [
          ...NOTES[variant],
          'succeeded counts the cmpxchg_local calls that returned prev == old (each completed add ends with one). exact is initial plus every add that reported success.',
        ],
      },
    };
  },
  observables: () => [
    {
      name: 'c',
      description: 'c at the end',
      read: (m, s) => readCell(m, s, 'c'),
    },
    {
      name: 'succeeded',
      description: 'How many cmpxchg_local calls reported success (returned prev == old)',
      read: (m, s, p) => {
        let n = 0;
        for (let ctx = 0; ctx < m.contexts; ctx++) {
          const amount = ctx === 0 ? intParam(p, 'amount') : intParam(p, 'otherAmount');
          n += Number(contextTally(m, s, ctx)) / amount;
        }
        return n;
      },
    },
    {
      name: 'exact',
      description: 'initial + every amount whose cmpxchg_local reported success',
      read: (m, s, p) => plus(intParam(p, 'initial'), totalTally(m, s)),
    },
  ],
  invariants: [cellHoldsEveryAdd('c', 'c')],
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
        "Reference §6f part 4: the task's compare passes (prev = 10); an NMI runs its own cmpxchg_local 10→15; the task then stores 11 and returns prev = 10, so it believes it succeeded. c = 11: the NMI's +5 is lost.",
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
