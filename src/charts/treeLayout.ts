// Where the counter tree's parts go in a box of a given size: one row per level, the per-CPU
// words at the bottom and the root at the top (carries move up), each item centred over the
// nodes it gathers; under the tree, a number line with the accuracy range around the precise sum
// and the approximate sum marked on it. d3 does the scale; React draws (TreeChart.tsx). Pure.

import { linearScale } from './linearScale.ts';
import type { Box, Size } from './geometry.ts';
import { levelOrder, type TreeView } from './tree.ts';

export const TITLE_Y = 22;
/** Room on the left for each row's name ("words", "level 1", "root"). */
export const ROW_LABEL_W = 58;
export const NODE_H = 30;
/** Height of the number line's area at the bottom: labels above and below the range. */
export const BAND_AREA_H = 92;
const MARGIN = 12;

export interface PlacedNode {
  readonly level: number;
  readonly index: number;
  readonly box: Box;
  /** Centre of the box's top and bottom edges, for the edges between levels. */
  readonly cx: number;
}

export interface TreeLayout {
  readonly nodes: readonly PlacedNode[];
  /** A node's value baseline, below its box's top. */
  readonly valueDy: number;
  /** One per level: where its name goes (baseline, right-aligned at x). */
  readonly rowLabels: readonly { readonly level: number; readonly x: number; readonly y: number }[];
  readonly edges: readonly {
    readonly from: PlacedNode;
    readonly to: PlacedNode;
  }[];
  readonly band: {
    /** The number line's y and its x range. */
    readonly y: number;
    readonly x0: number;
    readonly x1: number;
    /** The accuracy range around the precise sum. */
    readonly lo: number;
    readonly hi: number;
    readonly precise: number;
    readonly approx: number;
    /** Baselines: the range's label and the precise sum's above the line, the approximate sum's below. */
    readonly rangeLabelY: number;
    readonly preciseLabelY: number;
    readonly approxLabelY: number;
    /** How the approximate sum's label hangs off its mark: centred, or inward at an edge. */
    readonly approxAnchor: 'start' | 'middle' | 'end';
    readonly preciseAnchor: 'start' | 'middle' | 'end';
  };
}

/** The node a level's item j of the level below feeds (item[i & (n − 1)]). */
function parentIndex(i: number, parentItems: number): number {
  return i & (parentItems - 1);
}

export function treeLayout(v: TreeView, size: Size): TreeLayout {
  const { width, height } = size;
  const levels = v.levels.length;
  const top = TITLE_Y + 16;
  // The words' names hang under the bottom row.
  const bottom = height - BAND_AREA_H - 16;
  // Rows at least a quarter of a node apart: nodes shrink in a short box (a phone's 240).
  const nodeH = Math.min(NODE_H, (bottom - top) / (levels + (levels - 1) * 0.25));
  const rowGap = levels > 1 ? (bottom - top - nodeH) / (levels - 1) : 0;
  const rowY = (level: number) => bottom - nodeH - level * rowGap;
  const x0 = ROW_LABEL_W + 8;
  const x1 = width - MARGIN;
  const words = v.levels[0]?.length ?? 0;
  const slot = (x1 - x0) / Math.max(1, words);
  const nodeW = Math.max(24, Math.min(72, slot - 6));
  const placed: PlacedNode[][] = [];
  // Level 0: evenly spaced, in the order that keeps every path uncrossed.
  const order = levelOrder(words);
  placed.push(
    order.map((k, rank) => {
      const cx = x0 + slot * (rank + 0.5);
      return {
        level: 0,
        index: k,
        cx,
        box: { x: cx - nodeW / 2, y: rowY(0), width: nodeW, height: nodeH },
      };
    }),
  );
  for (let l = 1; l < levels; l++) {
    const row = v.levels[l] ?? [];
    const below = placed[l - 1] ?? [];
    const items = row.length;
    // Each item over the mean of the nodes it gathers.
    const nodes = row.map((_, j): PlacedNode => {
      const kids = below.filter((n) => parentIndex(n.index, items) === j);
      const cx = kids.length > 0 ? kids.reduce((t, n) => t + n.cx, 0) / kids.length : (x0 + x1) / 2;
      const w = Math.max(nodeW, Math.min(96, nodeW * 1.3));
      return {
        level: l,
        index: j,
        cx,
        box: { x: cx - w / 2, y: rowY(l), width: w, height: nodeH },
      };
    });
    placed.push(nodes);
  }
  const edges = placed.slice(1).flatMap((row, li) =>
    (placed[li] ?? []).map((from) => ({
      from,
      to: row.find((p) => p.index === parentIndex(from.index, row.length)) as PlacedNode,
    })),
  );
  const rowLabels = placed.map((row, level) => ({
    level,
    x: ROW_LABEL_W,
    y: (row[0]?.box.y ?? 0) + nodeH / 2 + 5,
  }));
  // The number line: the range, the precise and the approximate sums, with a little room.
  const lo = v.precise - v.shape.under;
  const hi = v.precise + v.shape.over;
  const min = Math.min(lo, v.approx);
  const max = Math.max(hi, v.approx);
  const pad = Math.max(1, (max - min) * 0.08);
  const lineX0 = MARGIN + 8;
  const lineX1 = width - MARGIN - 8;
  const x = linearScale([min - pad, max + pad], [lineX0, lineX1]);
  const y = height - BAND_AREA_H / 2 + 4;
  // A label near an edge hangs inward, so it stays in the box.
  const anchor = (px: number): 'start' | 'middle' | 'end' =>
    px - lineX0 < 70 ? 'start' : lineX1 - px < 70 ? 'end' : 'middle';
  return {
    nodes: placed.flat(),
    valueDy: nodeH / 2 + 5.5,
    rowLabels,
    edges,
    band: {
      y,
      x0: lineX0,
      x1: lineX1,
      lo: x(lo),
      hi: x(hi),
      precise: x(v.precise),
      approx: x(v.approx),
      rangeLabelY: y - 26,
      preciseLabelY: y - 12,
      approxLabelY: y + 26,
      approxAnchor: anchor(x(v.approx)),
      preciseAnchor: anchor(x(v.precise)),
    },
  };
}
