// Layout of the outcome histogram: one bar per outcome, its height the number of distinct end
// states that reach it (d3-scale; React renders).

import { format, scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import type { Box, Tick } from './geometry.ts';

export interface HistogramBar extends Box {
  readonly index: number;
  readonly count: number;
  /** Whether its label (`#3`) is drawn: when bars crowd, every other one or fewer. */
  readonly labelled: boolean;
}

/**
 * The histogram's drawing size and type, in SVG units. The Explore panel draws it about 315 px
 * wide at 1280 × 720 (up to 768 px in a wide window): a drawing about that size keeps its text
 * near the size it is set at, where a 720-unit one drew 12-unit labels at 5 px.
 */
export const HISTOGRAM = {
  width: 340,
  height: 170,
  margin: { top: 18, right: 8, bottom: 26, left: 44 },
  /** Axis titles and tick labels. */
  text: 12,
} as const;

/** About how wide a bar label (`✗ #12`) is, per unit of font size. */
const LABEL_EM = 2.6;

export function histogramLayout(
  counts: readonly number[],
  width: number,
  height: number,
  margin = { top: 20, right: 10, bottom: 10, left: 48 },
): {
  bars: HistogramBar[];
  ticks: Tick[];
  baseline: number;
  /** Font size for the bar labels: the chart's text size, larger when bars are wide. */
  labelSize: number;
} {
  const y = linearScale([0, Math.max(1, ...counts)], [height - margin.bottom, margin.top], {
    nice: true,
  });
  const x = scaleBand<number>()
    .domain(counts.map((_, i) => i))
    .range([margin.left, width - margin.right])
    .padding(0.2);
  const labelSize = Math.max(HISTOGRAM.text, Math.min(14, x.bandwidth() / 3.2));
  // Labels that would run into each other: draw one every `every` bars (the first always).
  const every = Math.max(1, Math.ceil((labelSize * LABEL_EM) / Math.max(1, x.step())));
  return {
    bars: counts.map((count, index) => ({
      index,
      count,
      labelled: index % every === 0,
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
    labelSize,
  };
}
