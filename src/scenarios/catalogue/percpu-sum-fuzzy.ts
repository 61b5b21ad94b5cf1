// percpu-sum-fuzzy: the two retrying sums proposed on linux-mm in April 2011 for the lockless
// (atomic64) percpu_counter, before Eric's in-flight bit:
// - retry-delta: Shaohua Li's sum re-reads fbc->count after the scan and starts over if it moved
//   by more than batch × CPUs;
// - seqcount: Eric Dumazet's sum with `maxfuzzy`: adders bump a shared seqcount whenever they
//   change fbc->count; the sum starts over if it moved by maxfuzzy or more.
// Nothing stops adders from folding while a sum runs, so adders that keep overflowing can keep
// the sum retrying (a livelock, bounded here only because the adders stop), and the seqcount
// sum can still accept a scan that saw a fold half done. Reference §2.2 ("Fuzzy-bounded sums").

import { PERCPU_2011_GROUP } from '../groups.ts';
import { abs } from '../../machine/builder.ts';
import { Cond, Kind } from '../../machine/isa.ts';
import * as percpu from '../percpu/index.ts';
import { choiceParam, intParam, intSpec } from '../params.ts';
import { defineScenario, type VariantOf, variants } from '../define.ts';

const VARIANT = variants(['retry-delta', 'seqcount'], 'retry-delta', 'Which retrying sum');
type Variant = VariantOf<typeof VARIANT>;

const addListing = [
  ...percpu.addOpening,
  '\tpreempt_disable();',
  ...percpu.batchTest([
    '\t\tatomic64_add(count, &fbc->count);   /* no lock (the atomic64 design) */',
    '\t\t__this_cpu_write(*fbc->counters, 0);',
    '\t\tatomic_inc(&fbc->seqcount);         /* seqcount variant only */',
  ]),
  '\tpreempt_enable();',
  '}',
  '',
];

const readListing = [...percpu.readListing('return atomic64_read(&fbc->count);')];

const sumListings: Record<Variant, string[]> = {
  'retry-delta': [
    '/* Shaohua Li, linux-mm, 22 Apr 2011 */',
    's64 __percpu_counter_sum(struct percpu_counter *fbc)',
    '{',
    '\ts64 sum, old, new;',
    '\tint cpu;',
    'again:',
    '\tsum = 0;',
    '\told = atomic64_read(&fbc->count);',
    '\tfor_each_online_cpu(cpu)',
    '\t\tsum += *per_cpu_ptr(fbc->counters, cpu);',
    '\tnew = atomic64_read(&fbc->count);',
    '\tif (new - old > batch * num_online_cpus() || old - new > batch * num_online_cpus())',
    '\t\tgoto again;',
    '\treturn new + sum;',
    '}',
  ],
  seqcount: [
    '/* Eric Dumazet, linux-mm, 28 Apr 2011 (with his correction) */',
    's64 __percpu_counter_sum(struct percpu_counter *fbc, unsigned maxfuzzy)',
    '{',
    '\ts64 ret;',
    '\tunsigned int oldseq, newseq;',
    '\tint cpu;',
    'restart:',
    '\toldseq = fbc->seqcount;',
    '\tsmp_rmb();',
    '\tret = atomic64_read(&fbc->count);',
    ...percpu.addEveryDelta,
    '\tsmp_rmb();',
    '\tnewseq = fbc->seqcount;',
    '\tif (newseq - oldseq >= maxfuzzy)',
    '\t\tgoto restart;',
    '\treturn ret;',
    '}',
  ],
};

export const percpuSumFuzzy = defineScenario({
  id: 'percpu-sum-fuzzy',
  title: 'Retrying sums without an in-flight bit: fuzzy, and a livelock',
  group: PERCPU_2011_GROUP,
  source:
    "linux-mm \"Re: [PATCH] percpu: preemptless __per_cpu_counter_add\", Apr 2011: Shaohua Li's retrying sum <1303439580.3981.241.camel@sli10-conroe> (22 Apr), quoted in Tejun Heo's reply <20110426121011.GD878@htj.dyndns.org> (26 Apr); Eric Dumazet's seqcount sum <1304005726.3360.69.camel@edumazet-laptop>, corrected in <1304006345.3360.72.camel@edumazet-laptop> (28 Apr)",
  summary:
    'A sum that starts over when fbc->count moved can be kept retrying by adders that keep folding, and a seqcount bumped after the fold still lets a half-done transfer through.',
  reconstruction: false,
  params: percpu.parameters(
    [
      VARIANT.param,
      intSpec(
        'maxfuzzy',
        1,
        [1, 1000],
        'seqcount variant: restart when the seqcount moved this much or more',
      ),
    ],
    // Defaults that make every add fold (the adders "keep overflowing"): 3 CPUs, two adders.
    { cpus: 3, summer: 2, amounts: [20], adds: [2] },
  ),
  presets: { kernel: percpu.kernelPreset },
  build(p, opts) {
    const v = choiceParam(p, 'variant') as Variant;
    const maxfuzzy = intParam(p, 'maxfuzzy');
    const r = percpu.rolesOf(p);
    const c = percpu.counterLayout(
      p,
      r,
      (L) => L.cell('seqcount', 'fbc->seqcount', 's32', 0),
      opts,
    );
    const seqcount = c.cells;
    const off = addListing.length; // sum lines follow the add listing
    const tasks = percpu.tasksOf(c, r, 64, {
      add: (b, amount) => {
        b.line(5).preemptDisable();
        percpu.batchedAdd(b, c, r, amount, { read: 6, test: 7, fast: 12 }, (count) => {
          percpu.atomicFold(b, c, count, 8);
          percpu.resetDelta(b, c, amount, 9);
          if (v === 'seqcount') {
            b.line(10).atomicAdd(abs(seqcount), 1, {
              kind: Kind.SeqBump,
              say: '{who} bumps fbc->seqcount: {new}',
            });
          }
        });
        b.line(14).preemptEnable();
      },
      sum: (b, ret) => {
        const again = b.label();
        const old = b.reg('old');
        const now = b.reg('new');
        const d = b.reg('d');
        b.bind(again);
        if (v === 'retry-delta') {
          const limit = r.batch * r.cpus;
          b.line(off + 7).mov(ret, 0);
          b.line(off + 8).load(old, abs(c.count), {
            say: '{who} starts the sum: old = fbc->count = {v}',
          });
          percpu.addEverySlot(b, c, r, ret, off + 10, 'sum');
          b.line(off + 11).load(now, abs(c.count), {
            say: '{who} reads fbc->count again: new = {v}',
          });
          b.line(off + 12).sub(d, now, old);
          b.branch(Cond.AbsGe, d, limit + 1, again, {
            kind: Kind.SumRetry,
            say: `fbc->count moved by {r:d}, more than batch × CPUs = ${limit}: the sum starts over`,
          });
          b.line(off + 14).add(ret, ret, now);
        } else {
          b.line(off + 8).load(old, abs(seqcount), {
            say: '{who} reads fbc->seqcount: oldseq = {v}',
          });
          b.line(off + 10).load(ret, abs(c.count), { say: '{who} reads fbc->count: ret = {v}' });
          percpu.addEverySlot(b, c, r, ret, off + 12);
          b.line(off + 14).load(now, abs(seqcount), {
            say: '{who} reads fbc->seqcount again: newseq = {v}',
          });
          b.line(off + 15).sub(d, now, old);
          b.branch(Cond.Ge, d, maxfuzzy, again, {
            kind: Kind.SumRetry,
            say: `the seqcount moved by {r:d} (maxfuzzy ${maxfuzzy}): the sum starts over`,
          });
        }
      },
      read: (b, ret) => {
        b.line(off + sumListings[v].length + 1 + 3).load(ret, abs(c.count), {
          say: '{who} reads fbc->count: {v}',
        });
      },
    });
    return percpu.instanceOf(p, c, r, tasks, {
      lines: [...addListing, ...sumListings[v], '', ...readListing],
      notes: [
        'The sums are the code quoted in the thread; the adds are the reconstructed lockless atomic64 design of percpu-atomic64. Our choices: the seqcount bump comes right after the fold ("increment it each time one cpu changes global count"), and fbc->count is read with atomic64_read (Eric wrote `ret = fbc->count;` against the 2.6.39 s64).',
        "The model has finitely many adds, so the retries end when the adders stop; in the kernel, adders that keep overflowing could keep a sum retrying forever. percpu-seq's in-flight bit bounds the retries.",
        'smp_rmb() is not a step: every step of the model is already sequentially consistent.',
      ],
    });
  },
  observables: (p) => percpu.observables(p, [percpu.retriesObservable]),
  invariants: [
    percpu.counterHoldsEveryAdd(),
    percpu.readWithinBound(),
    percpu.sumWithinWindow,
    percpu.slotBelowBatch,
    percpu.retriesBounded,
  ],
  bounds: { migrations: 1 },
  guarantees: VARIANT.guarantees({
    'retry-delta': ['no-lost-update', 'read-within-bound', 'slot-below-batch'],
    seqcount: ['no-lost-update', 'read-within-bound', 'slot-below-batch'],
  }),
  witnesses: [
    VARIANT.witness('retry-delta', {
      name: 'delta-keeps-retrying',
      description:
        "Adders on CPU0 and CPU1 fold 20 at a time (more than batch × CPUs = 12): each lands during a pass of CPU2's sum, which starts over four times, more than once per CPU.",
      schedule: '2 0*5 2*4 2 1*5 2*4 2 0*5 2*4 2 1*5 2*4 2*5',
      expect: { sum: 80, count: 80, retries: 4, exact: 80 },
      violates: ['retries-bounded'],
    }),
    VARIANT.witness('seqcount', {
      name: 'seqcount-keeps-retrying',
      description:
        'The same adders against the seqcount sum with maxfuzzy 1: every fold restarts it.',
      schedule: '2 0*6 2*5 2 1*6 2*5 2 0*6 2*5 2 1*6 2*5 2*6',
      expect: { sum: 80, count: 80, retries: 4, exact: 80 },
      violates: ['retries-bounded'],
    }),
    VARIANT.witness('retry-delta', {
      name: 'delta-misses-a-half-done-fold',
      description:
        "Tejun Heo's objection: CPU0 (delta 3) adds 1 and folds 4 with atomic64_add; the sum reads old = 4 after it and CPU0's delta (still 3) before the reset, then new = 4: fbc->count did not move, so it accepts 7 while the true value is 3, then 4.",
      params: percpu.ONE_FOLD_OF_4,
      schedule: '0 0 0 2*5 0 0',
      expect: { sum: 7, count: 4, retries: 0, exact: 4 },
      violates: ['sum-within-window'],
    }),
    VARIANT.witness('seqcount', {
      name: 'seqcount-misses-a-half-done-fold',
      description:
        "CPU0 (delta 3) adds 1 and folds 4 into fbc->count; the sum reads fbc->count and CPU0's delta (still 3) before CPU0 bumps the seqcount, so it accepts 7 while the true value is 3, then 4.",
      params: percpu.ONE_FOLD_OF_4,
      schedule: '2 0 0 0 2*5 0*3',
      expect: { sum: 7, count: 4, retries: 0, exact: 4 },
      violates: ['sum-within-window'],
    }),
  ],
  lesson: {
    summary:
      'Re-reading the global (or a sequence counter) after the scan lets a lockless sum notice that a fold ran during it and start over. But nothing stops new folds, so adders that keep overflowing can keep the sum retrying: a livelock. And a counter bumped after the fold leaves a window in which a half-done transfer still goes unnoticed.',
    question:
      'Two CPUs keep adding 20 with batch 4 on 3 CPUs: every add folds (20 ≥ batch), and each fold moves fbc->count by more than batch × CPUs = 12. How many times can a retrying sum start over?',
    answer:
      "Without limit: every fold during a pass makes it start over. Eric's in-flight bit (percpu-seq) stops new folds while a sum runs, which bounds the retries to one per CPU.",
  },
});
