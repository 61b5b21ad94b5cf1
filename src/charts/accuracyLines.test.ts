import { describe, expect, it } from 'vitest';
import { type AccuracyInput, accuracyLayout, decades } from './accuracyLines.ts';

/** A series measured (or bounded) at 1, 2 and 4 CPUs. */
const at124 = (
  scenario: string,
  kind: AccuracyInput['kind'],
  label: string,
  ys: readonly [number, number, number],
): AccuracyInput => ({ scenario, kind, label, points: ys.map((y, i) => ({ x: 2 ** i, y })) });

const series = [
  at124('percpu-classic', 'measured', 'percpu-classic: worst error measured', [30, 58, 120]),
  at124('percpu-tree', 'bound', 'percpu-tree: bound', [0, 64, 256]),
];

describe('the accuracy chart', () => {
  it('labels the axis by decades from 0 past the largest value', () => {
    expect(decades(256)).toEqual([0, 1, 10, 100, 1000]);
    expect(decades(1)).toEqual([0, 1]);
  });

  it('puts 0 on the base, grows upward, and keeps ten times apart evenly', () => {
    const l = accuracyLayout(series, 640, 300);
    const tree = l.series.find((s) => s.scenario === 'percpu-tree');
    const base = tree?.dots.find((d) => d.x === 1);
    expect(base?.cy).toBeCloseTo(l.plot.bottom, 6);
    const ys = l.yTicks.map((t) => t.y);
    for (let i = 1; i < ys.length; i++) expect(ys[i]).toBeLessThan(ys[i - 1] as number);
    // 10 → 100 and 100 → 1000 are (nearly) the same height: a log axis above 1.
    const gap = (a: number, b: number) => (ys[a] as number) - (ys[b] as number);
    expect(Math.abs(gap(2, 3) - gap(3, 4))).toBeLessThan(gap(2, 3) * 0.1);
    for (const s of l.series)
      for (const d of s.dots) {
        expect(d.cy).toBeGreaterThanOrEqual(l.plot.top - 1e-9);
        expect(d.cy).toBeLessThanOrEqual(l.plot.bottom + 1e-9);
      }
  });

  it('keeps the measured and bound lines of one counter apart as series', () => {
    const l = accuracyLayout(series, 640, 300);
    expect(l.series.map((s) => s.key)).toEqual(['percpu-classic|measured', 'percpu-tree|bound']);
    expect(l.xTicks.map((t) => t.label)).toEqual(['1', '2', '4']);
  });
});
