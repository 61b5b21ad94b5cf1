// How far read() and sum() are from the exact total, over time, against the error band
// ±(batch − 1) × CPUs. Errors are plotted (not the values) because the total climbs by millions
// a second while the band is a few dozen wide: on a value chart the band would be invisible.

import { line } from 'd3';
import { linearScale } from './linearScale.ts';
import { type Tick, yTicks } from './geometry.ts';
import type { Point } from './sparkline.ts';
import { signedShort } from '../live/format.ts';
import { count } from '../machine/count.ts';

export interface ErrorBandLayout {
  readonly band: { readonly y: number; readonly height: number } | null;
  readonly zeroY: number;
  readonly readPath: string;
  readonly sumPath: string;
  /** The y-domain's half height. */
  readonly extent: number;
  readonly ticks: readonly Tick[];
  /** Points outside the band (drawn as marks, so they are not colour alone). */
  readonly outside: readonly { readonly x: number; readonly y: number }[];
}

export function errorBandLayout(
  read: readonly Point[],
  sum: readonly Point[],
  bound: number | null,
  width: number,
  height: number,
  windowSeconds: number,
  margin = { top: 10, right: 10, bottom: 10, left: 56 },
): ErrorBandLayout {
  const all = [...read, ...sum];
  const end = all.length ? Math.max(...all.map((p) => p.t)) : 0;
  const extent = Math.max(1, (bound ?? 0) * 1.5, ...all.map((p) => Math.abs(p.v)));
  const x = linearScale([end - windowSeconds, end], [margin.left, width - margin.right]);
  const y = linearScale([-extent, extent], [height - margin.bottom, margin.top]);
  const path = (pts: readonly Point[]) =>
    line<Point>()
      .x((p) => x(p.t))
      .y((p) => y(p.v))(pts.filter((p) => p.t >= end - windowSeconds)) ?? '';
  // Marked (so not by colour alone): a read() beyond the band, and any sum() outside its window,
  // since a correct sum has no error at all.
  const inWindow = (p: Point) => p.t >= end - windowSeconds;
  const outside = [
    ...(bound === null ? [] : read.filter((p) => inWindow(p) && Math.abs(p.v) > bound)),
    ...sum.filter((p) => inWindow(p) && p.v !== 0),
  ].map((p) => ({ x: x(p.t), y: y(p.v) }));
  return {
    band: bound === null ? null : { y: y(bound), height: y(-bound) - y(bound) },
    zeroY: y(0),
    readPath: path(read),
    sumPath: path(sum),
    extent,
    ticks: yTicks(y, 4, signedShort),
    outside,
  };
}

/** A sum()'s distance from the exact totals while it ran, in the words of the totals table. */
export function sumWindowText(error: number): string {
  return error === 0
    ? 'within the totals while it ran'
    : `${String(error)} outside the totals while it ran`;
}

/** The error chart's text equivalent: the latest read() and sum(), the band, the marks. */
export function errorBandSummary(o: {
  readonly lastRead: number | undefined;
  readonly lastSum: number | undefined;
  readonly bound: number | null;
  readonly marked: number;
}): string {
  const parts = [
    o.lastRead === undefined ? null : `read() is ${String(o.lastRead)} from the exact total`,
    o.lastSum === undefined ? null : `the last sum() is ${sumWindowText(o.lastSum)}`,
    o.bound === null ? null : `the band is ±${String(o.bound)}`,
    o.marked
      ? `${count(o.marked, 'sample')} marked × (a read() beyond the band or a sum() outside its window)`
      : null,
  ].filter((x): x is string => x !== null);
  return parts.length ? parts.join('; ') : 'no samples yet';
}
