import { describe, expect, it } from 'vitest';
import { signedShort } from '../live/format.ts';
import { errorBandLayout, errorBandSummary } from './errorBand.ts';
import { rateBarsLayout } from './rateBars.ts';
import { ratesOf, sparklineLayout } from './sparkline.ts';

/** A series of one point a second from t = 1: `series(10, 50)` is 10 at 1 s, 50 at 2 s. */
const series = (...vs: number[]) => vs.map((v, i) => ({ t: i + 1, v }));

describe('live chart layouts', () => {
  it('turns cumulative counts into rates per second', () => {
    const r = ratesOf([
      { t: 0, v: 0 },
      { t: 0.5, v: 100 },
      { t: 1, v: 100 },
    ]);
    expect(r).toEqual([
      { t: 0.5, v: 200 },
      { t: 1, v: 0 },
    ]);
  });

  it('draws the newest point of a sparkline at the right edge, the maximum at the top', () => {
    const l = sparklineLayout(series(10, 50), 100, 20, 10);
    expect(l.last?.x).toBeCloseTo(98, 5);
    expect(l.max).toBe(50);
    expect(l.path.startsWith('M')).toBe(true);
  });

  it('keeps the error band visible and marks errors outside it', () => {
    const l = errorBandLayout(series(2, -40), [], 6, 300, 100, 10);
    expect(l.band).not.toBeNull();
    expect(l.band?.height).toBeGreaterThan(0);
    expect(l.outside).toHaveLength(1);
    // The domain grows to show the worst error, so the bad point is inside the frame.
    expect(l.extent).toBeGreaterThanOrEqual(40);
  });

  it('marks every sum() outside its window, even inside the read() band', () => {
    const l = errorBandLayout([], series(4, 0), 6, 300, 100, 10);
    expect(l.outside).toHaveLength(1);
  });

  it('labels error ticks short enough for the margin', () => {
    expect(signedShort(12)).toBe('+12');
    expect(signedShort(-5_049_238)).toBe('−5.05 M');
    expect(signedShort(0)).toBe('0');
  });

  it('gives every CPU a bar proportional to its rate', () => {
    const l = rateBarsLayout([100, 50, 0], 300, 90);
    const [a, b, c] = l.bars;
    expect(a?.width).toBeCloseTo(2 * ((b?.width ?? 0) - 0), 0);
    expect(c?.width).toBe(1);
  });

  it('names the last sum() as the totals table does: within, or how far outside', () => {
    expect(errorBandSummary({ lastRead: -3, lastSum: 0, bound: 6, marked: 0 })).toBe(
      'read() is -3 from the exact total; the last sum() is within the totals while it ran; the band is ±6',
    );
    expect(errorBandSummary({ lastRead: undefined, lastSum: 32, bound: null, marked: 1 })).toBe(
      'the last sum() is 32 outside the totals while it ran; 1 sample marked × (a read() beyond the band or a sum() outside its window)',
    );
  });
});
