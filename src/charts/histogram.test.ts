import { describe, expect, it } from 'vitest';
import { histogramLayout } from './histogram.ts';

describe('histogramLayout', () => {
  it('gives each outcome a bar proportional to its count, on whole-number ticks', () => {
    const l = histogramLayout([1, 2, 1], 300, 100);
    expect(l.bars.map((b) => b.count)).toEqual([1, 2, 1]);
    const [a, b] = l.bars;
    expect(b && a ? b.height / a.height : 0).toBeCloseTo(2, 1);
    expect(l.ticks.every((t) => Number.isInteger(Number(t.label)))).toBe(true);
    expect(l.bars.every((x) => x.y + x.height <= l.baseline + 0.001)).toBe(true);
  });
});
