import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add64,
  cmp64,
  cmpAbs64,
  distance,
  hiOf,
  loOf,
  minus,
  pairValue,
  plus,
  sub64,
  unwrap32,
} from './int64.ts';

const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const wrap = (v: bigint) => BigInt.asIntN(64, v);
const value = (out: Int32Array) => BigInt(pairValue(out[0] as number, out[1] as number));

describe('64-bit arithmetic on word pairs', () => {
  it('property: add64 and sub64 agree with BigInt, wrapping at 64 bits', () => {
    fc.assert(
      fc.property(i64, i64, (a, b) => {
        const out = new Int32Array(2);
        add64(out, 0, loOf(a), hiOf(a), loOf(b), hiOf(b));
        expect(value(out)).toBe(wrap(a + b));
        sub64(out, 0, loOf(a), hiOf(a), loOf(b), hiOf(b));
        expect(value(out)).toBe(wrap(a - b));
      }),
      { seed: 1, numRuns: 2000 },
    );
  });

  it('property: cmp64 and cmpAbs64 order like BigInt', () => {
    fc.assert(
      fc.property(i64, fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (a, b) => {
        const sign = (x: bigint) => (x < 0n ? -1 : x > 0n ? 1 : 0);
        expect(cmp64(loOf(a), hiOf(a), loOf(b), hiOf(b))).toBe(sign(a - b));
        if (a !== -(2n ** 63n)) {
          expect(cmpAbs64(loOf(a), hiOf(a), loOf(b), hiOf(b))).toBe(sign((a < 0n ? -a : a) - b));
        }
      }),
      { seed: 2, numRuns: 2000 },
    );
  });

  it('pairValue is a number within 2^53 and a bigint beyond', () => {
    expect(pairValue(loOf(8589934576), hiOf(8589934576))).toBe(8589934576);
    expect(pairValue(-1, -1)).toBe(-1);
    expect(pairValue(0, 0x40000000)).toBe(2n ** 62n);
  });
});

describe('values that may be bigints', () => {
  it('add, subtract and measure distance exactly, as numbers while they are safe', () => {
    expect(plus(2, 3)).toBe(5);
    expect(plus(Number.MAX_SAFE_INTEGER, 1)).toBe(2n ** 53n);
    expect(plus(2n ** 53n, -1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(minus(10, 2n ** 60n)).toBe(10n - 2n ** 60n);
    expect(distance(-5, 7)).toBe(12);
    expect(distance(2n ** 62n, -(2n ** 62n))).toBe(2n ** 63n);
  });

  it('unwrap32: a wrapped 32-bit counter stands for the value nearest the exact total', () => {
    // 5.78 G increments of an int from 0: it reads 5.78 G − 2^32, and nothing was lost.
    expect(unwrap32(5_780_000_000 - 2 ** 32, 5_780_000_000)).toBe(5_780_000_000);
    expect(unwrap32(-5, 2 ** 32 - 5)).toBe(2 ** 32 - 5);
    // A real loss still shows: 7 fewer than exact.
    expect(unwrap32(5_779_999_993 - 2 ** 32, 5_780_000_000)).toBe(5_779_999_993);
    expect(unwrap32(3, 10)).toBe(3);
    expect(unwrap32(0, 2n ** 62n)).toBe(2n ** 62n);
  });
});
