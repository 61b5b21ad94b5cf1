import { describe, expect, it } from 'vitest';
import { HISTOGRAM, histogramLayout } from './histogram.ts';

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

  it('drawn at the Explore panel’s 315 px, its text is at least 11 px; crowded labels thin out', () => {
    // At 1280 × 720 the panel gives the chart about 315 px; the text must stay readable there.
    const { width, height, margin, text } = HISTOGRAM;
    const scale = 315 / width;
    for (const n of [1, 3, 8, 15, 40]) {
      const l = histogramLayout(
        Array.from({ length: n }, (_, i) => i + 1),
        width,
        height,
        margin,
      );
      expect(Math.min(text, l.labelSize) * scale).toBeGreaterThanOrEqual(11);
      // The labels drawn do not run into each other (2.6 em covers '✗ #40').
      const drawn = l.bars.filter((b) => b.labelled);
      expect(drawn[0]?.index).toBe(0);
      for (let i = 1; i < drawn.length; i++) {
        const [a, b] = [drawn[i - 1], drawn[i]];
        if (a && b) expect(b.x - a.x).toBeGreaterThanOrEqual(l.labelSize * 2.6 - 0.001);
      }
    }
  });
});
