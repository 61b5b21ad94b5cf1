// Throughput against CPUs: one line per algorithm through the medians, a band from the slowest to
// the fastest repetition, and a dot per measured CPU count. Pure math (d3-scale, d3-shape);
// ScalingLines.tsx renders it. Also used for per-CPU efficiency (a ratio instead of a rate).

import { area, line } from 'd3';
import { linearScale } from './linearScale.ts';
import { CPU_CHART_MARGIN, cpuAxis, type PlotBox, plotBox, type XTick } from './cpuAxis.ts';
import { type Tick, yTicks } from './geometry.ts';

export interface LinePoint {
  /** CPUs. */
  readonly x: number;
  readonly y: number;
  /** The band: the slowest and fastest repetition (equal to y when there is none). */
  readonly lo: number;
  readonly hi: number;
}

export interface LineSeries {
  readonly key: string;
  readonly label: string;
  readonly points: readonly LinePoint[];
}

export interface LinesLayout {
  readonly xTicks: readonly XTick[];
  readonly yTicks: readonly Tick[];
  readonly series: readonly {
    readonly key: string;
    readonly label: string;
    readonly path: string;
    readonly band: string;
    readonly dots: readonly {
      readonly cx: number;
      readonly cy: number;
      readonly point: LinePoint;
    }[];
  }[];
  readonly plot: PlotBox;
}

export function linesLayout(
  series: readonly LineSeries[],
  width: number,
  height: number,
  yLabel: (v: number) => string,
  margin = CPU_CHART_MARGIN,
): LinesLayout {
  const all = series.flatMap((s) => s.points);
  const { x, xTicks } = cpuAxis(
    all.map((p) => p.x),
    width,
    margin,
  );
  const yMax = Math.max(1e-9, ...all.map((p) => p.hi));
  const y = linearScale([0, yMax * 1.08], [height - margin.bottom, margin.top], { nice: 5 });
  const sorted = (s: LineSeries) => [...s.points].sort((a, b) => a.x - b.x);
  return {
    xTicks,
    yTicks: yTicks(y, 5, yLabel),
    series: series.map((s) => {
      const pts = sorted(s);
      return {
        key: s.key,
        label: s.label,
        path:
          line<LinePoint>()
            .x((p) => x(p.x))
            .y((p) => y(p.y))(pts) ?? '',
        band:
          area<LinePoint>()
            .x((p) => x(p.x))
            .y0((p) => y(p.lo))
            .y1((p) => y(p.hi))(pts) ?? '',
        dots: pts.map((p) => ({ cx: x(p.x), cy: y(p.y), point: p })),
      };
    }),
    plot: plotBox(width, height, margin),
  };
}
