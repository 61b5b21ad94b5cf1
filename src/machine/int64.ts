// Exact 64-bit two's-complement arithmetic on (lo, hi) pairs of int32 words.
//
// The machine keeps every value in an Int32Array, so a kernel `s64` is two words, exactly as on a
// 32-bit CPU. Doing the arithmetic on the pairs (instead of converting to a float) keeps values
// beyond 2^53 exact and wraps like the kernel's types do.

const TWO32 = 4294967296;

/** The pair's value as a number when it is a safe integer, else as a bigint. */
export function pairValue(lo: number, hi: number): number | bigint {
  if (hi >= -0x200000 && hi < 0x200000) return hi * TWO32 + (lo >>> 0);
  return (BigInt(hi) << 32n) | BigInt(lo >>> 0);
}

/** Low word of an integer value (number or bigint), wrapped to int32. */
export function loOf(v: number | bigint): number {
  if (typeof v === 'bigint') return Number(BigInt.asIntN(32, v));
  return v | 0;
}

/** High word of an integer value (number or bigint), wrapped to int32. */
export function hiOf(v: number | bigint): number {
  if (typeof v === 'bigint') return Number(BigInt.asIntN(32, v >> 32n));
  return Math.floor(v / TWO32) | 0;
}

/** Writes `a op b` into out[at], out[at + 1], wrapping at 64 bits: a is (alo, ahi), b (blo, bhi). */
export type PairOp = (
  out: Int32Array,
  at: number,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
) => void;

/** a + b. */
export const add64: PairOp = (out, at, alo, ahi, blo, bhi) => {
  const lo = (alo >>> 0) + (blo >>> 0);
  const carry = lo > 0xffffffff ? 1 : 0;
  out[at] = lo | 0;
  out[at + 1] = (ahi + bhi + carry) | 0;
};

/** a − b. */
export const sub64: PairOp = (out, at, alo, ahi, blo, bhi) => {
  const borrow = alo >>> 0 < blo >>> 0 ? 1 : 0;
  out[at] = (alo - blo) | 0;
  out[at + 1] = (ahi - bhi - borrow) | 0;
};

/** Signed comparison of two pairs: negative, zero or positive. */
export function cmp64(alo: number, ahi: number, blo: number, bhi: number): number {
  if (ahi !== bhi) return ahi < bhi ? -1 : 1;
  const ua = alo >>> 0;
  const ub = blo >>> 0;
  return ua === ub ? 0 : ua < ub ? -1 : 1;
}

/** Compares |a| with the non-negative b (as the kernel's `abs(count) >= batch` does). */
export function cmpAbs64(alo: number, ahi: number, blo: number, bhi: number): number {
  if (ahi < 0) {
    // |a| = −a; INT64_MIN stays negative, as abs() does in C, and compares below everything.
    const nlo = -alo | 0;
    const nhi = (~ahi + (alo === 0 ? 1 : 0)) | 0;
    return cmp64(nlo, nhi, blo, bhi);
  }
  return cmp64(alo, ahi, blo, bhi);
}

/** a + b for values that may be bigints (observables, live readings). */
export function plus(a: number | bigint, b: number | bigint): number | bigint {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isSafeInteger(r)) return r;
  }
  const r = BigInt(a) + BigInt(b);
  return r >= BigInt(Number.MIN_SAFE_INTEGER) && r <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(r)
    : r;
}

/** a − b for values that may be bigints (observables, live readings). */
export function minus(a: number | bigint, b: number | bigint): number | bigint {
  return plus(a, -BigInt(b));
}

/** |a − b| for values that may be bigints (observables, live readings). */
export function distance(a: number | bigint, b: number | bigint): number | bigint {
  const d = BigInt(a) - BigInt(b);
  const abs = d < 0n ? -d : d;
  return abs <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(abs) : abs;
}

/**
 * What a 32-bit counter reading `v` stands for: the value ≡ v (mod 2^32) nearest `near` (the
 * exact total). A kernel `int` or `atomic_t` wraps after 2^32 adds, which Live mode reaches in
 * under a minute; the exact total does not wrap, so comparing the two raw would call every wrap
 * 4,294,967,296 lost updates.
 */
export function unwrap32(v: number | bigint, near: number | bigint): number | bigint {
  const n = BigInt(near);
  const x = n + BigInt.asIntN(32, BigInt(v) - n);
  return x >= -BigInt(Number.MAX_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(x)
    : x;
}
