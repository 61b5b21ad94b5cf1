// Layout of the per-CPU delta bars: one bar per CPU from zero, with the ±batch threshold lines.
// Pure math (d3-scale), so it is tested without a browser; SlotBars.tsx renders it.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import { type Box, type Tick, yTicks } from './geometry.ts';

export interface Bar extends Box {
  readonly cpu: number;
  readonly value: number;
  /** |value| >= batch: past the threshold (drawn with a hatch, not only a colour). */
  readonly over: boolean;
}

export interface SlotBarsLayout {
  readonly bars: readonly Bar[];
  readonly zeroY: number;
  /** y of +batch and −batch (null when the scenario has no batch). */
  readonly plusY: number | null;
  readonly minusY: number | null;
  readonly ticks: readonly Tick[];
}

export function slotBarsLayout(
  values: readonly number[],
  batch: number | null,
  width: number,
  height: number,
  margin = { top: 12, right: 12, bottom: 28, left: 56 },
): SlotBarsLayout {
  // The domain always shows the thresholds, and every value, so a bar past the batch is visible.
  const extent = Math.max(1, batch ?? 0, ...values.map((v) => Math.abs(v)));
  const y = linearScale([-extent * 1.1, extent * 1.1], [height - margin.bottom, margin.top]);
  const x = scaleBand<number>()
    .domain(values.map((_, i) => i))
    .range([margin.left, width - margin.right])
    .padding(0.25);
  const zeroY = y(0);
  const bars = values.map((value, cpu) => {
    const top = y(Math.max(0, value));
    const bottom = y(Math.min(0, value));
    return {
      cpu,
      value,
      x: x(cpu) ?? 0,
      y: top,
      width: x.bandwidth(),
      height: Math.max(1, bottom - top),
      over: batch !== null && Math.abs(value) >= batch,
    };
  });
  return {
    bars,
    zeroY,
    plusY: batch === null ? null : y(batch),
    minusY: batch === null ? null : y(-batch),
    ticks: yTicks(y, 5),
  };
}

/**
 * The label under CPU k's bar, or null: "CPU1: 31" while they fit (up to 6 CPUs, and while the
 * bars' pitch holds the words: 16 px text, under 9.5 units a character), else "CPU1", then the
 * CPU number alone on every few bars, as many as fit (the values are in the chart's accessible
 * summary).
 */
export function barLabel(
  cpu: number,
  value: number,
  count: number,
  pitch = Infinity,
): string | null {
  if (count <= 6) {
    const full = `CPU${String(cpu)}: ${String(value)}`;
    return full.length * 9.5 <= pitch - 4 ? full : `CPU${String(cpu)}`;
  }
  // Every few bars: at most 16 labels, and far enough apart for the widest number.
  const widest = String(count - 1).length * 9.5 + 6;
  const every = Math.max(Math.ceil(count / 16), Math.ceil(widest / pitch));
  return cpu % every === 0 ? String(cpu) : null;
}
