import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupBy } from './groupBy.ts';

describe('groupBy', () => {
  it('keeps groups in order of first appearance and items in input order', () => {
    const items = [
      { id: 'a', group: '2006' },
      { id: 'b', group: '2011' },
      { id: 'c', group: '2006' },
    ];
    expect(groupBy(items, (item) => item.group)).toEqual([
      { key: '2006', items: [items[0], items[2]] },
      { key: '2011', items: [items[1]] },
    ]);
  });

  it('puts every item in exactly one group, under its own key', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 2 })), (keys) => {
        const groups = groupBy(keys, (key) => key);
        expect(groups.flatMap((group) => group.items)).toHaveLength(keys.length);
        for (const group of groups)
          expect(group.items.every((key) => key === group.key)).toBe(true);
        expect(new Set(groups.map((group) => group.key)).size).toBe(groups.length);
      }),
      { seed: 2006 },
    );
  });
});
