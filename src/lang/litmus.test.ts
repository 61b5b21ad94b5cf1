// The classic litmus shapes, written in the lab's language, explored, and compared with their
// sequentially consistent outcome sets computed here independently: a brute-force enumeration of
// every interleaving of the same reads and writes, which knows nothing of the lab's machine.

import { describe, expect, it } from 'vitest';
import { programOutcomes } from '../explore/testkit.ts';

type Op =
  | { readonly w: string; readonly v: number }
  | { readonly r: string; readonly into: string }
  /** An atomic read-modify-write: `into` gets the old value. */
  | { readonly rmw: string; readonly f: (old: number) => number; readonly into?: string };

/** Every final valuation (registers as `t:r`, then memory) over all interleavings, as strings. */
function scOutcomes(
  threads: readonly (readonly Op[])[],
  observe: readonly string[],
  init: Record<string, number> = {},
): Set<string> {
  const out = new Set<string>();
  const go = (pcs: number[], mem: Record<string, number>, regs: Record<string, number>) => {
    let moved = false;
    for (const [t, ops] of threads.entries()) {
      const op = ops[pcs[t] as number];
      if (!op) continue;
      moved = true;
      const m = { ...mem };
      const r = { ...regs };
      if ('w' in op) m[op.w] = op.v;
      else if ('r' in op) r[`${t}:${op.into}`] = m[op.r] ?? 0;
      else {
        const old = m[op.rmw] ?? 0;
        m[op.rmw] = op.f(old);
        if (op.into) r[`${t}:${op.into}`] = old;
      }
      const next = [...pcs];
      next[t] = (next[t] as number) + 1;
      go(next, m, r);
    }
    if (!moved)
      out.add(
        observe.map((k) => `${k}=${k.includes(':') ? (regs[k] ?? 0) : (mem[k] ?? 0)}`).join(' '),
      );
  };
  go(
    threads.map(() => 0),
    { ...init },
    {},
  );
  return out;
}

/** The lab's outcomes of a program, over the same names. */
const labOutcomes = (source: string, observe: readonly string[]) =>
  programOutcomes(source, observe);

const SB = `C SB
{}
P0(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*x, 1);
	BARRIER
	r0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*y, 1);
	BARRIER
	r0 = READ_ONCE(*x);
}

exists (0:r0=0 /\\ 1:r0=0)
`;

describe('the classic shapes, sequentially consistent', () => {
  it('SB: a store and a load on each side never both read 0, barriers or not', () => {
    const expected = scOutcomes(
      [
        [
          { w: 'x', v: 1 },
          { r: 'y', into: 'r0' },
        ],
        [
          { w: 'y', v: 1 },
          { r: 'x', into: 'r0' },
        ],
      ],
      ['0:r0', '1:r0'],
    );
    expect(expected.has('0:r0=0 1:r0=0')).toBe(false);
    for (const barrier of ['', 'smp_mb();', 'smp_rmb();', 'smp_wmb();']) {
      expect(labOutcomes(SB.replace(/BARRIER/g, barrier), ['0:r0', '1:r0'])).toEqual(expected);
    }
  });

  it('MP: a reader that sees the flag sees the data', () => {
    const src = `C MP
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_store_release(y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = smp_load_acquire(y); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\\ 1:r1=0)`;
    const expected = scOutcomes(
      [
        [
          { w: 'x', v: 1 },
          { w: 'y', v: 1 },
        ],
        [
          { r: 'y', into: 'r0' },
          { r: 'x', into: 'r1' },
        ],
      ],
      ['1:r0', '1:r1'],
    );
    expect(expected.has('1:r0=1 1:r1=0')).toBe(false);
    expect(labOutcomes(src, ['1:r0', '1:r1'])).toEqual(expected);
  });

  it('LB: two loads never both read the other thread’s later store', () => {
    const src = `C LB
{}
P0(int *x, int *y) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; r0 = READ_ONCE(*y); WRITE_ONCE(*x, 1); }
exists (0:r0=1 /\\ 1:r0=1)`;
    const expected = scOutcomes(
      [
        [
          { r: 'x', into: 'r0' },
          { w: 'y', v: 1 },
        ],
        [
          { r: 'y', into: 'r0' },
          { w: 'x', v: 1 },
        ],
      ],
      ['0:r0', '1:r0'],
    );
    expect(expected.has('0:r0=1 1:r0=1')).toBe(false);
    expect(labOutcomes(src, ['0:r0', '1:r0'])).toEqual(expected);
  });

  it('2+2W: the two variables never both end with the first writes', () => {
    const src = `C 2+2W
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 2); }
P1(int *x, int *y) { WRITE_ONCE(*y, 1); WRITE_ONCE(*x, 2); }
exists (x=1 /\\ y=1)`;
    const expected = scOutcomes(
      [
        [
          { w: 'x', v: 1 },
          { w: 'y', v: 2 },
        ],
        [
          { w: 'y', v: 1 },
          { w: 'x', v: 2 },
        ],
      ],
      ['x', 'y'],
    );
    expect(expected).toEqual(new Set(['x=2 y=1', 'x=2 y=2', 'x=1 y=2']));
    expect(labOutcomes(src, ['x', 'y'])).toEqual(expected);
  });

  it('IRIW: two readers agree on the order of two independent writes', () => {
    const src = `C IRIW
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); r1 = READ_ONCE(*y); }
P2(int *y) { WRITE_ONCE(*y, 1); }
P3(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)`;
    const keys = ['1:r0', '1:r1', '3:r0', '3:r1'];
    const expected = scOutcomes(
      [
        [{ w: 'x', v: 1 }],
        [
          { r: 'x', into: 'r0' },
          { r: 'y', into: 'r1' },
        ],
        [{ w: 'y', v: 1 }],
        [
          { r: 'y', into: 'r0' },
          { r: 'x', into: 'r1' },
        ],
      ],
      keys,
    );
    expect(expected.has('1:r0=1 1:r1=0 3:r0=1 3:r1=0')).toBe(false);
    expect(labOutcomes(src, keys)).toEqual(expected);
  });

  it('a spinlock makes x++ atomic: two increments always give 2; without it, 1 is possible', () => {
    const locked = `C lock
{}
P0(int *x, spinlock_t *l) { int r; spin_lock(l); r = READ_ONCE(*x); WRITE_ONCE(*x, r + 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r; spin_lock(l); r = READ_ONCE(*x); WRITE_ONCE(*x, r + 1); spin_unlock(l); }
exists (x=1)`;
    expect(labOutcomes(locked, ['x'])).toEqual(new Set(['x=2']));
    expect(labOutcomes(locked.replace(/spin_(un)?lock\(l\);/g, ''), ['x'])).toEqual(
      new Set(['x=1', 'x=2']),
    );
  });

  it('atomic_add_unless against atomic_set: never 2 (the RMW is atomic with respect to the set)', () => {
    const src = `C atomic-set
{ atomic_t v = ATOMIC_INIT(1); }
P0(atomic_t *v) { (void)atomic_add_unless(v, 1, 0); }
P1(atomic_t *v) { atomic_set(v, 0); }
exists (v=2)`;
    const expected = scOutcomes(
      [[{ rmw: 'v', f: (old) => (old === 0 ? 0 : old + 1) }], [{ w: 'v', v: 0 }]],
      ['v'],
      { v: 1 },
    );
    expect(expected).toEqual(new Set(['v=0']));
    expect(labOutcomes(src, ['v'])).toEqual(expected);
  });

  it('atomic_add_return against atomic_set: what it returns is what it made', () => {
    const src = `C add-return
{ atomic_t v = ATOMIC_INIT(5); }
P0(atomic_t *v) { int r0; r0 = atomic_add_return(1, v); }
P1(atomic_t *v) { atomic_set(v, 0); }
exists (0:r0=6 /\\ v=6)`;
    const expected = scOutcomes(
      [[{ rmw: 'v', f: (old) => old + 1, into: 'old' }], [{ w: 'v', v: 0 }]],
      ['v'],
      { v: 5 },
    );
    // add then set: v = 0, r0 = 6; set then add: v = 1, r0 = 1.
    expect(expected).toEqual(new Set(['v=0', 'v=1']));
    expect(labOutcomes(src, ['0:r0', 'v'])).toEqual(new Set(['0:r0=6 v=0', '0:r0=1 v=1']));
  });

  it('cmpxchg: of two CPUs swapping 0 for their own value, exactly one succeeds', () => {
    const src = `C cmpxchg
{}
P0(int *x) { int r0; r0 = cmpxchg(x, 0, 1); }
P1(int *x) { int r1; r1 = cmpxchg(x, 0, 2); }
locations [x]
exists (0:r0=0 /\\ 1:r1=0)`;
    expect(labOutcomes(src, ['0:r0', '1:r1', 'x'])).toEqual(
      new Set(['0:r0=0 1:r1=1 x=1', '0:r0=2 1:r1=0 x=2']),
    );
  });

  it('atomic_inc from two CPUs never loses one; plain x++ can', () => {
    const atomic = `C inc
{}
P0(atomic_t *v) { atomic_inc(v); }
P1(atomic_t *v) { atomic_inc(v); }
exists (v=1)`;
    expect(labOutcomes(atomic, ['v'])).toEqual(new Set(['v=2']));
    const plain = `C plus
int x;
P0() { x++; }
P1() { x++; }
exists (x=1)`;
    expect(labOutcomes(plain, ['x'])).toEqual(new Set(['x=2', 'x=1']));
  });
});
