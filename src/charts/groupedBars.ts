// Grouped vertical bars: for each category (an algorithm) one bar per series (padded and packed
// slots; no summer and a busy one). Pure math (d3-scale); GroupedBars.tsx renders it.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import { type Box, type Tick, yTicks } from './geometry.ts';

export interface BarGroup {
  readonly category: string;
  /** One value per series, in the order of the series; null where it was not measured. */
  readonly values: readonly (number | null)[];
}

export interface GroupedBarsLayout {
  readonly bars: readonly (Box & {
    readonly category: string;
    readonly series: number;
    readonly value: number;
  })[];
  readonly categories: readonly { readonly category: string; readonly x: number }[];
  readonly yTicks: readonly Tick[];
  readonly baseline: number;
}

export function groupedBarsLayout(
  groups: readonly BarGroup[],
  seriesCount: number,
  width: number,
  height: number,
  yLabel: (v: number) => string,
  margin = { top: 12, right: 12, bottom: 48, left: 72 },
): GroupedBarsLayout {
  const max = Math.max(1e-9, ...groups.flatMap((g) => g.values.map((v) => v ?? 0)));
  const x = scaleBand()
    .domain(groups.map((g) => g.category))
    .range([margin.left, width - margin.right])
    .padding(0.25);
  const inner = scaleBand<number>()
    .domain(Array.from({ length: seriesCount }, (_, i) => i))
    .range([0, x.bandwidth()])
    .padding(0.08);
  const y = linearScale([0, max * 1.08], [height - margin.bottom, margin.top], { nice: 5 });
  const baseline = y(0);
  return {
    bars: groups.flatMap((g) =>
      g.values.flatMap((v, series) =>
        v === null
          ? []
          : [
              {
                category: g.category,
                series,
                value: v,
                x: (x(g.category) ?? 0) + (inner(series) ?? 0),
                y: y(v),
                width: inner.bandwidth(),
                height: Math.max(1, baseline - y(v)),
              },
            ],
      ),
    ),
    categories: groups.map((g) => ({
      category: g.category,
      x: (x(g.category) ?? 0) + x.bandwidth() / 2,
    })),
    yTicks: yTicks(y, 5, yLabel),
    baseline,
  };
}
