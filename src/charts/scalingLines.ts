// Throughput against CPUs: one line per algorithm through the medians, a band from the slowest to
// the fastest repetition, and a dot per measured CPU count. Pure math (d3-scale, d3-shape);
// ScalingLines.tsx renders it. Also used for per-CPU efficiency (a ratio instead of a rate).
// Counts of more CPUs than the machine has cores are marked: there CPUs take turns on a core, so
// those points measure time-sharing, not scaling.

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
      /** More CPUs than cores: drawn hollow. */
      readonly oversubscribed: boolean;
    }[];
  }[];
  readonly plot: PlotBox;
  /** The band over CPU counts above the cores (from halfway to the first), or null if none. */
  readonly oversubscribed: { readonly x: number; readonly width: number } | null;
}

export function linesLayout(
  series: readonly LineSeries[],
  width: number,
  height: number,
  yLabel: (v: number) => string,
  /** The machine's cores: counts above them are marked (none marked when omitted). */
  cores = Infinity,
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
  const firstOver = Math.min(...all.map((p) => p.x).filter((v) => v > cores));
  const plot = plotBox(width, height, margin);
  const from = Number.isFinite(firstOver) ? x((cores + firstOver) / 2) : null;
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
        dots: pts.map((p) => ({
          cx: x(p.x),
          cy: y(p.y),
          point: p,
          oversubscribed: p.x > cores,
        })),
      };
    }),
    plot,
    oversubscribed: from === null ? null : { x: from, width: Math.max(0, plot.right - from) },
  };
}
