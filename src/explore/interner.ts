// Interning of state components: each distinct run of `width` words is stored once and named by
// a small id. A state is then a short tuple of ids (visited.ts). Components repeat across
// millions of states (the same memory with another CPU's pc, the same task record beside other
// memory), so the table of distinct values stays small while the states it names are many.

/** Mixes one word into a running 32-bit hash (murmur3's body). */
export function mix(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** murmur3's finaliser: every input bit reaches every output bit. */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export class Interner {
  count = 0;
  private data: Int32Array;
  /** Open addressing: id + 1, 0 for empty; at most half full. */
  private table = new Int32Array(1 << 10);

  constructor(readonly width: number) {
    this.data = new Int32Array(Math.max(1, 256 * width));
  }

  private hash(src: Int32Array, off: number): number {
    // `| 0` everywhere `width` is read in a loop: a constructor parameter property starts out
    // undefined (class fields are defined before the constructor runs), so V8 types the field
    // as any value and, without it, compares and multiplies indices as doubles.
    const w = this.width | 0;
    let h = 0x2545f491 ^ w;
    for (let i = 0; i < w; i++) h = mix(h, src[off + i] as number);
    return fmix(h);
  }

  /** The id of src[off .. off + width), added if new. */
  intern(src: Int32Array, off: number): number {
    const w = this.width | 0;
    const mask = this.table.length - 1;
    let i = this.hash(src, off) & mask;
    for (;;) {
      const e = this.table[i] as number;
      if (e === 0) break;
      const base = Math.imul(e - 1, w);
      let same = true;
      for (let j = 0; j < w; j++) {
        if (this.data[base + j] !== src[off + j]) {
          same = false;
          break;
        }
      }
      if (same) return e - 1;
      i = (i + 1) & mask;
    }
    const id = this.count++;
    if ((id + 1) * w > this.data.length) {
      const more = new Int32Array(this.data.length * 2);
      more.set(this.data);
      this.data = more;
    }
    this.data.set(src.subarray(off, off + w), id * w);
    this.table[i] = id + 1;
    if (this.count * 2 > this.table.length) this.rehash();
    return id;
  }

  /** Copies component `id` into dst at off. */
  read(id: number, dst: Int32Array, off: number): void {
    const w = this.width | 0;
    const base = Math.imul(id, w);
    for (let j = 0; j < w; j++) dst[off + j] = this.data[base + j] as number;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      let i = this.hash(this.data, id * this.width) & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = id + 1;
    }
    this.table = table;
  }

  get bytes(): number {
    return this.data.byteLength + this.table.byteLength;
  }
}
