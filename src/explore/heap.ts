// A binary min-heap of node ids ordered by (cost, id). Ties go to the smaller id, i.e. the node
// discovered first, which makes every exploration deterministic.

export class MinHeap {
  private ids = new Int32Array(1024);
  private costs = new Float64Array(1024);
  private n = 0;

  get size(): number {
    return this.n;
  }

  push(id: number, cost: number): void {
    if (this.n === this.ids.length) {
      const ids = new Int32Array(this.n * 2);
      ids.set(this.ids);
      this.ids = ids;
      const costs = new Float64Array(this.n * 2);
      costs.set(this.costs);
      this.costs = costs;
    }
    let i = this.n++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(id, cost, this.ids[parent] as number, this.costs[parent] as number)) break;
      this.ids[i] = this.ids[parent] as number;
      this.costs[i] = this.costs[parent] as number;
      i = parent;
    }
    this.ids[i] = id;
    this.costs[i] = cost;
  }

  /** Removes the smallest entry; returns its id, with its cost in `lastCost`. */
  pop(): number {
    const top = this.ids[0] as number;
    this.lastCost = this.costs[0] as number;
    const id = this.ids[--this.n] as number;
    const cost = this.costs[this.n] as number;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.n) break;
      const r = l + 1;
      let c = l;
      if (
        r < this.n &&
        this.less(
          this.ids[r] as number,
          this.costs[r] as number,
          this.ids[l] as number,
          this.costs[l] as number,
        )
      )
        c = r;
      if (!this.less(this.ids[c] as number, this.costs[c] as number, id, cost)) break;
      this.ids[i] = this.ids[c] as number;
      this.costs[i] = this.costs[c] as number;
      i = c;
    }
    this.ids[i] = id;
    this.costs[i] = cost;
    return top;
  }

  lastCost = 0;

  private less(a: number, ca: number, b: number, cb: number): boolean {
    return ca < cb || (ca === cb && a < b);
  }
}
