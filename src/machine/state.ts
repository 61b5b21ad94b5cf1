// Copy, equality and a fast 64-bit hash of a whole machine state (one Int32Array).

// Copies are carved out of shared chunks: allocating a fresh typed array per state costs ~0.7 µs
// in V8 (a new backing store each time), a view on a chunk ~0.05 µs. A chunk lives as long as
// any state in it, which suits time travel and exploration, where states are kept or dropped in
// bulk. Send `state.slice()` to a worker, not a chunk view (postMessage would copy the chunk).
const CHUNK_WORDS = 1 << 16;
let chunk = new Int32Array(0);
let used = 0;

/** An independent copy of a state. */
export function copyState(s: Int32Array): Int32Array {
  const n = s.length;
  if (used + n > chunk.length) {
    chunk = new Int32Array(Math.max(CHUNK_WORDS, n));
    used = 0;
  }
  const c = chunk.subarray(used, used + n);
  used += n;
  c.set(s);
  return c;
}

/** Overwrites `dst` with `src` (same machine), without allocating. */
export function restoreState(dst: Int32Array, src: Int32Array): void {
  dst.set(src);
}

export function statesEqual(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * 64-bit hash of a state as two independent 32-bit lanes (murmur3-style mixing with different
 * seeds and constants), written to out[0] (high lane) and out[1] (low lane).
 */
export function hashState(s: Int32Array, out: Int32Array | number[]): void {
  let h1 = 0x9747b28c ^ s.length;
  let h2 = 0x2545f491 ^ Math.imul(s.length, 0x85ebca6b);
  for (let i = 0; i < s.length; i++) {
    const w = s[i] as number;
    let k1 = Math.imul(w, 0xcc9e2d51);
    k1 = (k1 << 15) | (k1 >>> 17);
    h1 ^= Math.imul(k1, 0x1b873593);
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
    let k2 = Math.imul(w ^ 0x5bd1e995, 0x27d4eb2f);
    k2 = (k2 << 17) | (k2 >>> 15);
    h2 ^= Math.imul(k2, 0x165667b1);
    h2 = (h2 << 11) | (h2 >>> 21);
    h2 = (Math.imul(h2, 9) + 0x7feb352d) | 0;
  }
  out[0] = fmix(h1 ^ h2);
  out[1] = fmix(h2 + Math.imul(h1, 0x9e3779b1));
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const scratch = new Int32Array(2);

/** The hash as a 64-bit hex string (for display and for keys where speed does not matter). */
export function hashHex(s: Int32Array): string {
  hashState(s, scratch);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(scratch[0] as number) + hex(scratch[1] as number);
}

/** The hash folded to a safe-integer number (53 bits), for Map keys in hot loops. */
export function hashKey(s: Int32Array): number {
  hashState(s, scratch);
  return ((scratch[0] as number) & 0x1fffff) * 4294967296 + ((scratch[1] as number) >>> 0);
}
