// The explorer's priority queue: one bucket of node ids per exact cost, drained cheapest first.
//
// Costs are few and coarse (interventions, switches, steps: a few thousand distinct values for
// millions of nodes), so a bucket per cost beats a binary heap: push is an append, and a bucket
// is sorted once when it is drained. Sorting by id gives the order a heap on (cost, id) gives,
// the order that makes two runs print the same witnesses. Every edge costs at least one step, so
// nothing is pushed to the bucket being drained.

class Bucket {
  ids = new Int32Array(16);
  n = 0;
  /** Whether the ids came in increasing order (new nodes do: ids are given in discovery order). */
  sorted = true;

  push(id: number): void {
    if (this.n === this.ids.length) {
      const more = new Int32Array(this.n * 2);
      more.set(this.ids);
      this.ids = more;
    }
    if (this.n > 0 && id < (this.ids[this.n - 1] as number)) this.sorted = false;
    this.ids[this.n++] = id;
  }

  /** The ids, sorted. */
  take(): Int32Array {
    const ids = this.ids.subarray(0, this.n);
    return this.sorted ? ids : ids.sort();
  }
}

export class BucketQueue {
  private readonly buckets = new Map<number, Bucket>();
  /** The distinct costs waiting, as a binary min-heap. */
  private costs: number[] = [];
  private draining: Int32Array = new Int32Array(0);
  private at = 0;
  /** The cost of the node `pop` returned last. */
  lastCost = 0;
  private held = 0;

  get size(): number {
    return this.held;
  }

  /** The bucket `push` used last, and its cost: a level's successors go to a few costs. */
  private lastBucket: Bucket | null = null;
  private lastPushed = -1;

  push(id: number, cost: number): void {
    let b = cost === this.lastPushed ? this.lastBucket : this.buckets.get(cost);
    if (!b) {
      b = new Bucket();
      this.buckets.set(cost, b);
      this.heapPush(cost);
    }
    this.lastBucket = b;
    this.lastPushed = cost;
    b.push(id);
    this.held++;
  }

  /** The cheapest id (smallest id among equal costs); call only when size > 0. */
  pop(): number {
    if (this.at === this.draining.length) {
      const cost = this.heapPop();
      const b = this.buckets.get(cost) as Bucket;
      this.buckets.delete(cost);
      this.forget(cost);
      this.draining = b.take();
      this.at = 0;
      this.lastCost = cost;
    }
    this.held--;
    return this.draining[this.at++] as number;
  }

  /** The cheapest cost waiting (Infinity when empty), without taking anything. */
  peekCost(): number {
    if (this.at < this.draining.length) return this.lastCost;
    return this.costs.length > 0 ? (this.costs[0] as number) : Infinity;
  }

  /**
   * Takes the whole cheapest bucket: its cost and its ids, sorted (stale entries included: the
   * caller skips them). Call only when nothing is being drained by `pop`.
   */
  popBucket(): { cost: number; ids: Int32Array } | null {
    if (this.costs.length === 0) return null;
    const cost = this.heapPop();
    const b = this.buckets.get(cost) as Bucket;
    this.buckets.delete(cost);
    this.forget(cost);
    this.held -= b.n;
    this.lastCost = cost;
    return { cost, ids: b.take() };
  }

  /** A bucket taken out of the queue is no longer where a push of its cost goes. */
  private forget(cost: number): void {
    if (cost === this.lastPushed) {
      this.lastBucket = null;
      this.lastPushed = -1;
    }
  }

  get bytes(): number {
    let b = this.draining.byteLength + this.costs.length * 8;
    for (const x of this.buckets.values()) b += x.ids.byteLength;
    return b;
  }

  private heapPush(c: number): void {
    const h = this.costs;
    let i = h.length;
    h.push(c);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((h[p] as number) <= c) break;
      h[i] = h[p] as number;
      i = p;
    }
    h[i] = c;
  }

  private heapPop(): number {
    const h = this.costs;
    const top = h[0] as number;
    const last = h.pop() as number;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && (h[r] as number) < (h[l] as number) ? r : l;
        if ((h[c] as number) >= last) break;
        h[i] = h[c] as number;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
