// Layout of the counter chart: the global count at the left (a bar on the slots' scale when its
// values are comparable, else a labelled figure), then one bar per CPU's delta, the ±batch lines,
// and the x positions a sum's sweep passes (global first, then CPU0, CPU1…, as the sum reads
// them). Pure math (d3-scale): CounterChart.tsx renders it.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import { type Box, type Tick, yTicks } from './geometry.ts';

export type GlobalMode = 'bar' | 'figure';

/**
 * A bar on the slots' scale while the global count stays within a few batches (the default
 * scenarios: batch 4, counts of a few folds); a figure when it dwarfs them (fbc->count = 1000
 * against deltas of ±32), where one scale would flatten every delta to a line.
 */
export function globalModeOf(maxGlobal: number, maxSlot: number, batch: number | null): GlobalMode {
  return maxGlobal <= 3 * Math.max(1, batch ?? 0, maxSlot) ? 'bar' : 'figure';
}

export interface SlotBar extends Box {
  readonly cpu: number;
  readonly value: number;
  /** |value| ≥ batch: past the threshold (hatched, not only coloured). */
  readonly over: boolean;
}

export interface CounterLayout {
  readonly width: number;
  readonly height: number;
  readonly mode: GlobalMode;
  /** The global count's bar (bar mode) or its figure's frame (figure mode). */
  readonly global: Box;
  /** The global column, whatever the mode. */
  readonly globalColumn: { readonly x: number; readonly width: number };
  readonly slots: readonly SlotBar[];
  readonly zeroY: number;
  readonly plusY: number | null;
  readonly minusY: number | null;
  /**
   * Where the ±batch lines' names end (text-anchor end): at the right, unless a bar stands there;
   * then left of the first bar, from the right, whose column is clear at that height.
   */
  readonly thresholdX: { readonly plus: number; readonly minus: number };
  readonly ticks: readonly Tick[];
  /** The plot's top and bottom. */
  readonly top: number;
  readonly bottom: number;
  /** x of the sweep at position p: 0 before the global, 1 + k after CPU k−1's delta… */
  readonly sweepX: readonly number[];
  /** The y of a value on the shared scale. */
  readonly yOf: (v: number) => number;
}

export const COUNTER_W = 480;
export const COUNTER_H = 320;
const M = { top: 52, bottom: 74, left: 44, right: 8 };
const GLOBAL_W = 76;
const GAP = 30;
/** Room for a ±batch line's name (13 px Plex Sans): "+batch 32" is about 58 wide. */
const THRESHOLD_CHAR = 7.5;

/** The name of the +batch line ("+batch 32") and of the −batch line ("−batch"). */
export function thresholdNames(name: string, batch: number): { plus: string; minus: string } {
  return { plus: `+${name} ${String(batch)}`, minus: `−${name}` };
}

/**
 * The x a label `width` wide, its baseline at `y`, ends at: the right end (`right`) unless a bar
 * crosses it there; then just left of a bar, the rightmost place over no bar and right of `left`.
 */
function clearOfBars(
  bars: readonly Box[],
  right: number,
  left: number,
  width: number,
  top: number,
  bottom: number,
): number {
  const clear = (end: number) =>
    end - width >= left &&
    bars.every(
      (b) => end <= b.x || end - width >= b.x + b.width || b.y >= bottom || b.y + b.height <= top,
    );
  for (const end of [right, ...[...bars].reverse().map((b) => b.x - 4)]) if (clear(end)) return end;
  return right;
}

/**
 * `extent`: the largest |value| the scale must show over the whole timeline (so the scale does
 * not change under a tween); `global`: the global count now (a number in bar mode).
 */
export function counterLayout(o: {
  readonly slots: readonly number[];
  readonly batch: number | null;
  readonly global: number;
  readonly mode: GlobalMode;
  readonly extent: number;
  /** What the ±batch lines are called ("batch"; a limit's name). */
  readonly thresholdName?: string;
  readonly width?: number;
  readonly height?: number;
}): CounterLayout {
  const width = o.width ?? COUNTER_W;
  const height = o.height ?? COUNTER_H;
  const top = M.top;
  const bottom = height - M.bottom;
  const extent = Math.max(1, o.batch ?? 0, o.extent, ...o.slots.map((v) => Math.abs(v)));
  const y = linearScale([-extent * 1.1, extent * 1.1], [bottom, top]);
  const gx = M.left;
  const x = scaleBand<number>()
    .domain(o.slots.map((_, i) => i))
    .range([gx + GLOBAL_W + GAP, width - M.right])
    .paddingInner(0.25)
    .paddingOuter(0.1);
  const barOf = (v: number) => {
    const t = y(Math.max(0, v));
    return { y: t, height: Math.max(1, y(Math.min(0, v)) - t) };
  };
  const slots = o.slots.map((value, cpu) => ({
    cpu,
    value,
    x: x(cpu) ?? 0,
    width: x.bandwidth(),
    ...barOf(value),
    over: o.batch !== null && Math.abs(value) >= o.batch,
  }));
  const inset = 14;
  const global: Box =
    o.mode === 'bar'
      ? { x: gx + inset, width: GLOBAL_W - 2 * inset, ...barOf(o.global) }
      : { x: gx, width: GLOBAL_W, y: top + 30, height: bottom - top - 60 };
  const step = x.step();
  const right = width - 14;
  const names = thresholdNames(o.thresholdName ?? 'batch', o.batch ?? 0);
  const labelAt = (text: string, baseline: number) =>
    clearOfBars(
      slots,
      right,
      (slots[0]?.x ?? 0) - 8,
      text.length * THRESHOLD_CHAR,
      baseline - 13,
      baseline + 3,
    );
  const sweepX = [
    gx - 6,
    gx + GLOBAL_W + GAP / 2,
    ...slots.map((b) => Math.min(width - 4, b.x + b.width + (step - b.width) / 2)),
  ];
  return {
    width,
    height,
    mode: o.mode,
    global,
    globalColumn: { x: gx, width: GLOBAL_W },
    slots,
    zeroY: y(0),
    plusY: o.batch === null ? null : y(o.batch),
    minusY: o.batch === null ? null : y(-o.batch),
    thresholdX: {
      plus: o.batch === null ? right : labelAt(names.plus, y(o.batch) - 4),
      minus: o.batch === null ? right : labelAt(names.minus, y(-o.batch) + 15),
    },
    ticks: yTicks(y, 5),
    top,
    bottom,
    sweepX,
    yOf: (v) => y(v),
  };
}

/** The box a fold's batch occupies on CPU k's bar before it pours (its top `amount` units). */
export function batchBox(l: CounterLayout, cpu: number, amount: number): Box {
  const bar = l.slots[cpu];
  if (!bar) return { x: 0, y: l.zeroY, width: 0, height: 0 };
  const h = Math.max(6, Math.abs(l.yOf(amount) - l.zeroY));
  const y = amount >= 0 ? Math.min(bar.y, l.zeroY - h) : l.zeroY;
  return { x: bar.x, y, width: bar.width, height: h };
}

/** Where the batch lands: on top of the global bar (bar mode) or in the figure's frame. */
export function landingBox(l: CounterLayout, amount: number): Box {
  if (l.mode === 'figure') {
    const w = 30;
    return { x: l.global.x + (l.global.width - w) / 2, y: l.global.y + 8, width: w, height: 20 };
  }
  const h = Math.max(6, Math.abs(l.yOf(amount) - l.zeroY));
  const y = amount >= 0 ? l.global.y : l.global.y + l.global.height - h;
  return { x: l.global.x, y, width: l.global.width, height: h };
}

/**
 * The boxes under the columns that say what a running sum has read (the global count's, then
 * each CPU's), 21 high at the chart's foot: as wide as a column's pitch allows, so "not yet"
 * keeps its box with four CPUs on a phone.
 */
export function readBoxes(l: CounterLayout): Box[] {
  const first = l.slots[0];
  const pitch = l.slots.length > 1 ? (l.slots[1]?.x ?? 0) - (first?.x ?? 0) : l.width;
  const y = l.height - 24;
  const slotW = Math.max(first?.width ?? 0, Math.min(pitch - 6, 90));
  return [
    { x: l.globalColumn.x, y, width: l.globalColumn.width, height: 21 },
    ...l.slots.map((b) => ({ x: b.x + (b.width - slotW) / 2, y, width: slotW, height: 21 })),
  ];
}

/**
 * What a read box says: "✓ 1005" once read, "not yet" before, "skipped" where the walk passed
 * the CPU without reading it (a CPU out of the mask it walks); in a box too narrow for the words
 * (14 px text, about 7 units a character), the tick and "…".
 */
export function readText(read: string | null, width: number, skipped = false): string {
  const text = read === null ? (skipped ? 'skipped' : 'not yet') : `✓ ${read}`;
  if (text.length * 7 + 4 <= width) return text;
  return read === null ? '…' : read.length * 7 + 4 <= width ? read : '✓';
}
