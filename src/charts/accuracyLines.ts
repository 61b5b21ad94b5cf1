// The cheap read's accuracy against CPUs: per counter, its worst error measured (a solid line
// with dots) and its bound (a dashed line), on a logarithmic axis, since the bounds grow from 0
// (one CPU's tree is exact) to hundreds. The axis is symmetric-log (symlogScale.ts, d3's
// scaleSymlog's math): logarithmic above 1 and linear near 0, so an error of 0 sits on the axis's
// base instead of below it.
// Pure math; AccuracyLines.tsx renders it.

import { line } from 'd3';
import { CPU_CHART_MARGIN, cpuAxis, type PlotBox, plotBox, type XTick } from './cpuAxis.ts';
import type { Tick } from './geometry.ts';
import { symlogScale } from './symlogScale.ts';

export interface AccuracyInput {
  readonly scenario: string;
  readonly kind: 'measured' | 'bound';
  readonly label: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface AccuracyLayout {
  readonly xTicks: readonly XTick[];
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
  readonly plot: PlotBox;
}

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
  margin = CPU_CHART_MARGIN,
): AccuracyLayout {
  const all = series.flatMap((s) => s.points);
  const { x, xTicks } = cpuAxis(
    all.map((p) => p.x),
    width,
    margin,
  );
  const ticks = decades(Math.max(1, ...all.map((p) => p.y)));
  const y = symlogScale([0, ticks.at(-1) as number], [height - margin.bottom, margin.top]);
  return {
    xTicks,
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
    plot: plotBox(width, height, margin),
  };
}
