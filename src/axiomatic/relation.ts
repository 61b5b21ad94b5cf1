// Sets of events and binary relations over the events of one candidate execution, as bitsets.
//
// A litmus test has tens of events, so a relation is n rows of ⌈n/32⌉ words: union and
// intersection are word loops, composition ORs whole rows, and a transitive closure is
// Warshall's algorithm a row at a time. Every operation returns a new value; nothing is shared,
// so a model can name each intermediate relation as the cat file does without aliasing bugs.

/** A set of events: bit i is event i. */
export class EventSet {
  readonly n: number;
  readonly bits: Uint32Array;

  constructor(n: number, bits?: Uint32Array) {
    this.n = n;
    this.bits = bits ?? new Uint32Array((n + 31) >>> 5);
  }

  static of(n: number, members: Iterable<number>): EventSet {
    const s = new EventSet(n);
    for (const i of members) s.add(i);
    return s;
  }

  static all(n: number): EventSet {
    const s = new EventSet(n);
    for (let i = 0; i < n; i++) s.add(i);
    return s;
  }

  has(i: number): boolean {
    return ((this.bits[i >>> 5] as number) & (1 << (i & 31))) !== 0;
  }

  add(i: number): void {
    this.bits[i >>> 5] = (this.bits[i >>> 5] as number) | (1 << (i & 31));
  }

  union(o: EventSet): EventSet {
    const b = this.bits.slice();
    for (let k = 0; k < b.length; k++) b[k] = (b[k] as number) | (o.bits[k] as number);
    return new EventSet(this.n, b);
  }

  inter(o: EventSet): EventSet {
    const b = this.bits.slice();
    for (let k = 0; k < b.length; k++) b[k] = (b[k] as number) & (o.bits[k] as number);
    return new EventSet(this.n, b);
  }

  minus(o: EventSet): EventSet {
    const b = this.bits.slice();
    for (let k = 0; k < b.length; k++) b[k] = (b[k] as number) & ~(o.bits[k] as number);
    return new EventSet(this.n, b);
  }

  complement(): EventSet {
    return EventSet.all(this.n).minus(this);
  }

  isEmpty(): boolean {
    for (const w of this.bits) if (w !== 0) return false;
    return true;
  }

  /** The members, in increasing order. */
  members(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.n; i++) if (this.has(i)) out.push(i);
    return out;
  }

  /** [S]: the identity relation on this set. */
  id(): Relation {
    const r = new Relation(this.n);
    for (let i = 0; i < this.n; i++) if (this.has(i)) r.add(i, i);
    return r;
  }
}

/** A binary relation over n events: row i holds the events i is related to. */
export class Relation {
  readonly n: number;
  /** Words per row. */
  readonly w: number;
  readonly rows: Uint32Array;

  constructor(n: number, rows?: Uint32Array) {
    this.n = n;
    this.w = (n + 31) >>> 5;
    this.rows = rows ?? new Uint32Array(n * this.w);
  }

  static of(n: number, pairs: Iterable<readonly [number, number]>): Relation {
    const r = new Relation(n);
    for (const [a, b] of pairs) r.add(a, b);
    return r;
  }

  static identity(n: number): Relation {
    return EventSet.all(n).id();
  }

  /** S × T: every event of s related to every event of t. */
  static cross(s: EventSet, t: EventSet): Relation {
    const r = new Relation(s.n);
    for (let i = 0; i < s.n; i++) if (s.has(i)) r.rows.set(t.bits, i * r.w);
    return r;
  }

  has(a: number, b: number): boolean {
    return ((this.rows[a * this.w + (b >>> 5)] as number) & (1 << (b & 31))) !== 0;
  }

  add(a: number, b: number): void {
    const k = a * this.w + (b >>> 5);
    this.rows[k] = (this.rows[k] as number) | (1 << (b & 31));
  }

  delete(a: number, b: number): void {
    const k = a * this.w + (b >>> 5);
    this.rows[k] = (this.rows[k] as number) & ~(1 << (b & 31));
  }

  copy(): Relation {
    return new Relation(this.n, this.rows.slice());
  }

  union(...others: Relation[]): Relation {
    const rows = this.rows.slice();
    for (const o of others)
      for (let k = 0; k < rows.length; k++) rows[k] = (rows[k] as number) | (o.rows[k] as number);
    return new Relation(this.n, rows);
  }

  inter(o: Relation): Relation {
    const rows = this.rows.slice();
    for (let k = 0; k < rows.length; k++) rows[k] = (rows[k] as number) & (o.rows[k] as number);
    return new Relation(this.n, rows);
  }

  minus(o: Relation): Relation {
    const rows = this.rows.slice();
    for (let k = 0; k < rows.length; k++) rows[k] = (rows[k] as number) & ~(o.rows[k] as number);
    return new Relation(this.n, rows);
  }

  /** this ; o: a related to c when a this b and b o c for some b. */
  seq(o: Relation): Relation {
    const { n, w } = this;
    const out = new Uint32Array(n * w);
    for (let a = 0; a < n; a++) {
      const base = a * w;
      for (let k = 0; k < w; k++) {
        let word = this.rows[base + k] as number;
        while (word !== 0) {
          const bit = 31 - Math.clz32(word & -word);
          word &= word - 1;
          const b = (k << 5) | bit;
          const ob = b * w;
          for (let j = 0; j < w; j++)
            out[base + j] = (out[base + j] as number) | (o.rows[ob + j] as number);
        }
      }
    }
    return new Relation(n, out);
  }

  /** Composition of several relations, left to right. */
  static seqAll(first: Relation, ...rest: Relation[]): Relation {
    let r = first;
    for (const o of rest) r = r.seq(o);
    return r;
  }

  inverse(): Relation {
    const r = new Relation(this.n);
    this.forEach((a, b) => {
      r.add(b, a);
    });
    return r;
  }

  /** r⁺: the transitive closure (Warshall, a row at a time). */
  plus(): Relation {
    const r = this.copy();
    const { n, w, rows } = r;
    for (let k = 0; k < n; k++) {
      const kb = k * w;
      const kw = k >>> 5;
      const kbit = 1 << (k & 31);
      for (let i = 0; i < n; i++) {
        const ib = i * w;
        if (((rows[ib + kw] as number) & kbit) === 0) continue;
        for (let j = 0; j < w; j++)
          rows[ib + j] = (rows[ib + j] as number) | (rows[kb + j] as number);
      }
    }
    return r;
  }

  /** r*: reflexive and transitive closure over all events. */
  star(): Relation {
    return this.plus().union(Relation.identity(this.n));
  }

  /** r?: r or the identity. */
  opt(): Relation {
    return this.union(Relation.identity(this.n));
  }

  /** [s] ; r ; [t]. */
  restrict(s: EventSet | null, t: EventSet | null): Relation {
    const r = new Relation(this.n);
    for (let a = 0; a < this.n; a++) {
      if (s && !s.has(a)) continue;
      for (let k = 0; k < this.w; k++) {
        const word = (this.rows[a * this.w + k] as number) & (t ? (t.bits[k] as number) : ~0);
        r.rows[a * this.w + k] = word;
      }
    }
    return r;
  }

  domain(): EventSet {
    const s = new EventSet(this.n);
    for (let a = 0; a < this.n; a++)
      for (let k = 0; k < this.w; k++)
        if (this.rows[a * this.w + k] !== 0) {
          s.add(a);
          break;
        }
    return s;
  }

  range(): EventSet {
    const s = new EventSet(this.n);
    for (let a = 0; a < this.n; a++)
      for (let k = 0; k < this.w; k++)
        s.bits[k] = (s.bits[k] as number) | (this.rows[a * this.w + k] as number);
    return s;
  }

  isEmpty(): boolean {
    for (const w of this.rows) if (w !== 0) return false;
    return true;
  }

  irreflexive(): boolean {
    for (let a = 0; a < this.n; a++) if (this.has(a, a)) return false;
    return true;
  }

  acyclic(): boolean {
    return this.plus().irreflexive();
  }

  forEach(f: (a: number, b: number) => void): void {
    const { n, w } = this;
    for (let a = 0; a < n; a++)
      for (let k = 0; k < w; k++) {
        let word = this.rows[a * w + k] as number;
        while (word !== 0) {
          const bit = 31 - Math.clz32(word & -word);
          word &= word - 1;
          f(a, (k << 5) | bit);
        }
      }
  }

  pairs(): [number, number][] {
    const out: [number, number][] = [];
    this.forEach((a, b) => out.push([a, b]));
    return out;
  }

  /** The events b with a → b. */
  successors(a: number): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.w; k++) {
      let word = this.rows[a * this.w + k] as number;
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        word &= word - 1;
        out.push((k << 5) | bit);
      }
    }
    return out;
  }

  /**
   * A shortest cycle through the relation, as the events in order (the first not repeated at the
   * end), or null when it is acyclic. Breadth-first from each event, so the cycle a person reads
   * is as short as the relation allows.
   */
  shortestCycle(): number[] | null {
    let best: number[] | null = null;
    for (let start = 0; start < this.n; start++) {
      const prev = new Int32Array(this.n).fill(-1);
      const queue = [start];
      let found = -1;
      for (let q = 0; q < queue.length && found < 0; q++) {
        const a = queue[q] as number;
        for (const b of this.successors(a)) {
          if (b === start) {
            found = a;
            break;
          }
          if (prev[b] === -1 && b !== start) {
            prev[b] = a;
            queue.push(b);
          }
        }
      }
      if (found < 0) continue;
      const cycle = [found];
      for (let x = found; x !== start;) {
        x = prev[x] as number;
        cycle.unshift(x);
      }
      if (!best || cycle.length < best.length) best = cycle;
    }
    return best;
  }
}
