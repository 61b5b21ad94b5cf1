// seqcount-sum: the barrier pairing under Eric Dumazet's 2011 idea of a percpu_counter sum that
// needs no lock (<1304005726.3360.69.camel@edumazet-laptop>, 28 Apr 2011, with his correction
// in <1304006345.3360.72.camel@edumazet-laptop>): "add a seqcount (shared), and increment it
// each time one cpu changes global count"; the sum reads the sequence, smp_rmb(), the counts,
// smp_rmb(), the sequence again, and starts over if it moved. Here the writer bumps the sequence
// as a seqcount's writer does (odd while it folds, smp_wmb() on both sides), and the sum makes
// one pass and says whether it would accept what it read.
//
// Under sc and tso every variant is exact: sequential consistency and x86 keep stores in order
// and loads in order, so the barriers look like decoration. Under the kernel's memory model
// (memory lkmm) they are what keeps the sum whole: without smp_rmb() the reader may read the
// counts out of order with the sequence, without smp_wmb() the writer's stores may propagate out
// of order, and the sum accepts a torn value.

import { variants } from '../define.ts';
import { PERCPU_2011_GROUP } from '../groups.ts';
import { textScenario } from '../textScenario.ts';
import type { Params } from '../types.ts';

export const SEQCOUNT_SUM_SOURCE =
  'Eric Dumazet, 28 Apr 2011 <1304005726.3360.69.camel@edumazet-laptop> (corrected in <1304006345.3360.72.camel@edumazet-laptop>); seqcount pairing as in Linux v2.6.39 include/linux/seqlock.h';

const VARIANT = variants(
  ['both', 'no-wmb', 'no-rmb', 'none'],
  'both',
  'both: the writer’s smp_wmb() pair and the reader’s smp_rmb() pair; no-wmb: without the writer’s; no-rmb: without the reader’s; none: neither',
);

function programOf(p: Params): string {
  const v = VARIANT.of(p);
  const wmb = v === 'both' || v === 'no-rmb';
  const rmb = v === 'both' || v === 'no-wmb';
  const w = (pad: string) =>
    wmb ? `${pad}smp_wmb();` : `${pad}/* no smp_wmb(): these stores may propagate in any order */`;
  const r = (pad: string) =>
    rmb
      ? `${pad}smp_rmb();`
      : `${pad}/* no smp_rmb(): these loads may be satisfied in any order */`;
  return `C seqcount-sum-${v}

/*
 * A percpu_counter's sum that takes no lock, paired with a fold. CPU0 has 3 not yet folded in
 * its per-CPU delta; it folds them into fbc->count, bumping the sequence to odd before and to
 * even after, as a seqcount's writer does. CPU1 makes one pass of the sum: the sequence, the
 * count and CPU0's delta, the sequence again. It accepts the sum only if the sequence was even
 * and did not move; else it would start over. An accepted sum must be 3: the counter's value
 * before, during and after the fold.
 */

int seq;				/* fbc->seqcount: odd while a fold is under way */
int count;				/* fbc->count */
DEFINE_PER_CPU(int, counters);		/* fbc->counters: CPU0's holds 3 */

{ per_cpu(counters, 0) = 3; }

P0()					/* CPU0 folds its delta into the count */
{
	int delta = __this_cpu_read(counters);
	int s = READ_ONCE(seq);

	WRITE_ONCE(seq, s + 1);		/* write_seqcount_begin(): odd */
${w('\t')}
	WRITE_ONCE(count, READ_ONCE(count) + delta);
	__this_cpu_write(counters, 0);
${w('\t')}
	WRITE_ONCE(seq, s + 2);		/* write_seqcount_end(): even again */
}

P1()					/* CPU1: one pass of __percpu_counter_sum() */
{
	int s1;
	int s2;
	int sum;
	int ok;

	s1 = READ_ONCE(seq);
${r('\t')}
	sum = READ_ONCE(count) + READ_ONCE(per_cpu(counters, 0));
${r('\t')}
	s2 = READ_ONCE(seq);
	ok = (s1 == s2) && !(s1 & 1);	/* else the sum would start over */
}

exists (1:ok=1 /\\ ~1:sum=3)

invariant final exact-sum: !(1:ok == 1 && 1:sum != 3) "A sum the reader accepts is the counter's value, 3";
`;
}

export default textScenario({
  id: 'seqcount-sum',
  title: 'A seqcount sum: the barriers only the kernel’s memory model needs',
  group: PERCPU_2011_GROUP,
  source: SEQCOUNT_SUM_SOURCE,
  summary:
    'A fold bumps a sequence to odd, moves 3 from CPU0’s delta into the count, and bumps it to even; a lockless sum reads the sequence, the counts, the sequence, and accepts only what did not move. Exact under sc and tso whatever the barriers; under lkmm, only with both.',
  reconstruction: false,
  params: [VARIANT.param],
  text: programOf,
  underTso:
    'Under memory tso every variant stays exact: x86 keeps stores in order and loads in order.',
  notes: () => [
    'Switch the memory model to lkmm (the kernel’s own) in the parameters: there, no-rmb, no-wmb and none accept a torn sum, and Explore draws the execution that does it.',
    'Under sc and tso no variant ever accepts a wrong sum: those models keep a CPU’s stores in order and its loads in order, which is what smp_wmb() and smp_rmb() promise on CPUs that do not (Arm, POWER).',
  ],
  guarantees: VARIANT.guarantees({
    both: ['exact-sum'],
    'no-wmb': ['exact-sum'],
    'no-rmb': ['exact-sum'],
    none: ['exact-sum'],
  }),
  witnesses: [
    VARIANT.witness('both', {
      name: 'fold-between-reads',
      description:
        'CPU1 reads the sequence (0) and the count (0); CPU0 folds all of its 3 in and leaves the sequence at 2; CPU1 reads CPU0’s delta (now 0): a sum of 0, torn. The sequence moved from 0 to 2, so the sum does not accept it and would start over.',
      schedule: '1 1 0 0 0 0 0 0 0 1 1',
      expect: { '1:ok': 0, '1:sum': 0 },
    }),
  ],
  lesson: {
    summary:
      'A seqcount’s writer makes the sequence odd, changes the data, and makes it even; its reader reads the sequence, the data, the sequence, and keeps the data only if the sequence was even and did not move. smp_wmb() orders the writer’s stores and smp_rmb() the reader’s loads. Sequential consistency and x86 keep that order anyway; the kernel’s memory model does not.',
    question:
      'Under the kernel’s memory model (memory lkmm), without the reader’s smp_rmb(), can the sum accept 6 or 0?',
    answer:
      'Yes: CPU1 may read the count after the fold (3) and CPU0’s delta before it (3), with both reads of the sequence seeing 0: it accepts 6. With smp_rmb() back, the read of the count is ordered after the first read of the sequence and before the second: a reader that sees the fold’s count must see the sequence moved.',
  },
});
