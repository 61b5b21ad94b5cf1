// percpu-modern: mainline percpu_counter_add_batch() and the IRQ user it must survive.
// - preempt-only: v4.13-era code (preempt_disable, then this_cpu_add on the fast path). An IRQ
//   between the decision and the add pushes the delta past the batch (Manfred Spraul, Dec 2022).
// - irqsave: the fix (~v6.3): local_irq_save around the decision and the update.
// - try-cmpxchg: v6.11 (Mateusz Guzik, May 2024): a this_cpu_try_cmpxchg loop, no irq-off on
//   the fast path; the slow path re-reads the delta under the lock.
// Reference §3.2, §3.3, §6f ("Compare the Dec-2022 bug").

import { PERCPU_MAINLINE_GROUP } from '../groups.ts';
import {
  abs,
  type ProgramBuilder,
  type Reg,
  thisCpu,
  ProgramBuilder as Builder,
} from '../../machine/builder.ts';
import { Cond, Kind, type Program } from '../../machine/isa.ts';
import { defineScenario, type VariantOf, variants } from '../define.ts';
import type { Cell } from '../../machine/layout.ts';
import * as percpu from '../percpu/index.ts';
import { irqsDelivered } from '../observe.ts';
import { choiceParam, intParam, intSpec } from '../params.ts';

const VARIANT = variants(
  ['preempt-only', 'irqsave', 'try-cmpxchg'],
  'preempt-only',
  'Which mainline version of percpu_counter_add_batch()',
);
type Variant = VariantOf<typeof VARIANT>;

/**
 * The Dec-2022 moment (reference §6f): CPU0's delta is 20 with batch 32 and it adds 10 once,
 * while its IRQ handler adds 10 too; no summer. Every variant's witness starts from it.
 */
const IRQ_ON_20 = {
  batch: 32,
  slots: [20],
  amounts: [10, 0],
  adds: [1],
  summer: -1,
  irqAmount: 10,
};

const addListings: Record<Variant, string[]> = {
  'preempt-only': [
    '/* ~v4.13 .. v6.2: preemption off, interrupts on (abs() came with a later cleanup) */',
    'void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)',
    '{',
    '\ts64 count;',
    '',
    '\tpreempt_disable();',
    '\tcount = __this_cpu_read(*fbc->counters) + amount;',
    '\tif (abs(count) >= batch) {',
    '\t\tunsigned long flags;',
    '\t\traw_spin_lock_irqsave(&fbc->lock, flags);',
    '\t\tfbc->count += count;',
    '\t\t__this_cpu_sub(*fbc->counters, count - amount);',
    '\t\traw_spin_unlock_irqrestore(&fbc->lock, flags);',
    '\t} else {',
    '\t\tthis_cpu_add(*fbc->counters, amount);   /* an IRQ may have run since the test */',
    '\t}',
    '\tpreempt_enable();',
    '}',
  ],
  irqsave: [
    '/* ~v6.3 (Manfred Spraul, Dec 2022): decision and update under local_irq_save */',
    'void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)',
    '{',
    '\ts64 count;',
    '\tunsigned long flags;',
    '',
    '\tlocal_irq_save(flags);',
    '\tcount = __this_cpu_read(*fbc->counters) + amount;',
    '\tif (abs(count) >= batch) {',
    '\t\traw_spin_lock(&fbc->lock);',
    '\t\tfbc->count += count;',
    '\t\t__this_cpu_sub(*fbc->counters, count - amount);',
    '\t\traw_spin_unlock(&fbc->lock);',
    '\t} else {',
    '\t\tthis_cpu_add(*fbc->counters, amount);',
    '\t}',
    '\tlocal_irq_restore(flags);',
    '}',
  ],
  'try-cmpxchg': [
    '/* v6.11 (Mateusz Guzik, May 2024), CONFIG_HAVE_CMPXCHG_LOCAL */',
    'void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)',
    '{',
    '\ts64 count;',
    '\tunsigned long flags;',
    '',
    '\tcount = this_cpu_read(*fbc->counters);',
    '\tdo {',
    '\t\tif (unlikely(abs(count + amount) >= batch)) {',
    '\t\t\traw_spin_lock_irqsave(&fbc->lock, flags);',
    '\t\t\t/* we may have migrated, or the delta changed */',
    '\t\t\tcount = __this_cpu_read(*fbc->counters);',
    '\t\t\tfbc->count += count + amount;',
    '\t\t\t__this_cpu_sub(*fbc->counters, count);',
    '\t\t\traw_spin_unlock_irqrestore(&fbc->lock, flags);',
    '\t\t\treturn;',
    '\t\t}',
    '\t} while (!this_cpu_try_cmpxchg(*fbc->counters, &count, count + amount));',
    '}',
  ],
};

const sumListing = [
  ...percpu.sumOpening,
  '\tunsigned long flags;',
  '',
  '\traw_spin_lock_irqsave(&fbc->lock, flags);',
  '\tret = fbc->count;',
  '\tfor_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)',
  '\t\tret += *per_cpu_ptr(fbc->counters, cpu);',
  '\traw_spin_unlock_irqrestore(&fbc->lock, flags);',
  '\treturn ret;',
  '}',
];

/** Writes one add of `amount` in the given variant; lines follow addListings (1-based). */
function writeAdd(
  b: ProgramBuilder,
  v: Variant,
  c: percpu.Counter,
  lock: Cell,
  batch: number,
  amount: number,
) {
  const count = b.reg('count');
  const g = b.reg('global');
  const d = b.reg('d');
  const t = b.reg('t');
  const flags = b.reg('flags');
  const slot = thisCpu(c.slots);
  const fold = (line: number, folded: Reg) => {
    b.line(line).load(g, abs(c.count)).add(g, g, folded).store(abs(c.count), g, {
      kind: Kind.Fold,
      say: '{who} folds into fbc->count: {old} → {new}',
    });
  };
  if (v === 'preempt-only' || v === 'irqsave') {
    // Listing lines: the irqsave version has one more declaration before the body.
    const L = v === 'irqsave' ? { first: 7, read: 8, test: 9 } : { first: 6, read: 7, test: 8 };
    if (v === 'irqsave') b.line(L.first).irqSave(flags);
    else b.line(L.first).preemptDisable();
    b.line(L.read).load(count, slot, { say: '{who} reads {cell}: {v}' }).add(count, count, amount);
    b.line(L.test).ifThen(
      Cond.AbsGe,
      count,
      batch,
      () => {
        if (v === 'preempt-only') b.line(10).irqSave(flags);
        b.line(10).spinLock(lock, {
          kind: Kind.Overflow,
          say: `{cpu}'s delta would reach ±${batch}: {who} takes {cell} to fold it`,
        });
        fold(11, count);
        // __this_cpu_sub(counters, count − amount): one x86 `sub %gs:`, adding amount − count.
        b.line(12).mov(d, amount).sub(d, d, count).localAdd(slot, d, t, {
          tally: amount,
          sayHead: '{who} starts __this_cpu_sub: {cell} is {v}',
          say: '{who} subtracts what it folded: {cell} is {new}',
        });
        b.line(13).spinUnlock(lock);
        if (v === 'preempt-only') b.irqRestore(flags);
      },
      () => {
        b.line(15).localAdd(slot, amount, t, {
          tally: amount,
          sayHead: '{who} starts this_cpu_add: {cell} is {v}',
          say: '{who} finishes this_cpu_add: {cell} is {new}',
        });
      },
    );
    if (v === 'irqsave') b.line(17).irqRestore(flags);
    else b.line(17).preemptEnable();
    return;
  }
  // try-cmpxchg
  const n = b.reg('new');
  const old = b.reg('old');
  const top = b.label();
  const done = b.label();
  b.line(7).load(count, slot, { say: '{who} reads {cell}: {v}' });
  b.bind(top);
  b.line(9).add(n, count, amount);
  b.ifThen(Cond.AbsGe, n, batch, () => {
    b.line(10)
      .irqSave(flags)
      .spinLock(lock, {
        kind: Kind.Overflow,
        say: `{cpu}'s delta would reach ±${batch}: {who} takes {cell} to fold it`,
      });
    b.line(12)
      .load(count, slot, { say: '{who} re-reads {cell} under the lock: {v}' })
      .add(n, count, amount);
    fold(13, n);
    b.line(14).mov(d, 0).sub(d, d, count).localAdd(slot, d, t, {
      tally: amount,
      sayHead: '{who} starts __this_cpu_sub: {cell} is {v}',
      say: '{who} subtracts what it folded: {cell} is {new}',
    });
    b.line(15).spinUnlock(lock).irqRestore(flags);
    b.line(16).jump(done);
  });
  b.line(18).cmpxchgLocal(old, slot, count, n, {
    tally: amount,
    sayHead: "{who}'s this_cpu_try_cmpxchg finds {cell} at {v}",
    say: "{who}'s this_cpu_try_cmpxchg stores {new}: done",
  });
  b.branch(Cond.Eq, old, count, done);
  b.mov(count, old).jump(top, {
    say: 'not the value it expected, so count = {r:count} and it tries again',
  });
  b.bind(done);
}

const readListing = [...percpu.readListing('return fbc->count;')];

function listingOf(v: Variant): string[] {
  return [...addListings[v], '', ...sumListing, '', ...readListing];
}

export const percpuModern = defineScenario({
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
  build(p, opts) {
    const v = choiceParam(p, 'variant') as Variant;
    const r: percpu.Roles = percpu.rolesOf(p);
    const c = percpu.counterLayout(p, r, (L) => L.cell('lock', 'fbc->lock', 'lock'), opts);
    const lock = c.cells;
    const tasks = percpu.tasksOf(c, r, 64, {
      add: (b, amount) => {
        writeAdd(b, v, c, lock, r.batch, amount);
      },
      sum: (b, ret) => {
        const off = addListings[v].length + 1;
        const flags = b.reg('flags');
        b.line(off + 7)
          .irqSave(flags)
          .spinLock(lock);
        b.line(off + 8).load(ret, abs(c.count), {
          say: '{who} starts the sum: ret = fbc->count = {v}',
        });
        percpu.addEverySlot(b, c, r, ret, off + 10);
        b.line(off + 11)
          .spinUnlock(lock)
          .irqRestore(flags);
      },
      read: (b, ret) => {
        const line = addListings[v].length + 1 + sumListing.length + 1 + 3;
        b.line(line).load(ret, abs(c.count), { say: '{who} reads fbc->count: {v}' });
      },
    });
    const irqAmount = intParam(p, 'irqAmount');
    let irq: (Program | null)[] | undefined;
    if (irqAmount !== 0) {
      const h = new Builder('irq0');
      writeAdd(h, v, c, lock, r.batch, irqAmount);
      irq = [h.build()];
    }
    return {
      params: p,
      machine: percpu.machineOf(c, r, 64, tasks, irq),
      listing: {
        lines: listingOf(v),
        notes: [
          'The IRQ handler on CPU0 runs the same percpu_counter_add_batch() with irqAmount.',
          'this_cpu_add, __this_cpu_sub and this_cpu_try_cmpxchg are single x86 instructions: no interrupt can split them (their load and store are two steps that only another CPU can come between).',
          "Since about v4.13 the slow path subtracts what it folded instead of writing 0, so an IRQ's delta that lands in between is kept.",
        ],
      },
    };
  },
  observables: (p) =>
    percpu.observables(p, [
      { name: 'irqs', description: 'IRQs delivered', read: (m, s) => irqsDelivered(m, s) },
    ]),
  invariants: [
    percpu.counterHoldsEveryAdd(),
    percpu.readWithinBound(),
    percpu.sumWithinWindow,
    percpu.slotBelowBatch,
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
        'Reference §6f (Dec-2022 bug): CPU0 decides on the fast path (20 + 10 < 32), an IRQ adds 10 (delta 30), then this_cpu_add makes the delta 40: past the batch.',
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
        "Reference §6f: the task reads 20; the IRQ's try_cmpxchg 20→30 succeeds; the task's try_cmpxchg fails and reloads 30; 30 + 10 ≥ 32, so it folds 40 under the lock.",
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
