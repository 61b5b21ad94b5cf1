import { describe, expect, it } from 'vitest';
import { trackBoxes } from './storeBuffer.ts';

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
});
