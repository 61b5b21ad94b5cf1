// The shapes the charts' layouts hand to their views: a box (a bar, a word, a frame) in the
// chart's own units, drawn as an SVG <rect>, and the ticks of a y axis (drawn by parts.tsx's
// YTicks). Type-only use of linearScale here: the home page's previews import this file without it.

import type { LinearScale } from './linearScale.ts';

/** A chart's size, or a box's, in SVG user units. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/** A rectangle in SVG user units. */
export interface Box extends Size {
  readonly x: number;
  readonly y: number;
}

/** A box's geometry as a <rect>'s attributes: `<rect {...rectOf(b)} fill=… />`. */
export function rectOf(b: Box): Box {
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}

/** A grid line of a y axis: where it is, and its label. */
export interface Tick {
  readonly y: number;
  readonly label: string;
}

/** About `count` round values of scale `y` as ticks, labelled by `label`. */
export function yTicks(
  y: LinearScale,
  count: number,
  label: (v: number) => string = String,
): Tick[] {
  return y.ticks(count).map((v) => ({ y: y(v), label: label(v) }));
}
