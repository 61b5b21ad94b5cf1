import { describe, expect, it } from 'vitest';
import { bufferBoxes, trackBoxes } from './storeBuffer.ts';

describe('the store buffer rows', () => {
  const boxes = (texts: string[], ids: number[]) =>
    texts.map((text, i) => ({ text, id: ids[i] as number }));

  it('keeps a waiting store’s row when the oldest drains or a new store enters', () => {
    // a, b waiting; a drains and c enters: b keeps its id, c gets a new one.
    expect(trackBoxes(boxes(['a', 'b'], [0, 1]), ['b', 'c'], 2)).toEqual({
      ids: [1, 2],
      nextId: 3,
    });
    expect(trackBoxes(boxes(['a'], [4]), ['a', 'a'], 5)).toEqual({ ids: [4, 5], nextId: 6 });
    // Everything drained.
    expect(trackBoxes(boxes(['a', 'b'], [0, 1]), [], 2)).toEqual({ ids: [], nextId: 2 });
  });

  it('starts over when the buffer cannot have come from the last one (time travel)', () => {
    expect(trackBoxes(boxes(['a', 'b'], [0, 1]), ['c', 'a'], 2)).toEqual({
      ids: [2, 3],
      nextId: 4,
    });
  });

  it('lays the rows out oldest at the top, one band per entry of the buffer’s depth', () => {
    const rows = bufferBoxes(['x = 1', 'y = 2'], [7, 8], 4, 20, 22);
    expect(rows.map((r) => r.id)).toEqual([7, 8]);
    expect(rows[0]?.y).toBeLessThan(rows[1]?.y ?? 0);
    expect(rows[0]?.y).toBeGreaterThanOrEqual(20);
    expect((rows[1]?.y ?? 0) + (rows[1]?.height ?? 0)).toBeLessThanOrEqual(20 + 4 * 22);
  });
});
