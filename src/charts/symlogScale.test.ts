import { scaleSymlog } from 'd3';
import { describe, expect, it } from 'vitest';
import { symlogScale } from './symlogScale.ts';

describe('symlogScale', () => {
  it('maps every value as d3’s scaleSymlog does, to the last bit', () => {
    const domains: (readonly [number, number])[] = [
      [0, 1],
      [0, 10],
      [0, 1000],
      [0, 100_000],
      [-50, 50],
      [10, 0],
      [0, 0],
    ];
    for (const domain of domains) {
      for (const range of [[364, 12] as const, [0, 1] as const]) {
        const ours = symlogScale(domain, range);
        const d3s = scaleSymlog().domain(domain).range(range);
        for (const v of [0, 0.5, 1, 2, 3, 7, 10, 99, 100, 1000, 12_345, -1, -30, 1e6]) {
          expect(ours(v), `${String(domain)}→${String(range)} at ${String(v)}`).toBe(d3s(v));
        }
      }
    }
  });

  it('spaces decades evenly above 1 and keeps 0 at the base', () => {
    const y = symlogScale([0, 1000], [300, 0]);
    expect(y(0)).toBe(300);
    expect(y(1000)).toBe(0);
    const gaps = [1, 10, 100].map((v) => y(v) - y(v * 10));
    expect((gaps[2] as number) / (gaps[1] as number)).toBeCloseTo(1, 1);
  });
});
