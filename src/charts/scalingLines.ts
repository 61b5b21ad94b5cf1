// Throughput against CPUs: one line per algorithm through the medians, a band from the slowest to
// the fastest repetition, and a dot per measured CPU count. Pure math (d3-scale, d3-shape);
// ScalingLines.tsx renders it. Also used for per-CPU efficiency (a ratio instead of a rate).

import { area, line, scaleLinear } from 'd3';
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
  readonly xTicks: readonly { readonly x: number; readonly label: string }[];
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
  readonly plot: {
    readonly left: number;
    readonly right: number;
    readonly top: number;
    readonly bottom: number;
  };
}

export const LINES_MARGIN = { top: 12, right: 16, bottom: 36, left: 56 };

export function linesLayout(
  series: readonly LineSeries[],
  width: number,
  height: number,
  yLabel: (v: number) => string,
  margin = LINES_MARGIN,
): LinesLayout {
  const all = series.flatMap((s) => s.points);
  const xs = [...new Set(all.map((p) => p.x))].sort((a, b) => a - b);
  const xMax = Math.max(1, ...xs);
  const x = scaleLinear()
    .domain([Math.min(1, ...xs), xMax === 1 ? 2 : xMax])
    .range([margin.left, width - margin.right]);
  const yMax = Math.max(1e-9, ...all.map((p) => p.hi));
  const y = scaleLinear()
    .domain([0, yMax * 1.08])
    .nice(5)
    .range([height - margin.bottom, margin.top]);
  const sorted = (s: LineSeries) => [...s.points].sort((a, b) => a.x - b.x);
  return {
    xTicks: xs.map((v) => ({ x: x(v), label: String(v) })),
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
    plot: {
      left: margin.left,
      right: width - margin.right,
      top: margin.top,
      bottom: height - margin.bottom,
    },
  };
}
