// The built-in invariants' reasons: what a student reads on a badge, in Explore's list and in
// the CLI when a counter is off, in words that say which way it is off.

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { programScenario } from '../scenarios/program.ts';
import { resolveParams } from '../scenarios/params.ts';
import { offBy } from './builtins.ts';

/** A batch counter whose fold runs with preemption on: a migration can count a delta twice. */
const BATCH_FOLD = `C batch-fold-preemptible
#pragma lab bounds preemptions=1 migrations=1
#define BATCH 2
long count;
DEFINE_SPINLOCK(lock);
DEFINE_PER_CPU(long, pcp);
void counter_add(void)
{
	long v;
	this_cpu_add(pcp, 1);
	v = this_cpu_read(pcp);
	if (v >= BATCH) {
		spin_lock(&lock);
		count += v;
		this_cpu_write(pcp, 0);
		spin_unlock(&lock);
	}
}
P0() { counter_add(); counter_add(); }
P1() { counter_add(); counter_add(); }
counter { count count; deltas pcp; batch BATCH; add counter_add; }
observe count = count;
observe exact;
invariant final no-lost-update;`;

describe('no-lost-update', () => {
  it('says a counter short of the total lost updates, and one over it counted some twice', () => {
    expect(offBy(2n)).toBe('2 lost');
    expect(offBy(-2n)).toBe('2 too many (updates counted twice)');
    expect(offBy(-1n)).toBe('1 too many (an update counted twice)');
  });

  it('names an over-count "counted twice", never a negative loss, in an explored program', () => {
    const r = programScenario(BATCH_FOLD);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const sc = r.scenario;
    const res = explore(sc, resolveParams(sc, {}), { ...sc.bounds, switches: Infinity });
    const reasons = res.outcomes.flatMap((o) => o.violations.map((v) => v.reason));
    expect(reasons).toContain(
      'count + Σ pcp = 6, but the exact total is 4: 2 too many (updates counted twice)',
    );
    expect(reasons.filter((t) => /-\d+ lost/.test(t))).toEqual([]);
  });
});

/**
 * A tagged word: the value << 1 with bit 0 set while atomic. The upgrade swaps in an even word
 * (the pointer) and moves the value to the count; an add that lands in the even word is lost.
 */
const TAGGED = `C tagged-word
#define PTR 64
long count;
atomic_long_t remote = (7 << 1) | 1;
void add(long amount)
{
	long old = atomic_long_read(&remote);
	atomic_long_set(&remote, old + (amount << 1));	/* racy on purpose: no mode test */
}
P0() { add(2); }
P1() { long old = atomic_long_xchg(&remote, PTR); count += old >> 1; }
counter { count count; tagged remote; add add; }
observe count = count;
observe exact;
invariant final no-lost-update;`;

describe('a tagged word', () => {
  it('counts the word while bit 0 is set, and not once it holds something else', () => {
    const r = programScenario(TAGGED);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const sc = r.scenario;
    const res = explore(sc, resolveParams(sc, {}), { ...sc.bounds, switches: Infinity });
    const ends = res.outcomes.map((o) => [o.observables.count, o.violations.map((v) => v.reason)]);
    // Add first: 9 moves to the count, nothing lost.
    expect(ends).toContainEqual([9, []]);
    // The upgrade first: the count holds 7, the 2 went into the pointer word.
    expect(ends).toContainEqual([
      7,
      ['count + (remote >> 1 while bit 0 is set) = 7, but the exact total is 9: 2 lost'],
    ]);
  });
});
