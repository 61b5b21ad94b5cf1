// Arrays that grow in fixed chunks of 2^16 elements. Doubling one big typed array copies every
// element again at each growth and needs old + new at once (1.5× the memory at the worst
// moment); a chunk once made never moves, and the memory used is what is stored, rounded up to
// one chunk. One class per element type, not one generic class: each `get` and `set` then only
// ever sees one kind of typed array, which keeps them monomorphic in the explorer's hot loops.

const SHIFT = 16;
const MASK = (1 << SHIFT) - 1;
const CHUNK = 1 << SHIFT;

/** A growable Int32 array: element i lives at chunks[i >>> 16][i & 0xffff]. */
export class Int32Chunks {
  private readonly chunks: Int32Array[] = [];
  /** Elements per index (a record of `width` words per index). */
  constructor(readonly width = 1) {}

  /** Makes room for indices below n. */
  ensure(n: number): void {
    while (this.chunks.length * CHUNK < n) this.chunks.push(new Int32Array(CHUNK * this.width));
  }

  get(i: number): number {
    return (this.chunks[i >>> SHIFT] as Int32Array)[i & MASK] as number;
  }

  set(i: number, v: number): void {
    (this.chunks[i >>> SHIFT] as Int32Array)[i & MASK] = v;
  }

  /** The chunk holding record i (for width > 1), and its offset there. */
  chunkOf(i: number): Int32Array {
    return this.chunks[i >>> SHIFT] as Int32Array;
  }

  offsetOf(i: number): number {
    return Math.imul(i & MASK, this.width);
  }

  get bytes(): number {
    return this.chunks.length * CHUNK * this.width * 4;
  }

  /** The chunks themselves (to hand them to another thread at the end of a run). */
  parts(): readonly Int32Array[] {
    return this.chunks;
  }
}

/** Element i of chunks as `Int32Chunks.parts()` gave them (width 1). */
export function chunkedGet(parts: readonly Int32Array[], i: number): number {
  return (parts[i >>> SHIFT] as Int32Array)[i & MASK] as number;
}

/** A growable Float64 array in chunks. */
export class Float64Chunks {
  private readonly chunks: Float64Array[] = [];

  ensure(n: number): void {
    while (this.chunks.length * CHUNK < n) this.chunks.push(new Float64Array(CHUNK));
  }

  get(i: number): number {
    return (this.chunks[i >>> SHIFT] as Float64Array)[i & MASK] as number;
  }

  set(i: number, v: number): void {
    (this.chunks[i >>> SHIFT] as Float64Array)[i & MASK] = v;
  }

  get bytes(): number {
    return this.chunks.length * CHUNK * 8;
  }
}
