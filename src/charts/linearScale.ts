// A linear scale from numbers to numbers: the one every chart uses, with only the calls the charts
// make (map a value, ticks, nice). Why not d3's scaleLinear: its continuous scale interpolates
// with d3-interpolate's generic `interpolate` (colours, strings, dates, objects) and offers
// `tickFormat` (d3-format), and both come along wherever it is imported. On a Step link that was
// about 10 KB of the gzipped JavaScript the page budget counts (d3-color 4.0 KB, d3-interpolate
// 2.0 KB, d3-format 1.9 KB, d3-scale 1.9 KB), for charts that only ever map numbers to pixels.
// This file computes exactly what scaleLinear computes for a two-number domain and range (the same
// formulas, so the same pixels; linearScale.test.ts compares them), and d3-array still does the
// tick math (`ticks`, `tickIncrement`).

import { tickIncrement, ticks } from 'd3';

/** A map from a domain [d0, d1] to a range [r0, r1], linear, not clamped. */
export interface LinearScale {
  (value: number): number;
  /** The domain, after `nice` if it was asked for. */
  readonly domain: readonly [number, number];
  /** About `count` round values within the domain (d3-array's `ticks`). */
  ticks(count?: number): number[];
}

/** The options of `linearScale`. */
export interface LinearScaleOptions {
  /**
   * Widen the domain to round values for about this many ticks (d3's `scale.nice(count)`;
   * `true` means d3's default of 10).
   */
  readonly nice?: number | true;
}

/**
 * The linear scale from `domain` to `range`, as d3's `scaleLinear().domain(domain).range(range)`
 * (then `.nice(n)` when `options.nice` is given). A value outside the domain extrapolates; a
 * domain of one point maps everything to the range's middle; NaN maps to NaN (d3 gives undefined).
 */
export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
  options: LinearScaleOptions = {},
): LinearScale {
  const d =
    options.nice === undefined
      ? domain
      : niceDomain(domain, options.nice === true ? 10 : options.nice);
  return Object.assign(interpolator(d, range), {
    domain: d,
    ticks: (count = 10) => ticks(d[0], d[1], count),
  });
}

// d3-scale's `bimap`: normalise over the ascending domain, then interpolate the range in the same
// order (a descending domain swaps both ends), as `a * (1 - t) + b * t`, d3's interpolateNumber.
function interpolator(
  [d0, d1]: readonly [number, number],
  [r0, r1]: readonly [number, number],
): (x: number) => number {
  const [a, b, from, to] = d1 < d0 ? [d1, d0, r1, r0] : [d0, d1, r0, r1];
  const width = b - a;
  const t = width ? (x: number) => (x - a) / width : () => (Number.isNaN(width) ? NaN : 0.5);
  return (x) => {
    const u = t(x);
    return from * (1 - u) + to * u;
  };
}

// d3-scale's `linear.nice(count)`: step the ends out to multiples of the tick increment until the
// increment stops changing (at most 10 rounds); a domain that never settles is left as it was.
function niceDomain(domain: readonly [number, number], count: number): readonly [number, number] {
  const reversed = domain[1] < domain[0];
  let [start, stop] = reversed ? [domain[1], domain[0]] : domain;
  let prestep: number | undefined;
  for (let round = 0; round < 10; round++) {
    const step = tickIncrement(start, stop, count);
    if (step === prestep) return reversed ? [stop, start] : [start, stop];
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else {
      break;
    }
    prestep = step;
  }
  return domain;
}
