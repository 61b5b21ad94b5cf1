// The explorer's queue hands out a cost's nodes in id order, whatever order they were pushed in:
// that order is what makes two runs print the same witnesses.

import { describe, expect, it } from 'vitest';
import { BucketQueue } from './queue.ts';

describe('BucketQueue', () => {
  it('gives each cost its ids sorted, cheapest cost first', () => {
    const q = new BucketQueue();
    // In order (new nodes), then one met again more cheaply (an older, smaller id).
    for (const id of [3, 5, 9, 40]) q.push(id, 7);
    q.push(2, 7);
    for (const id of [10, 11, 12]) q.push(id, 4);
    expect(q.size).toBe(8);
    expect(q.peekCost()).toBe(4);
    expect([...(q.popBucket()?.ids ?? [])]).toEqual([10, 11, 12]);
    expect([...(q.popBucket()?.ids ?? [])]).toEqual([2, 3, 5, 9, 40]);
    expect(q.popBucket()).toBeNull();
    expect(q.peekCost()).toBe(Infinity);
  });

  it('pops one at a time in the same order, and a cost pushed again after its bucket left', () => {
    const q = new BucketQueue();
    for (const [id, cost] of [
      [8, 1],
      [1, 2],
      [6, 1],
      [4, 1],
    ] as const)
      q.push(id, cost);
    expect([q.pop(), q.pop(), q.pop()]).toEqual([4, 6, 8]);
    expect(q.lastCost).toBe(1);
    // Cost 1's bucket is gone: a push of cost 1 makes a new one, not an append to the old.
    q.push(0, 1);
    expect([q.pop(), q.pop()]).toEqual([0, 1]);
    expect(q.size).toBe(0);
  });
});
