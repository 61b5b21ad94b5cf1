import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { linearScale } from './linearScale.ts';

// Domains and ranges of the kinds the charts make (a count from zero, a symmetric ±extent, a time
// window, a CPU axis, a padded number line, one point) and a few awkward ones (descending,
// fractional, tiny, huge), against d3's scaleLinear: every output must be the same number, to the
// last bit, or the charts' pixels would move.
const DOMAINS: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 10],
  [0, 37],
  [0, 1.08 * 9_876_543],
  [-35.2, 35.2],
  [-1.1, 1.1],
  [1, 64],
  [1, 2],
  [1717.25, 1727.25],
  [-3.7, 12.9],
  [0.0001, 0.00093],
  [10, 0],
  [5, -5],
  [3, 3],
  [0, 0],
  [-1e12, 3e15],
];
const RANGES: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 240],
  [364, 12],
  [56, 584],
  [-20, 20],
  [5, 5],
];
const COUNTS = [undefined, 1, 4, 5, 10] as const;

function probes([a, b]: readonly [number, number]): number[] {
  const w = b - a;
  return [a, b, 0, 1, -1, a + w / 3, a + w / 2, b + w, a - 2.5 * w, 1e6, -0.5];
}

describe('linearScale', () => {
  it('maps every value as d3’s scaleLinear does, for every domain and range', () => {
    for (const domain of DOMAINS) {
      for (const range of RANGES) {
        const ours = linearScale(domain, range);
        const d3s = scaleLinear().domain(domain).range(range);
        for (const v of probes(domain))
          expect(ours(v), `${String(domain)}→${String(range)} at ${String(v)}`).toBe(d3s(v));
      }
    }
  });

  it('gives the same ticks as d3 for every count', () => {
    for (const domain of DOMAINS) {
      const ours = linearScale(domain, [0, 100]);
      const d3s = scaleLinear().domain(domain).range([0, 100]);
      for (const count of COUNTS)
        expect(ours.ticks(count), `${String(domain)} ×${String(count)}`).toEqual(d3s.ticks(count));
    }
  });

  it('widens the domain as d3’s nice does, then maps and ticks the same', () => {
    for (const domain of DOMAINS) {
      for (const count of COUNTS) {
        const ours = linearScale(domain, [364, 12], { nice: count ?? true });
        const d3s = scaleLinear().domain(domain).nice(count).range([364, 12]);
        const what = `${String(domain)} nice ${String(count)}`;
        expect([...ours.domain], what).toEqual(d3s.domain());
        expect(ours.ticks(5), what).toEqual(d3s.ticks(5));
        for (const v of probes(domain)) expect(ours(v), `${what} at ${String(v)}`).toBe(d3s(v));
      }
    }
  });

  it('rounds a count’s axis out to round numbers', () => {
    const y = linearScale([0, 37], [200, 0], { nice: 5 });
    expect(y.domain).toEqual([0, 40]);
    expect(y.ticks(4)).toEqual([0, 10, 20, 30, 40]);
    expect(y(40)).toBe(0);
  });

  it('puts everything at the middle of the range when the domain is one point', () => {
    expect(linearScale([3, 3], [0, 240])(99)).toBe(120);
  });

  it('maps NaN to NaN', () => {
    expect(linearScale([0, 1], [0, 10])(NaN)).toBeNaN();
  });
});
