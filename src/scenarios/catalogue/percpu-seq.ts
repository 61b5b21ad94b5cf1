// percpu-seq: Eric Dumazet's "[patch] percpu_counter: scalability works" V1 (13 May 2011), as a
// reconstruction from his mail (the code is not at hand). The low bit of fbc->sequence says "a sum
// is in flight": new adds then go to fbc->slowcount and leave the deltas alone; an add that was
// already folding bumps the sequence by 2, so the sum rescans. Because only adds that started
// before the bit was set can still fold, the sum retries at most once per CPU.
// Reference §2.5 (model), walk-through §6d part 2.

import { PERCPU_2011_GROUP } from '../groups.ts';
import { abs } from '../../machine/builder.ts';
import { Cond, Kind } from '../../machine/isa.ts';
import * as percpu from '../percpu/index.ts';
import { readCell } from '../observe.ts';
import { intParam, ParamError, intSpec } from '../params.ts';
import { defineScenario } from '../define.ts';

const listing = percpu.counterListing({
  fields: [
    '\tspinlock_t lock;                 /* serialises sums and transfers */',
    '\tunsigned int sequence;           /* low bit: a sum is in flight; +2 per transfer */',
    '\ts64 count;',
    '\tatomic64_t slowcount;            /* adds made while a sum is in flight */',
    '\ts32 __percpu *counters;',
  ],
  add: [
    '\tpreempt_disable();',
    '\tif (fbc->sequence & 1) {         /* a sum is in flight: keep off the deltas */',
    '\t\tatomic64_add(amount, &fbc->slowcount);',
    '\t\tgoto out;',
    '\t}',
    ...percpu.batchTest([
      '\t\tspin_lock(&fbc->lock);',
      '\t\tfbc->count += count;',
      '\t\t__this_cpu_write(*fbc->counters, 0);',
      '\t\tfbc->sequence += 2;             /* tell a running sum to look again */',
      '\t\tspin_unlock(&fbc->lock);',
    ]),
    'out:',
    '\tpreempt_enable();',
  ],
  sum: [
    '\ts64 ret;',
    '\tunsigned int seq;',
    '\tint cpu;',
    '',
    '\tspin_lock(&fbc->lock);',
    '\tfbc->sequence |= 1;              /* from now on, new adds go to slowcount */',
    '\tspin_unlock(&fbc->lock);',
    'again:',
    '\tseq = fbc->sequence;',
    '\tret = fbc->count + atomic64_read(&fbc->slowcount);',
    ...percpu.addEveryDelta,
    '\tspin_lock(&fbc->lock);',
    '\tif (fbc->sequence != seq) {      /* a transfer ran meanwhile */',
    '\t\tspin_unlock(&fbc->lock);',
    '\t\tgoto again;',
    '\t}',
    '\tfbc->sequence++;                 /* clear the low bit: the sum is done */',
    '\tspin_unlock(&fbc->lock);',
  ],
  read: 'return fbc->count + atomic64_read(&fbc->slowcount);',
});

export const percpuSeq = defineScenario({
  id: 'percpu-seq',
  title: 'Sequence bit and slowcount: a sum that retries, boundedly',
  group: PERCPU_2011_GROUP,
  source:
    'Eric Dumazet, "Re: [patch] percpu_counter: scalability works", LKML, 13 May 2011, <1305301151.3866.39.camel@edumazet-laptop> (V1: <1305298300.3866.22.camel@edumazet-laptop>)',
  summary:
    'While a sum is in flight (sequence odd), adds go to slowcount; a fold that was already under way bumps the sequence and the sum rescans, at most once per CPU.',
  reconstruction: true,
  params: percpu.parameters([
    intSpec('sequence', 0, [0, 1_000_000], 'Initial fbc->sequence (even: no sum in flight)'),
  ]),
  presets: { kernel: percpu.kernelPreset },
  build(p, opts) {
    const r = percpu.rolesOf(p);
    const sequence = intParam(p, 'sequence');
    if (sequence % 2 !== 0) {
      throw new ParamError(`sequence must start even (no sum in flight), got ${sequence}`);
    }
    const c = percpu.counterLayout(
      p,
      r,
      (L) => ({
        lock: L.cell('lock', 'fbc->lock', 'lock'),
        seq: L.cell('sequence', 'fbc->sequence', 's32', sequence),
        slow: L.cell('slowcount', 'fbc->slowcount', 's64', 0),
      }),
      opts,
    );
    const { lock, seq, slow } = c.cells;
    // The kernel's unsigned sequence wraps at 2^32. With endless adders it would grow without
    // bound, so the model wraps it at the smallest power of two above 2 × cpus + 1 instead: a
    // sum compares it only for equality across one pass, during which at most one fold per CPU
    // can bump it (by 2), so the answer is the same, and explorations stay finite.
    const wrap = r.forever ? (1 << Math.ceil(Math.log2(2 * r.cpus + 2))) - 1 : 0xffffffff;
    const tasks = percpu.tasksOf(c, r, 64, {
      add: (b, amount) => {
        const sq = b.reg('seq');
        const out = b.label();
        b.line(13).preemptDisable();
        b.line(14).load(sq, abs(seq), {
          say: '{who} checks fbc->sequence: {v} ({odd?odd: a sum is in flight|even: no sum in flight})',
        });
        b.ifThen(Cond.BitSet, sq, 1, () => {
          b.line(15).atomicAdd(abs(slow), amount, {
            tally: amount,
            say: '{who} sees a sum in flight and adds {v} to fbc->slowcount instead: {new}',
          });
          b.jump(out);
        });
        percpu.batchedAdd(b, c, r, amount, { read: 18, test: 19, fast: 26 }, (count) => {
          percpu.lockedFold(b, c, r, lock, count, { lock: 20, fold: 21 });
          percpu.resetDelta(b, c, amount, 22);
          b.line(23).load(sq, abs(seq)).add(sq, sq, 2).and(sq, sq, wrap).store(abs(seq), sq, {
            kind: Kind.SeqBump,
            say: '{who} bumps fbc->sequence by 2: {new}',
          });
          b.line(24).spinUnlock(lock);
        });
        b.bind(out);
        b.line(29).preemptEnable();
      },
      sum: (b, ret) => {
        const sq = b.reg('seq');
        const now = b.reg('now');
        const sl = b.reg('slow');
        const again = b.label();
        b.line(38).spinLock(lock);
        b.line(39).load(sq, abs(seq)).or(sq, sq, 1).store(abs(seq), sq, {
          kind: Kind.SeqBump,
          say: '{who} sets the low bit of fbc->sequence: {new}, a sum is in flight',
        });
        b.line(40).spinUnlock(lock);
        b.bind(again);
        b.line(42).load(sq, abs(seq), { say: '{who} notes fbc->sequence = {v}' });
        b.line(43)
          .load(ret, abs(c.count), { say: '{who} reads fbc->count: ret = {v}' })
          .load(sl, abs(slow), { say: '{who} adds fbc->slowcount {v}: ret = {r:ret}' });
        b.add(ret, ret, sl);
        percpu.addEverySlot(b, c, r, ret, 45);
        b.line(46).spinLock(lock);
        b.line(47).load(now, abs(seq), { say: '{who} checks fbc->sequence: {v}' });
        b.ifThen(Cond.Ne, now, sq, () => {
          b.line(48).spinUnlock(lock, {
            say: '{who} finds the sequence changed: a fold ran meanwhile; it releases {cell}',
          });
          b.line(49).jump(again, { kind: Kind.SumRetry, say: 'the sum starts over' });
        });
        b.line(51).add(now, now, 1).and(now, now, wrap).store(abs(seq), now, {
          kind: Kind.SeqBump,
          say: '{who} clears the low bit: fbc->sequence = {new}',
        });
        b.line(52).spinUnlock(lock);
      },
      read: (b, ret) => {
        const sl = b.reg('slow');
        b.line(58).load(ret, abs(c.count)).load(sl, abs(slow)).add(ret, ret, sl);
      },
    });
    return percpu.instanceOf(p, c, r, tasks, {
      lines: listing,
      notes: [
        "Reconstruction from the mail: the V1 code is not at hand. Field names (sequence, slowcount) are Eric's.",
        'The fold and the sequence bump are made atomic by fbc->lock, and the sum checks the sequence under the same lock: a sum can then never accept a scan that overlapped a fold (the idealised one-step transfer of the reference, without an idealised multi-word step).',
        'slowcount is not folded back into fbc->count when the sum ends; read() returns fbc->count + slowcount.',
        'One sum at a time (V1 serialised sums); percpu-seq-multi lets several run.',
        'With adders=forever the sequence wraps at the smallest power of two above 2 × cpus + 1 instead of 2^32, so explorations stay finite; a pass sees at most one bump of 2 per CPU, so the sum decides the same.',
        'V1 disabled interrupts in add(); the model only needs preemption off (one add in progress per CPU).',
        'The thread describes the bump as atomic_add(2, &fbc->sequence); here it is a plain += 2 under fbc->lock, which the model needs anyway to make the fold and the bump one unit for the sum.',
      ],
    });
  },
  observables: (p) =>
    percpu.observables(p, [
      percpu.slowcountObservable,
      {
        name: 'sequence',
        description: 'fbc->sequence',
        read: (m, s) => readCell(m, s, 'sequence'),
      },
      percpu.retriesObservable,
    ]),
  invariants: percpu.slowcountInvariants,
  bounds: { migrations: 1 },
  guarantees: {
    '*': [...percpu.CORRECT, 'retries-bounded'],
  },
  witnesses: [
    {
      name: 'retry-once',
      description:
        'Reference §6d part 2: CPU0 is past the sequence check when CPU3 starts its sum; CPU0 folds 32 and bumps the sequence; CPU1 and CPU2 add to slowcount. The sum retries once and returns 1044.',
      params: { ...percpu.REFERENCE_6D, amounts: [1, 7, 2, 0], sequence: 4 },
      schedule: '0 0 3*4 3*3 0*8 3 1*4 3*3 3*3 3*3 2*4 3*4 3*4 0',
      expect: { sum: 1044, count: 1032, slowcount: 9, sequence: 8, retries: 1, exact: 1046 },
    },
  ],
  lesson: {
    summary:
      'The sequence counter lets a lockless scan detect that a fold ran during it and start over. The low bit stops the retries from going on forever: while it is set, new adds go to slowcount and never fold, so only the adds already under way can bump the sequence, at most one per CPU.',
    question:
      'A sum is in flight (sequence is odd). CPU1 calls add(+7). Where do the 7 go, and can this add make the sum retry?',
    answer:
      'Into fbc->slowcount, which the sum reads once per pass: CPU1 never touches its delta or fbc->count, so it cannot make the sum retry.',
  },
});
