// A rate over the last seconds as a small line chart: time on x (the newest at the right), the
// rate on y from zero. Pure math (linearScale.ts, d3-shape); Sparkline.tsx renders it.

import { line } from 'd3';
import { linearScale } from './linearScale.ts';

export interface Point {
  /** Seconds since the start of the run. */
  readonly t: number;
  readonly v: number;
}

export interface SparklineLayout {
  readonly path: string;
  /** The largest value shown (the top of the y scale). */
  readonly max: number;
  /** The newest value and where it is drawn, for the end marker. */
  readonly last: { readonly x: number; readonly y: number; readonly v: number } | null;
}

export function sparklineLayout(
  points: readonly Point[],
  width: number,
  height: number,
  windowSeconds: number,
): SparklineLayout {
  const end = points.length ? (points[points.length - 1] as Point).t : 0;
  const max = Math.max(1, ...points.map((p) => p.v));
  const x = linearScale([end - windowSeconds, end], [2, width - 2]);
  const y = linearScale([0, max * 1.1], [height - 2, 2]);
  const shown = points.filter((p) => p.t >= end - windowSeconds);
  const path =
    line<Point>()
      .x((p) => x(p.t))
      .y((p) => y(p.v))(shown) ?? '';
  const lastPoint = shown[shown.length - 1];
  return {
    path,
    max,
    last: lastPoint ? { x: x(lastPoint.t), y: y(lastPoint.v), v: lastPoint.v } : null,
  };
}

/** Events per second between successive cumulative counts (t in seconds). */
export function ratesOf(counts: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (let i = 1; i < counts.length; i++) {
    const a = counts[i - 1] as Point;
    const b = counts[i] as Point;
    const dt = b.t - a.t;
    if (dt > 0) out.push({ t: b.t, v: Math.max(0, (b.v - a.v) / dt) });
  }
  return out;
}
