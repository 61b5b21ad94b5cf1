// Inlined calls: what a caller passes and holds survives the callee's statements, and a counter's
// adds count once per call wherever the call sits (in loops, on several threads).

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { programOutcomes } from '../explore/testkit.ts';
import { programScenario } from '../scenarios/program.ts';
import { resolveParams } from '../scenarios/params.ts';
import { formatEvent } from '../machine/events.ts';
import { Op } from '../machine/isa.ts';
import { compileProgram } from './compile.ts';

const outcomes = (source: string) => programOutcomes(source);

describe('inlined calls', () => {
  it('keep a computed argument while the callee runs statements of its own', () => {
    // `old + 1` is computed into a scratch register before the call; the callee's load must not
    // reuse it, or cmpxchg stores what it loaded.
    const src = `C args
long c = 10;
long my_cmpxchg(long *ptr, long old, long new)
{
	long prev;

	prev = *ptr;
	if (prev == old)
		*ptr = new;
	return prev;
}
P0()
{
	long old = c;

	my_cmpxchg(&c, old, old + 1);
}
observe c = c;`;
    expect(outcomes(src)).toEqual(new Set(['c=11']));
  });

  it('keep the caller’s half-evaluated expression around the call', () => {
    const src = `C around
int x = 3;
int y = 4;
int twice(int v) { int r; r = READ_ONCE(y); return v + v + r - r; }
P0() { int r0; r0 = READ_ONCE(x) * 10 + twice(READ_ONCE(x) + 1); WRITE_ONCE(x, r0); }
observe x = x;`;
    expect(outcomes(src)).toEqual(new Set(['x=38']));
  });

  it('count an add once per call when two threads call it in loops', () => {
    // The add has a path with no write to the counter (the test the compiler cannot decide), so
    // its call's end counts it through a flag: the flag's instructions must land in each
    // thread's own loop, not shift the other thread's.
    const src = `C loops
DEFINE_SPINLOCK(l);
long c;
void add(long amount)
{
	long v;

	spin_lock(&l);
	v = c + amount;
	if (v <= 100)
		c = v;
	spin_unlock(&l);
}
P0() { int i; for (i = 0; i < 2; i++) add(1); }
P1() { int i; for (i = 0; i < 2; i++) add(1); }
counter { count c; add add(amount); }
observe c = c;
observe exact;
invariant final no-lost-update;`;
    expect(outcomes(src)).toEqual(new Set(['c=4 exact=4']));
  });
});

/** A program that divides by zero when P1 reads x before P0 writes it. */
const DIVIDES = `C divide
int x;
int y;
P0() { WRITE_ONCE(x, 2); }
P1() { int r; r = READ_ONCE(x); WRITE_ONCE(y, 10 / r); }
observe y = y;`;

describe('a program that faults', () => {
  const src = DIVIDES;

  it('is an outcome of Explore, with the schedule that makes it fault', () => {
    const r = programScenario(src);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const sc = r.scenario;
    const res = explore(sc, resolveParams(sc, {}), { ...sc.bounds, switches: Infinity });
    expect(res.complete).toBe(true);
    const faults = res.outcomes.filter((o) => o.violations.some((v) => v.id === 'fault'));
    expect(faults.map((o) => o.violations[0]?.reason)).toEqual([
      'the program divides by zero at line 5',
    ]);
    // P1 reads x before P0 writes it (the division runs in the read's step); the other order
    // divides by 2.
    expect(faults[0]?.witness.events.map(formatEvent)).toEqual(['1']);
    expect(res.outcomes.filter((o) => o.terminal).map((o) => o.observables.y)).toEqual([5]);
  });
});

describe('the scopes each instruction records', () => {
  const src = `C scopes
int x;
DEFINE_PER_CPU(int, s);
void bump(int n)
{
	WRITE_ONCE(x, READ_ONCE(x) + n);
}
int total(void)
{
	int sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		sum += per_cpu(s, cpu);
	return sum;
}
P0()
{
	int r;

	bump(1);
	bump(2);
	r = total();
}
P1() { }
observe x = x;`;

  it('names each inlined call by its text and each walk turn by its CPU, outermost first', () => {
    const r = compileProgram(src);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const prog = r.program.machine.programs[0];
    const source = prog?.source;
    if (!source?.scopes) throw new Error('no scopes');
    const text = (s: { site: { start: number; end: number } }) =>
      source.text.slice(s.site.start, s.site.end);
    // The memory accesses, each with the scopes it is inside.
    const seen = (prog?.instrs ?? []).flatMap((ins, pc) =>
      ins.op <= Op.Store
        ? [
            (source.scopes?.[pc] ?? [])
              .map((s) => `${String(s.id)}:${text(s)}${s.turn >= 0 ? `@${String(s.turn)}` : ''}`)
              .join(' > '),
          ]
        : [],
    );
    expect(seen).toEqual([
      '1:bump(1)',
      '1:bump(1)',
      '2:bump(2)',
      '2:bump(2)',
      '3:total() > 4:for_each_online_cpu(cpu)\n\t\tsum += per_cpu(s, cpu);@0',
      '3:total() > 4:for_each_online_cpu(cpu)\n\t\tsum += per_cpu(s, cpu);@1',
    ]);
    // Outside every call: the thread's own statements.
    expect(source.scopes.at(-1)).toEqual([]);
  });
});
