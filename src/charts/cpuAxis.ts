// The frame both line charts against CPUs share (ScalingLines for throughput and efficiency,
// AccuracyLines for the cheap read's error): an x axis with a tick at each measured CPU count and
// the plot's box inside the margins. Pure math; parts.tsx's CpuAxis draws the ticks.

import { linearScale, type LinearScale } from './linearScale.ts';

/** A label under the x axis: where it is, and its text. */
export interface XTick {
  readonly x: number;
  readonly label: string;
}

/** Where the lines may go, inside the margins. */
export interface PlotBox {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface Margin {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

/** The margins of a line chart against CPUs: room for y labels on the left, x labels below. */
export const CPU_CHART_MARGIN: Margin = { top: 12, right: 16, bottom: 36, left: 56 };

/**
 * The x scale over the CPU counts measured (from 1, or the fewest if below, to the most; one CPU
 * alone still gets a width) and a tick per count.
 */
export function cpuAxis(
  counts: readonly number[],
  width: number,
  margin: Margin,
): { x: LinearScale; xTicks: XTick[] } {
  const xs = [...new Set(counts)].sort((a, b) => a - b);
  const xMax = Math.max(1, ...xs);
  const x = linearScale(
    [Math.min(1, ...xs), xMax === 1 ? 2 : xMax],
    [margin.left, width - margin.right],
  );
  return { x, xTicks: xs.map((v) => ({ x: x(v), label: String(v) })) };
}

/** The plot's box in a `width` × `height` chart with `margin` around it. */
export function plotBox(width: number, height: number, margin: Margin): PlotBox {
  return {
    left: margin.left,
    right: width - margin.right,
    top: margin.top,
    bottom: height - margin.bottom,
  };
}
