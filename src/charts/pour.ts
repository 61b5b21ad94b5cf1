// The geometry of a fold's pour: the batch leaves the top of a CPU's delta bar and travels on an
// arc to the global count, where it lands on top of the global bar (or in its figure). Pure, so
// the path is tested without a browser; counterTween.ts moves an element along it.

import type { Box } from './geometry.ts';

export interface PourPath {
  readonly from: Box;
  readonly to: Box;
  /** Control point of the quadratic Bézier the centre follows: above both ends. */
  readonly cx: number;
  readonly cy: number;
}

const centre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** The arc from `from` to `to`, rising `lift` px above the higher of the two. */
export function pourPath(from: Box, to: Box, lift = 40): PourPath {
  const a = centre(from);
  const b = centre(to);
  return { from, to, cx: (a.x + b.x) / 2, cy: Math.min(from.y, to.y) - lift };
}

/** Where the pouring batch is at time t ∈ [0, 1]: its centre on the arc, its size eased. */
export function pourAt(p: PourPath, t: number): Box {
  const u = Math.max(0, Math.min(1, t));
  const a = centre(p.from);
  const b = centre(p.to);
  const x = (1 - u) * (1 - u) * a.x + 2 * (1 - u) * u * p.cx + u * u * b.x;
  const y = (1 - u) * (1 - u) * a.y + 2 * (1 - u) * u * p.cy + u * u * b.y;
  const width = p.from.width + (p.to.width - p.from.width) * u;
  const height = p.from.height + (p.to.height - p.from.height) * u;
  return { x: x - width / 2, y: y - height / 2, width, height };
}
