// The cheap read's accuracy against CPUs: per counter, its worst error measured (a solid line
// with dots) and its bound (a dashed line), on a logarithmic axis, since the bounds grow from 0
// (one CPU's tree is exact) to hundreds. The axis is symmetric-log (d3's scaleSymlog): logarithmic
// above 1 and linear near 0, so an error of 0 sits on the axis's base instead of below it.
// Pure math; AccuracyLines.tsx renders it.

import { line, scaleLinear, scaleSymlog } from 'd3';
import type { Tick } from './geometry.ts';

export interface AccuracyInput {
  readonly scenario: string;
  readonly kind: 'measured' | 'bound';
  readonly label: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface AccuracyLayout {
  readonly xTicks: readonly { readonly x: number; readonly label: string }[];
  readonly yTicks: readonly Tick[];
  readonly series: readonly {
    readonly key: string;
    readonly scenario: string;
    readonly kind: 'measured' | 'bound';
    readonly label: string;
    readonly path: string;
    readonly dots: readonly {
      readonly cx: number;
      readonly cy: number;
      readonly x: number;
      readonly y: number;
    }[];
  }[];
  readonly plot: {
    readonly left: number;
    readonly right: number;
    readonly top: number;
    readonly bottom: number;
  };
}

export const ACCURACY_MARGIN = { top: 12, right: 16, bottom: 36, left: 56 };

/** 0, 1, 10, 100, … up to the first power of ten at or above `max`. */
export function decades(max: number): number[] {
  const out = [0, 1];
  while ((out.at(-1) as number) < max) out.push((out.at(-1) as number) * 10);
  return out;
}

export function accuracyLayout(
  series: readonly AccuracyInput[],
  width: number,
  height: number,
  margin = ACCURACY_MARGIN,
): AccuracyLayout {
  const all = series.flatMap((s) => s.points);
  const xs = [...new Set(all.map((p) => p.x))].sort((a, b) => a - b);
  const xMax = Math.max(1, ...xs);
  const x = scaleLinear()
    .domain([Math.min(1, ...xs), xMax === 1 ? 2 : xMax])
    .range([margin.left, width - margin.right]);
  const ticks = decades(Math.max(1, ...all.map((p) => p.y)));
  const y = scaleSymlog()
    .domain([0, ticks.at(-1) as number])
    .range([height - margin.bottom, margin.top]);
  return {
    xTicks: xs.map((v) => ({ x: x(v), label: String(v) })),
    yTicks: ticks.map((v) => ({ y: y(v), label: String(v) })),
    series: series.map((s) => {
      const pts = [...s.points].sort((a, b) => a.x - b.x);
      return {
        key: `${s.scenario}|${s.kind}`,
        scenario: s.scenario,
        kind: s.kind,
        label: s.label,
        path:
          line<{ x: number; y: number }>()
            .x((p) => x(p.x))
            .y((p) => y(p.y))(pts) ?? '',
        dots: pts.map((p) => ({ cx: x(p.x), cy: y(p.y), x: p.x, y: p.y })),
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
