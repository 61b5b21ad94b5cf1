import { describe, expect, it } from 'vitest';
import { foldAround, foldContext } from './listingFold.ts';

describe('foldAround', () => {
  it('keeps two lines above and one below each cursor, and folds the rest', () => {
    expect(foldAround(70, [31, 36, 61])).toEqual([
      { from: 1, to: 28, shown: false },
      { from: 29, to: 37, shown: true },
      { from: 38, to: 58, shown: false },
      { from: 59, to: 62, shown: true },
      { from: 63, to: 70, shown: false },
    ]);
  });

  it('shows a lone line between two kept runs rather than a fold row for it', () => {
    expect(foldAround(20, [5, 10])).toEqual([
      { from: 1, to: 2, shown: false },
      { from: 3, to: 11, shown: true },
      { from: 12, to: 20, shown: false },
    ]);
  });

  it('keeps a lone first or last line, and every line when the cursors cover them', () => {
    expect(foldAround(6, [3, 5])).toEqual([{ from: 1, to: 6, shown: true }]);
    expect(foldAround(3, [])).toEqual([{ from: 1, to: 3, shown: false }]);
  });
});

describe('foldContext', () => {
  const lines = (n: number, h = 20) => Array.from({ length: n }, () => h);

  it('does not fold when the lines from the first cursor to the last fit', () => {
    expect(foldContext(lines(100), [10, 20], 400)).toBeNull();
    expect(foldContext(lines(100), [], 400)).toBeNull();
  });

  it('keeps as much context as the room holds, and at least two lines', () => {
    // Cursors at 10 and 80 span 71 lines (1420 px). With context k: 2k lines about each, and
    // three fold rows (above, between, below), at 20 px a row.
    expect(foldContext(lines(100), [10, 80], 400)).toBe(4);
    expect(foldContext(lines(100), [10, 80], 330)).toBe(3);
    expect(foldContext(lines(100), [10, 80], 40)).toBe(2);
  });

  it('counts a wrapped line as its own height', () => {
    const h = lines(100);
    h[9] = 60;
    expect(foldContext(h, [10, 80], 330)).toBe(2);
  });
});
