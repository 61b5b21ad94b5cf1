// percpu-seq: Eric Dumazet's "[patch] percpu_counter: scalability works" V1 (13 May 2011), as a
// reconstruction from his mail (the code is not at hand). The low bit of fbc->sequence says "a sum
// is in flight": new adds then go to fbc->slowcount and leave the deltas alone; an add that was
// already folding bumps the sequence by 2, so the sum rescans. Because only adds that started
// before the bit was set can still fold, the sum retries at most once per CPU.

import { PERCPU_2011_GROUP } from '../groups.ts';
import * as percpu from '../percpu/index.ts';
import { counterText, RETRYING_CLAUSES } from '../percpu/text.ts';
import { intParam, ParamError, intSpec } from '../params.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

/**
 * The kernel's unsigned sequence wraps at 2^32. With endless adders it would grow without
 * bound, so the model wraps it at the smallest power of two above 2 × cpus + 1 instead: a sum
 * compares it only for equality across one pass, during which at most one fold per CPU can bump
 * it (by 2), so the answer is the same, and explorations stay finite.
 */
function bump(p: Params, what: string, by: string): string {
  const r = percpu.rolesOf(p);
  if (!r.forever) return by === '2' ? `fbc->sequence += 2;` : `fbc->sequence = ${what} + ${by};`;
  return `fbc->sequence = (${what} + ${by}) & SEQUENCE_WRAP;`;
}

function functions(p: Params): string {
  const add = percpu.batchAdd({
    inFlight: {
      test: 'fbc->sequence & 1',
      comment: '\t\t/* a sum is in flight: keep off the deltas */',
    },
    fold: [
      'spin_lock(&fbc->lock);',
      'fbc->count += count;',
      '__this_cpu_write(*fbc->counters, 0);',
      `${bump(p, 'fbc->sequence', '2')}\t\t/* tell a running sum to look again */`,
      'spin_unlock(&fbc->lock);',
    ],
  });
  return `
${add}

s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	unsigned int seq, now;
	int cpu;

	spin_lock(&fbc->lock);
	fbc->sequence |= 1;			/* from now on, new adds go to slowcount */
	spin_unlock(&fbc->lock);
again:
	seq = fbc->sequence;
	ret = fbc->count + atomic64_read(&fbc->slowcount);
	for_each_online_cpu(cpu)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	spin_lock(&fbc->lock);
	now = fbc->sequence;
	if (now != seq) {			/* a transfer ran meanwhile */
		spin_unlock(&fbc->lock);
		goto again;
	}
	${bump(p, 'now', '1')}		/* clear the low bit: the sum is done */
	spin_unlock(&fbc->lock);
	return ret;
}

s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return fbc->count + atomic64_read(&fbc->slowcount);
}
`;
}

function text(p: Params): string {
  const r = percpu.rolesOf(p);
  const sequence = intParam(p, 'sequence');
  if (sequence % 2 !== 0)
    throw new ParamError(`sequence must start even (no sum in flight), got ${sequence}`);
  const wrap = (1 << Math.ceil(Math.log2(2 * r.cpus + 2))) - 1;
  return counterText(p, {
    id: 'percpu-seq',
    about: [
      'Eric Dumazet\'s V1 of "percpu_counter: scalability works" (13 May 2011), reconstructed from',
      'his mail: the low bit of fbc->sequence says a sum is in flight.',
    ],
    fields: [
      '\tspinlock_t lock;\t\t\t/* serialises sums and transfers */',
      '\tunsigned int sequence;\t\t/* low bit: a sum is in flight; +2 per transfer */',
      '\ts64 count;',
      '\tatomic64_t slowcount;\t\t/* adds made while a sum is in flight */',
      '\ts32 __percpu *counters;',
    ],
    init: [`.sequence = ${sequence}`],
    defines: r.forever ? [`#define SEQUENCE_WRAP ${wrap}\t\t/* see the notes */`] : [],
    functions: functions(p),
    counter: ['parts fbc.slowcount;', 'sequence fbc.sequence, inflight;'],
    observe: [
      'observe slowcount = fbc.slowcount;',
      'observe sequence = fbc.sequence;',
      'observe retries;',
    ],
    invariants: RETRYING_CLAUSES,
  });
}

export default textScenario({
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
  text,
  underTso:
    'Under memory tso the outcomes are those under sc (a test explores both): the sequence protocol needs stores kept in order and loads kept in order, which x86 keeps (on Arm it would need smp_wmb() and smp_rmb()).',
  notes: () => [
    "Reconstruction from the mail: the V1 code is not at hand. Field names (sequence, slowcount) are Eric's.",
    'The fold and the sequence bump are made atomic by fbc->lock, and the sum checks the sequence under the same lock: a sum can then never accept a scan that overlapped a fold (the idealised one-step transfer, without an idealised multi-word step).',
    'slowcount is not folded back into fbc->count when the sum ends; read() returns fbc->count + slowcount.',
    'One sum at a time (V1 serialised sums); percpu-seq-multi lets several run.',
    'With adders=forever the sequence wraps at the smallest power of two above 2 × cpus + 1 instead of 2^32, so explorations stay finite; a pass sees at most one bump of 2 per CPU, so the sum decides the same.',
    'V1 disabled interrupts in add(); the model only needs preemption off (one add in progress per CPU).',
    'The thread describes the bump as atomic_add(2, &fbc->sequence); here it is a plain += 2 under fbc->lock, which the model needs anyway to make the fold and the bump one unit for the sum.',
  ],
  bounds: { migrations: 1 },
  guarantees: {
    '*': [...percpu.CORRECT, 'retries-bounded'],
  },
  witnesses: [
    {
      name: 'retry-once',
      description:
        'CPU0 is past the sequence check when CPU3 starts its sum; CPU0 folds 32 and bumps the sequence; CPU1 and CPU2 add to slowcount. The sum retries once and returns 1044.',
      params: { ...percpu.FOUR_CPUS_AT_1000, amounts: [1, 7, 2, 0], sequence: 4 },
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
