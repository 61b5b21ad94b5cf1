// percpu-seq-multi: Eric Dumazet's V2 of "percpu_counter: scalability works" (13 May 2011), as
// announced in his V1 mail: a count of sums in flight instead of a bit (so several sums can run),
// no spinlock, and a separate `add_did_change_fbc_count` instead of bumping the sequence. The code
// is not at hand: this is a reconstruction, in two variants.
// - as-described: a fold is atomic64_add, delta reset, then changed++. Without the lock nothing
//   makes the three one unit, so a sum can read fbc->count after the add and the delta before the
//   reset, and check `changed` before the bump: Tejun's window, unnoticed.
// - guarded: the fold also counts itself in `changing` while it runs; the sum waits for
//   `changing` to be 0 and rejects a pass during which it was not: no idealised multi-word step
//   is needed, and no sum accepts a half-done fold.
// Reference §2.5 (V2 as described; "This reference has no separate model of V2").

import { PERCPU_2011_GROUP } from '../groups.ts';
import { abs } from '../../machine/builder.ts';
import { Cond, Kind } from '../../machine/isa.ts';
import * as percpu from '../percpu/index.ts';
import { choiceParam, intSpec } from '../params.ts';
import { defineScenario, type VariantOf, variants } from '../define.ts';

const VARIANT = variants(
  ['guarded', 'as-described'],
  'guarded',
  'as-described: changed++ after the fold; guarded: the fold also counts itself in `changing`',
);
type Variant = VariantOf<typeof VARIANT>;

const listing = percpu.counterListing({
  fields: [
    '\tatomic_t sums;                    /* sums in flight (V1 had a bit) */',
    '\tatomic_t changed;                 /* add_did_change_fbc_count */',
    '\tatomic_t changing;                /* folds under way (guarded variant) */',
    '\tatomic64_t count;',
    '\tatomic64_t slowcount;',
    '\ts32 __percpu *counters;',
  ],
  add: [
    '\tpreempt_disable();',
    '\tif (atomic_read(&fbc->sums)) {    /* a sum is in flight */',
    '\t\tatomic64_add(amount, &fbc->slowcount);',
    '\t\tgoto out;',
    '\t}',
    ...percpu.batchTest([
      '\t\tatomic_inc(&fbc->changing);     /* guarded variant */',
      '\t\tatomic64_add(count, &fbc->count);',
      '\t\t__this_cpu_write(*fbc->counters, 0);',
      '\t\tatomic_inc(&fbc->changed);',
      '\t\tatomic_dec(&fbc->changing);     /* guarded variant */',
    ]),
    'out:',
    '\tpreempt_enable();',
  ],
  sum: [
    '\ts64 ret;',
    '\tint changed, cpu;',
    '',
    '\tatomic_inc(&fbc->sums);           /* no spinlock */',
    'again:',
    '\twhile (atomic_read(&fbc->changing))   /* guarded variant */',
    '\t\tcpu_relax();',
    '\tchanged = atomic_read(&fbc->changed);',
    '\tret = atomic64_read(&fbc->count) + atomic64_read(&fbc->slowcount);',
    ...percpu.addEveryDelta,
    '\tif (atomic_read(&fbc->changing) ||    /* guarded variant */',
    '\t    atomic_read(&fbc->changed) != changed)',
    '\t\tgoto again;',
    '\tatomic_dec(&fbc->sums);',
  ],
  read: 'return atomic64_read(&fbc->count) + atomic64_read(&fbc->slowcount);',
});

export const percpuSeqMulti = defineScenario({
  id: 'percpu-seq-multi',
  title: "Several sums in flight, no spinlock (Eric's V2)",
  group: PERCPU_2011_GROUP,
  source:
    'Eric Dumazet, "Re: [patch] percpu_counter: scalability works", LKML, 13 May 2011, <1305301151.3866.39.camel@edumazet-laptop> (V2 announced there, posted 16:35 the same day)',
  summary:
    'A count of sums in flight lets several sums run and drops the spinlock; without the lock, the fold must announce itself or a sum can accept a half-done transfer.',
  reconstruction: true,
  params: percpu.parameters(
    [
      VARIANT.param,
      intSpec(
        'summer2',
        2,
        [-1, 63],
        'A second CPU that calls percpu_counter_sum() at the same time (−1: none)',
      ),
    ],
    { cpus: 3 },
  ),
  presets: {
    kernel: percpu.kernelPreset,
    'half-done-fold': {
      description:
        'One summer; CPU0 at delta 3 adds 1, so its fold can land in the middle of a sum (the half-done-fold-accepted witness)',
      apply: () => ({ summer2: -1, slots: [3], amounts: [1, 0], adds: [1] }),
    },
  },
  explorePresets: { 'as-described': 'half-done-fold' },
  build(p, opts) {
    const v = choiceParam(p, 'variant') as Variant;
    const guarded = v === 'guarded';
    const r = percpu.rolesOf(p);
    const c = percpu.counterLayout(
      p,
      r,
      (L) => ({
        sums: L.cell('sums', 'fbc->sums', 's32', 0),
        changed: L.cell('changed', 'fbc->changed', 's32', 0),
        changing: L.cell('changing', 'fbc->changing', 's32', 0),
        slow: L.cell('slowcount', 'fbc->slowcount', 's64', 0),
      }),
      opts,
    );
    const { sums, changed, changing, slow } = c.cells;
    const tasks = percpu.tasksOf(c, r, 64, {
      add: (b, amount) => {
        const n = b.reg('sums');
        const out = b.label();
        b.line(14).preemptDisable();
        b.line(15).load(n, abs(sums), { say: '{who} checks fbc->sums: {v} sum(s) in flight' });
        b.ifThen(Cond.Ne, n, 0, () => {
          b.line(16).atomicAdd(abs(slow), amount, {
            tally: amount,
            say: '{who} adds {v} to fbc->slowcount instead of its delta: {new}',
          });
          b.jump(out);
        });
        percpu.batchedAdd(b, c, r, amount, { read: 19, test: 20, fast: 27 }, (count) => {
          if (guarded) {
            b.line(21).atomicAdd(abs(changing), 1, {
              say: '{who} announces a fold: fbc->changing = {new}',
            });
          }
          percpu.atomicFold(b, c, count, 22);
          percpu.resetDelta(b, c, amount, 23);
          b.line(24).atomicAdd(abs(changed), 1, {
            kind: Kind.SeqBump,
            say: '{who} bumps fbc->changed: {new}',
          });
          if (guarded) {
            b.line(25).atomicAdd(abs(changing), -1, {
              say: '{who} ends its fold: fbc->changing = {new}',
            });
          }
        });
        b.bind(out);
        b.line(30).preemptEnable();
      },
      sum: (b, ret) => {
        const ch = b.reg('changed');
        const now = b.reg('now');
        const busy = b.reg('busy');
        const sl = b.reg('slow');
        const again = b.label();
        b.line(38).atomicAdd(abs(sums), 1, { say: '{who} announces its sum: fbc->sums = {new}' });
        b.bind(again);
        if (guarded) {
          const wait = b.label();
          b.bind(wait);
          b.line(40).load(busy, abs(changing), { say: '{who} checks fbc->changing: {v}' });
          b.branch(Cond.Ne, busy, 0, wait, { say: 'a fold is under way: it waits' });
        }
        b.line(42).load(ch, abs(changed), { say: '{who} notes fbc->changed = {v}' });
        b.line(43)
          .load(ret, abs(c.count), { say: '{who} reads fbc->count: ret = {v}' })
          .load(sl, abs(slow), { say: '{who} adds fbc->slowcount {v}: ret = {r:ret}' })
          .add(ret, ret, sl);
        percpu.addEverySlot(b, c, r, ret, 45);
        if (guarded) {
          b.line(46).load(busy, abs(changing), { say: '{who} checks fbc->changing again: {v}' });
          b.branch(Cond.Ne, busy, 0, again, {
            kind: Kind.SumRetry,
            say: 'a fold started during the scan: the sum starts over',
          });
        }
        b.line(47).load(now, abs(changed), { say: '{who} checks fbc->changed: {v}' });
        b.line(48).branch(Cond.Ne, now, ch, again, {
          kind: Kind.SumRetry,
          say: 'a fold ran during the scan: the sum starts over',
        });
        b.line(49).atomicAdd(abs(sums), -1, { say: '{who} is done: fbc->sums = {new}' });
      },
      read: (b, ret) => {
        const sl = b.reg('slow');
        b.line(55).load(ret, abs(c.count)).load(sl, abs(slow)).add(ret, ret, sl);
      },
    });
    return percpu.instanceOf(p, c, r, tasks, {
      lines: listing,
      notes: [
        'Reconstruction: V2 is known only from its announcement in the V1 mail (several sums, an atomic count instead of the bit, no spinlock, a separate changed count). The lines marked "guarded variant" are ours.',
        "as-described bumps `changed` after the fold: a sum can see fbc->count after the atomic64_add and the delta before its reset, then `changed` before the bump, and accept the batch twice (Tejun's objection to lockless transfers).",
        'guarded adds `changing`: the sum waits until no fold is under way and rejects a scan during which one started, so every accepted scan saw each fold either wholly or not at all.',
        'While any sum is in flight, new adds go to slowcount, so only folds already under way can make a sum start over: at most once per CPU.',
        "V2 is said to remove one atomic operation from _add(); which one is not known. Here `changed` is an atomic_inc, which keeps the sum's check exact.",
      ],
    });
  },
  observables: (p) => percpu.observables(p, [percpu.slowcountObservable, percpu.retriesObservable]),
  invariants: percpu.slowcountInvariants,
  // No migration by default: adders run with preemption off, and two summers already make a
  // large space (400 k states with one migration, 82 k without).
  guarantees: VARIANT.guarantees({
    guarded: [...percpu.CORRECT, 'retries-bounded'],
    'as-described': ['no-lost-update', 'read-within-bound', 'slot-below-batch', 'retries-bounded'],
  }),
  witnesses: [
    VARIANT.witness('as-described', {
      name: 'half-done-fold-accepted',
      description:
        "as-described: CPU0 (delta 3) passes the sums check and folds 4; CPU1's sum reads fbc->count after the atomic64_add, CPU0's delta before its reset, and `changed` before the bump: it returns 7 while the true value is 3, then 4.",
      params: { summer2: -1, ...percpu.ONE_FOLD_OF_4 },
      schedule: '0 0 1 1 0 0 1*7 0*3',
      expect: { sum: 7, count: 4, exact: 4, retries: 0 },
      violates: ['sum-within-window'],
    }),
    VARIANT.witness('guarded', {
      name: 'guarded-rescans',
      description:
        'guarded, same moment: CPU0 has announced its fold in `changing`, so the sum rejects the pass, waits for the fold to end and returns 4.',
      params: { summer2: -1, ...percpu.ONE_FOLD_OF_4 },
      schedule: '0 0 1 1 1 0 0 0 1*6 0*4 1*10',
      expect: { sum: 4, count: 4, exact: 4, retries: 1 },
    }),
  ],
  lesson: {
    summary:
      'Counting sums in flight lets several sums run at once, and dropping the spinlock removes the last shared lock. But the lock was what made a fold (add to the global, reset the delta, bump the change count) one unit for the sum: without it, a change count bumped after the fold leaves a window in which a sum sees the fold half done and does not notice. A fold that announces itself before it starts, and a sum that waits it out, close the window.',
    question:
      "No spinlock: CPU0 folds with atomic64_add, then resets its delta, then increments `changed`. Can a sum that checks `changed` before and after its scan still count CPU0's batch twice?",
    answer:
      'Yes, if its whole second check happens before the increment: it read fbc->count after the atomic64_add and the delta before the reset, and `changed` never moved while it looked.',
  },
});
