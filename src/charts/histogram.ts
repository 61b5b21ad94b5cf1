// Layout of the outcome histogram: one bar per outcome, its height the number of distinct end
// states that reach it (d3-scale; React renders).

import { format, scaleBand, scaleLinear } from 'd3';
import type { Box, Tick } from './geometry.ts';

export interface HistogramBar extends Box {
  readonly index: number;
  readonly count: number;
}

export function histogramLayout(
  counts: readonly number[],
  width: number,
  height: number,
  margin = { top: 20, right: 10, bottom: 10, left: 48 },
): {
  bars: HistogramBar[];
  ticks: Tick[];
  baseline: number;
  /** Font size for the bar labels: smaller when many bars share the width. */
  labelSize: number;
} {
  const y = scaleLinear()
    .domain([0, Math.max(1, ...counts)])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const x = scaleBand<number>()
    .domain(counts.map((_, i) => i))
    .range([margin.left, width - margin.right])
    .padding(0.2);
  return {
    bars: counts.map((count, index) => ({
      index,
      count,
      x: x(index) ?? 0,
      y: y(count),
      width: x.bandwidth(),
      height: Math.max(1, y(0) - y(count)),
    })),
    // Counts are whole numbers: no 0.5 ticks. SI labels (10k, 2.5M) fit the left margin.
    ticks: y
      .ticks(4)
      .filter((t) => Number.isInteger(t))
      .map((t) => ({ y: y(t), label: format('~s')(t) })),
    baseline: y(0),
    labelSize: Math.max(9, Math.min(14, x.bandwidth() / 3.2)),
  };
}
