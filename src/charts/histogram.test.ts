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

  it('labels large counts short enough for the margin, and shrinks bar labels when crowded', () => {
    const l = histogramLayout([3360, 9076, 8144], 720, 220);
    expect(l.ticks.map((t) => t.label)).toEqual(['0', '2k', '4k', '6k', '8k', '10k']);
    // Up to billions of end states, a label stays within four characters (the 48 px margin).
    for (const top of [7, 999, 123_456, 45_000_000, 2_500_000_000]) {
      for (const t of histogramLayout([top], 720, 220).ticks)
        expect(t.label.length).toBeLessThanOrEqual(4);
    }
    const crowded = histogramLayout(
      Array.from({ length: 15 }, () => 5),
      720,
      220,
    );
    expect(crowded.labelSize).toBeLessThan(l.labelSize);
  });
});
