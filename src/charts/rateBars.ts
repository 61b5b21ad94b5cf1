// Throughput per CPU as horizontal bars from zero (one row per CPU), so 64 CPUs still fit.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';

export interface RateBar {
  readonly cpu: number;
  readonly value: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export function rateBarsLayout(
  values: readonly number[],
  width: number,
  height: number,
  left = 56,
  right = 96,
): { readonly bars: readonly RateBar[]; readonly x0: number; readonly max: number } {
  const max = Math.max(1, ...values);
  const x = linearScale([0, max], [left, width - right]);
  const y = scaleBand<number>()
    .domain(values.map((_, i) => i))
    .range([4, height - 4])
    .padding(0.2);
  return {
    bars: values.map((value, cpu) => ({
      cpu,
      value,
      y: y(cpu) ?? 0,
      width: Math.max(1, x(value) - left),
      height: y.bandwidth(),
    })),
    x0: left,
    max,
  };
}
