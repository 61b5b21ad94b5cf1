// The accuracy chart's symmetric-log axis (logarithmic above 1, linear near 0), as d3's
// scaleSymlog computes it with its default constant of 1: the linear scale over the transformed
// domain, applied to the transformed value. Why not scaleSymlog itself: it is d3-scale's
// continuous scale, which brings d3-interpolate, d3-color and d3-format along, and since d3-scale
// is one module shared by every chart, the Step screen's chunk (it uses scaleBand) would carry
// that code too: about 9 KB of the Step link's gzipped JavaScript, which has a budget.
// symlogScale.test.ts checks it against scaleSymlog.

import { linearScale } from './linearScale.ts';

/** d3's symlog transform with constant 1: sign(x)·log(1 + |x|). */
function symlog(x: number): number {
  return Math.sign(x) * Math.log1p(Math.abs(x));
}

/** The symmetric-log scale from `domain` to `range`, as `scaleSymlog().domain(…).range(…)`. */
export function symlogScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): (value: number) => number {
  const linear = linearScale([symlog(domain[0]), symlog(domain[1])], range);
  return (value) => linear(symlog(value));
}
