import { describe, expect, it } from 'vitest';
import { linesLayout } from './scalingLines.ts';

const at = (x: number, y: number) => ({ x, y, lo: y, hi: y });
const series = [
  { key: 'percpu-classic', label: 'percpu-classic', points: [at(1, 10), at(2, 18), at(4, 16)] },
];

describe('linesLayout', () => {
  it('marks the CPU counts above the cores: a band from halfway to the first, hollow dots', () => {
    const l = linesLayout(series, 640, 300, String, 2);
    const dots = l.series[0]?.dots ?? [];
    expect(dots.map((d) => d.oversubscribed)).toEqual([false, false, true]);
    const [two, four] = [dots[1]?.cx ?? 0, dots[2]?.cx ?? 0];
    expect(l.oversubscribed?.x).toBeCloseTo((two + four) / 2);
    expect((l.oversubscribed?.x ?? 0) + (l.oversubscribed?.width ?? 0)).toBe(l.plot.right);
  });

  it('marks nothing where every count fits the cores, or the cores are not given', () => {
    expect(linesLayout(series, 640, 300, String, 4).oversubscribed).toBeNull();
    const l = linesLayout(series, 640, 300, String);
    expect(l.oversubscribed).toBeNull();
    expect(l.series[0]?.dots.some((d) => d.oversubscribed)).toBe(false);
  });
});
