// Reading a state by name, as clauses, observables, Live's readings and the charts do: exact
// values (a bigint past 2^53), every CPU's element, the recorded results, the tallies, and one
// error, worded once, for a name the machine does not have.

import { describe, expect, it } from 'vitest';
import { abs, thisCpu } from './builder.ts';
import {
  cpuSetText,
  MissingCell,
  readCell,
  readElement,
  readPerCpu,
  readResults,
  totalTally,
} from './read.ts';
import { kit } from './testkit.ts';

const BIG = 2n ** 53n + 1n;

/** Two CPUs: each adds 1 to its own delta (tallied), then records the global count (3 steps). */
const machine = () =>
  kit(2, (L) => {
    const count = L.cell('count', 'fbc->count', 's64', BIG);
    const deltas = L.perCpu('deltas', 'fbc->counters', 's32', [3, -2]);
    const seen = L.result('seen', 'count as read', 2);
    return {
      tasks: [0, 1].map(() => (b) => {
        const r = b.reg('r');
        b.load(r, thisCpu(deltas)).add(r, r, 1).store(thisCpu(deltas), r, { tally: 1 });
        b.load(r, abs(count)).record(seen, r);
      }),
    };
  });

describe('reading a state by name', () => {
  it('reads cells, elements and results exactly, and the tallies of what was added', () => {
    const k = machine();
    expect(readCell(k.m, k.s, 'count')).toBe(BIG);
    expect(readPerCpu(k.m, k.s, 'deltas')).toEqual([3, -2]);
    expect(readResults(k.m, k.s, 'seen')).toEqual([]);
    expect(totalTally(k.m, k.s)).toBe(0);
    k.run('0 0 0 1 1 1');
    expect(readPerCpu(k.m, k.s, 'deltas')).toEqual([4, -1]);
    expect(readElement(k.m, k.s, 'deltas', 1)).toBe(-1);
    expect(readResults(k.m, k.s, 'seen')).toEqual([BIG, BIG]);
    expect(totalTally(k.m, k.s)).toBe(2);
  });

  it('says which name it could not find, and as what it was asked for', () => {
    const k = machine();
    expect(() => readCell(k.m, k.s, 'deltas')).toThrow(
      new MissingCell('deltas', 'global variable'),
    );
    expect(() => readPerCpu(k.m, k.s, 'count')).toThrow(
      'this machine has no per-CPU variable named count',
    );
    expect(() => readResults(k.m, k.s, 'sum')).toThrow(MissingCell);
  });
});

describe('a cpumask as people read it', () => {
  it('is the set of CPUs whose bits are set, lowest first', () => {
    expect(cpuSetText(7)).toBe('{0,1,2}');
    expect(cpuSetText(5)).toBe('{0,2}');
    expect(cpuSetText(2)).toBe('{1}');
    expect(cpuSetText(0)).toBe('{}');
    // CPU 31's bit makes the 32-bit word negative: still CPU 31, not a sign.
    expect(cpuSetText(-2147483647)).toBe('{0,31}');
    expect(cpuSetText(5n)).toBe('{0,2}');
  });
});
