// Layout of an execution graph (memory lkmm): each thread's events in a column, program order
// down it, the initial writes in a row above; rf, co and fr between the events, the dependencies
// and what orders a forbidden execution's cycle, each a curve that starts on the box of its event
// and ends, with its arrowhead, on the box of the next. Each edge carries its label where no
// other label and no event is. Pure: ExecutionGraph.tsx draws it; d3 gives the column and row
// scales and the path strings.

import { path as d3path, scalePoint } from 'd3';
import type { CycleStep, EdgeKind, ExecutionGraph } from '../axiomatic/explain.ts';
import type { Box, Size } from './geometry.ts';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface GraphNode extends Box {
  readonly id: number;
  /** The thread (its column), or −1 for an initial write (the top row). */
  readonly thread: number;
  readonly kind: 'R' | 'W' | 'F' | 'init';
  readonly label: string;
  /** Its tags, as a second line ("Once", "Acquire"); '' for none. */
  readonly tags: string;
  /** In the forbidden execution's cycle. */
  readonly inCycle: boolean;
}

/** What an edge is drawn as: a relation the graph shows, or a step only the cycle has. */
export type GraphEdgeKind = EdgeKind | 'order';

export interface GraphEdgePath {
  readonly from: number;
  readonly to: number;
  readonly kind: GraphEdgeKind;
  /** Between two threads. */
  readonly external: boolean;
  /** The SVG path, from `start` to `end`. */
  readonly d: string;
  readonly start: Point;
  /** Where the arrowhead's tip touches the target's box. */
  readonly end: Point;
  /** The arrowhead: three points, the tip first. */
  readonly arrow: readonly [Point, Point, Point];
  /** "rf", "fr", "addr"; for a step of the cycle, its number and name ("2 fre"); '' for po. */
  readonly label: string;
  /** Where the label sits (its box); null when it has none. */
  readonly labelBox: Box | null;
  /** The cycle's step number (1, 2…) when this edge is one, else null. */
  readonly step: number | null;
}

/**
 * A thread's name ("P0", "P1"…) over its column: its baseline's middle, and the box its text
 * fills.
 */
export interface GraphColumn extends Point {
  readonly thread: number;
  readonly box: Box;
}

export interface GraphLayout extends Size {
  readonly columns: readonly GraphColumn[];
  readonly nodes: readonly GraphNode[];
  /** Drawn in this order: program order first, the cycle's steps last (on top). */
  readonly edges: readonly GraphEdgePath[];
}

/** The sizes the layout works in (SVG user units; the SVG scales to its box). */
export const GRAPH_FONT = {
  /** Event labels, in the monospace font. */
  size: 13,
  /** Average width of a monospace character, as a fraction of the size. */
  charWidth: 0.62,
  /** Edge labels. */
  edgeSize: 11.5,
} as const;

const PAD_X = 9;
const NODE_H = 40;
const ROW_GAP = 46;
/** Room beside each column for the arcs between events of one thread. */
const SIDE = 56;
const COLUMN_GAP = 64;
const MARGIN = 12;
const HEADER = 22;
const INIT_GAP = 50;
const ARROW = 9;
/** The threads' names' size (the stylesheet's .xg-column). */
const COLUMN_FONT = 14;

/** How wide a text is in the monospace font at `size`. */
export function textWidth(text: string, size: number = GRAPH_FONT.size): number {
  return Array.from(text).length * size * GRAPH_FONT.charWidth;
}

/** Which drawn relation a step of the cycle follows, where there is one. */
function drawnKind(relation: string): EdgeKind | null {
  if (relation === 'rfe' || relation === 'rfi') return 'rf';
  if (relation === 'fre' || relation === 'fri') return 'fr';
  if (relation === 'coe' || relation === 'coi') return 'co';
  if (relation === 'addr' || relation === 'data' || relation === 'ctrl' || relation === 'rmw')
    return relation;
  return null;
}

const centre = (b: Box): Point => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** Where the ray from the centre of `b` towards `towards` leaves the box. */
export function leaveBox(b: Box, towards: Point): Point {
  const c = centre(b);
  const dx = towards.x - c.x;
  const dy = towards.y - c.y;
  if (dx === 0 && dy === 0) return { x: c.x, y: b.y };
  const tx = dx === 0 ? Infinity : b.width / 2 / Math.abs(dx);
  const ty = dy === 0 ? Infinity : b.height / 2 / Math.abs(dy);
  const t = Math.min(tx, ty);
  return { x: c.x + dx * t, y: c.y + dy * t };
}

function overlaps(a: Box, b: Box, gap = 0): boolean {
  return (
    a.x < b.x + b.width + gap &&
    b.x < a.x + a.width + gap &&
    a.y < b.y + b.height + gap &&
    b.y < a.y + a.height + gap
  );
}

/** A point of the quadratic Bézier (p0, c, p1) at t. */
function bezier(p0: Point, c: Point, p1: Point, t: number): Point {
  const u = 1 - t;
  return {
    x: u * u * p0.x + 2 * u * t * c.x + t * t * p1.x,
    y: u * u * p0.y + 2 * u * t * c.y + t * t * p1.y,
  };
}

function arrowAt(tip: Point, from: Point): [Point, Point, Point] {
  const dx = tip.x - from.x;
  const dy = tip.y - from.y;
  const n = Math.hypot(dx, dy) || 1;
  const ux = dx / n;
  const uy = dy / n;
  const bx = tip.x - ux * ARROW;
  const by = tip.y - uy * ARROW;
  return [
    tip,
    { x: bx - uy * ARROW * 0.45, y: by + ux * ARROW * 0.45 },
    { x: bx + uy * ARROW * 0.45, y: by - ux * ARROW * 0.45 },
  ];
}

interface Wanted {
  readonly from: number;
  readonly to: number;
  readonly kind: GraphEdgeKind;
  readonly external: boolean;
  readonly label: string;
  readonly step: number | null;
}

/** The edges to draw: the graph's, with the cycle's steps marked on them or added beside them. */
function wantedEdges(g: ExecutionGraph, cycle: readonly CycleStep[]): Wanted[] {
  const steps = new Map<string, { n: number; s: CycleStep }>();
  cycle.forEach((s, i) =>
    steps.set(`${s.from}>${s.to}>${drawnKind(s.relation) ?? ''}`, { n: i + 1, s }),
  );
  const out: Wanted[] = [];
  const used = new Set<string>();
  for (const e of g.edges) {
    const key = `${e.from}>${e.to}>${e.kind}`;
    const step = steps.get(key);
    if (step) used.add(key);
    out.push({
      from: e.from,
      to: e.to,
      kind: e.kind,
      external: e.external,
      label: step ? `${step.n} ${step.s.relation}` : e.kind === 'po' ? '' : e.kind,
      step: step ? step.n : null,
    });
  }
  // A step no drawn edge carries (a fence's order, a dependency past the first event of a branch).
  for (const [key, { n, s }] of steps) {
    if (used.has(key)) continue;
    const kind = drawnKind(s.relation) ?? 'order';
    out.push({
      from: s.from,
      to: s.to,
      kind,
      external: g.events[s.from]?.thread !== g.events[s.to]?.thread,
      label: `${n} ${s.relation}`,
      step: n,
    });
  }
  const order = (w: Wanted) => (w.step !== null ? 3 : w.kind === 'po' ? 0 : w.external ? 2 : 1);
  return out.sort((a, b) => order(a) - order(b));
}

/** The layout of an execution graph, with `cycle` (its forbidden cycle's steps) highlighted. */
export function executionGraphLayout(
  g: ExecutionGraph,
  cycle: readonly CycleStep[] = g.why?.cycle ?? [],
): GraphLayout {
  const inCycle = new Set(cycle.flatMap((s) => [s.from, s.to]));
  const width = (e: ExecutionGraph['events'][number]) =>
    Math.max(
      textWidth(e.label),
      e.kind === 'F' ? 0 : textWidth(e.tags.join(' '), GRAPH_FONT.size - 2),
    ) +
    2 * PAD_X;
  const threaded = g.events.filter((e) => e.thread >= 0);
  const inits = g.events.filter((e) => e.thread < 0);
  const colW = Math.max(72, ...threaded.map(width));
  const threads = Array.from({ length: g.threads }, (_, i) => i);
  const rows = Math.max(1, ...threaded.map((e) => e.po + 1));

  // The initial writes: a row (or rows) above the columns, each as wide as its label.
  const columnsWidth = g.threads * (colW + 2 * SIDE) + Math.max(0, g.threads - 1) * COLUMN_GAP;
  const initW = inits.map(width);
  const initRowMax = Math.max(columnsWidth, colW + 2 * SIDE);
  const initRows: number[][] = [[]];
  let used = 0;
  inits.forEach((_, i) => {
    const w = (initW[i] as number) + 24;
    const row = initRows[initRows.length - 1] as number[];
    if (row.length > 0 && used + w > initRowMax) {
      initRows.push([i]);
      used = w;
    } else {
      row.push(i);
      used += w;
    }
  });
  const initRowWidths = initRows.map((r) => r.reduce((s, i) => s + (initW[i] as number) + 24, -24));
  const innerW = Math.max(columnsWidth, ...initRowWidths);
  const totalW = innerW + 2 * MARGIN;
  const initH = inits.length > 0 ? initRows.length * (NODE_H + 14) - 14 + INIT_GAP : 0;
  const top = MARGIN + initH + HEADER;

  // The columns' left edges, one pitch apart, centred under the initial writes.
  const pitch = colW + 2 * SIDE + COLUMN_GAP;
  const firstX = MARGIN + (innerW - columnsWidth) / 2 + SIDE;
  const column = scalePoint<number>()
    .domain(threads)
    .range([firstX, firstX + Math.max(0, g.threads - 1) * pitch]);
  const colX = (t: number) => column(t) ?? firstX;
  const row = scalePoint<number>()
    .domain(Array.from({ length: rows }, (_, i) => i))
    .range([top, top + (rows - 1) * (NODE_H + ROW_GAP)]);

  const nodes: GraphNode[] = [];
  const box = new Map<number, GraphNode>();
  initRows.forEach((r, ri) => {
    let x = MARGIN + (innerW - (initRowWidths[ri] as number)) / 2;
    for (const i of r) {
      const e = inits[i] as ExecutionGraph['events'][number];
      const n: GraphNode = {
        id: e.id,
        thread: -1,
        kind: 'init',
        label: e.label,
        tags: '',
        inCycle: inCycle.has(e.id),
        x,
        y: MARGIN + ri * (NODE_H + 14),
        width: initW[i] as number,
        height: NODE_H,
      };
      nodes.push(n);
      box.set(e.id, n);
      x += (initW[i] as number) + 24;
    }
  });
  for (const e of threaded) {
    const n: GraphNode = {
      id: e.id,
      thread: e.thread,
      kind: e.kind,
      label: e.label,
      // A fence's label already names it ("F wmb"): its tag would say it twice.
      tags: e.kind === 'F' ? '' : e.tags.join(' '),
      inCycle: inCycle.has(e.id),
      x: colX(e.thread),
      y: row(e.po) ?? top,
      width: colW,
      height: NODE_H,
    };
    nodes.push(n);
    box.set(e.id, n);
  }
  const rowsBottom = top + (rows - 1) * (NODE_H + ROW_GAP) + NODE_H;
  const height = rowsBottom + MARGIN + 8;

  // Edges: each a quadratic curve. Arcs between events of one column bulge to its right
  // (communication: rf, co, fr) or to its left (the thread's own order: dependencies, fences);
  // edges between columns bend a little, more for each edge already joining the same two events.
  const wanted = wantedEdges(g, cycle);
  const pairCount = new Map<string, number>();
  // The threads' names (14 px, bold) are there before any label: arrows from the initial
  // writes pass by them, and a label on one would hide the name.
  const columns = threads.map((t) => {
    const x = colX(t) + colW / 2;
    const y = top - 8;
    const w = textWidth(`P${String(t)}`, COLUMN_FONT) + 6;
    return {
      thread: t,
      x,
      y,
      box: { x: x - w / 2, y: y - COLUMN_FONT, width: w, height: COLUMN_FONT + 4 },
    };
  });
  const labels: Box[] = columns.map((c) => c.box);
  const edges: GraphEdgePath[] = [];
  for (const w of wanted) {
    const a = box.get(w.from);
    const b = box.get(w.to);
    if (!a || !b) continue;
    const pair = `${Math.min(w.from, w.to)}-${Math.max(w.from, w.to)}`;
    const k = pairCount.get(pair) ?? 0;
    pairCount.set(pair, k + 1);
    const ca = centre(a);
    const cb = centre(b);
    let start: Point;
    let end: Point;
    let c: Point;
    const sameColumn = a.thread >= 0 && a.thread === b.thread;
    if (sameColumn && w.kind === 'po') {
      start = { x: ca.x, y: a.y + a.height };
      end = { x: cb.x, y: b.y };
      c = { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 };
    } else if (sameColumn) {
      const right = w.kind === 'rf' || w.kind === 'co' || w.kind === 'fr';
      const side = right ? 1 : -1;
      const span = Math.abs(cb.y - ca.y) / (NODE_H + ROW_GAP);
      const bulge = Math.min(2 * SIDE - 10, 34 + 14 * span + 18 * k);
      const xa = right ? a.x + a.width : a.x;
      start = { x: xa, y: ca.y + (cb.y > ca.y ? 6 : -6) };
      end = { x: xa, y: cb.y + (cb.y > ca.y ? -6 : 6) };
      c = { x: xa + side * bulge, y: (start.y + end.y) / 2 };
    } else {
      const dx = cb.x - ca.x;
      const dy = cb.y - ca.y;
      const len = Math.hypot(dx, dy) || 1;
      const hops = a.thread >= 0 && b.thread >= 0 ? Math.abs(a.thread - b.thread) - 1 : 0;
      const bend = (k % 2 === 0 ? 1 : -1) * (16 + 22 * Math.ceil(k / 2) + 40 * Math.max(0, hops));
      c = { x: (ca.x + cb.x) / 2 - (dy / len) * bend, y: (ca.y + cb.y) / 2 + (dx / len) * bend };
      start = leaveBox(a, c);
      end = leaveBox(b, c);
    }
    const p = d3path();
    p.moveTo(start.x, start.y);
    p.quadraticCurveTo(c.x, c.y, end.x, end.y);
    let labelBox: Box | null = null;
    if (w.label !== '') {
      const lw = textWidth(w.label, GRAPH_FONT.edgeSize) + 8;
      const lh = GRAPH_FONT.edgeSize + 6;
      labelBox = placeLabel(start, c, end, lw, lh, nodes, labels, totalW, height);
      labels.push(labelBox);
    }
    edges.push({
      from: w.from,
      to: w.to,
      kind: w.kind,
      external: w.external,
      d: p.toString(),
      start,
      end,
      arrow: arrowAt(end, c.x === end.x && c.y === end.y ? start : c),
      label: w.label,
      labelBox,
      step: w.step,
    });
  }
  return {
    width: totalW,
    height,
    columns,
    nodes,
    edges,
  };
}

/**
 * A place for an edge's label on its curve (or just beside it) clear of every event and every
 * label placed before, inside the picture; the middle of the curve if there is none.
 */
function placeLabel(
  p0: Point,
  c: Point,
  p1: Point,
  w: number,
  h: number,
  nodes: readonly Box[],
  placed: readonly Box[],
  width: number,
  height: number,
): Box {
  const ts = [0.5, 0.4, 0.6, 0.32, 0.68, 0.25, 0.75, 0.18, 0.82];
  const shifts: [number, number][] = [
    [0, 0],
    [0, -h * 0.8],
    [0, h * 0.8],
    [w * 0.6, 0],
    [-w * 0.6, 0],
    [0, -h * 1.6],
    [0, h * 1.6],
  ];
  let first: Box | null = null;
  for (const [sx, sy] of shifts)
    for (const t of ts) {
      const m = bezier(p0, c, p1, t);
      const b = { x: m.x - w / 2 + sx, y: m.y - h / 2 + sy, width: w, height: h };
      first ??= b;
      if (b.x < 0 || b.y < 0 || b.x + b.width > width || b.y + b.height > height) continue;
      if (nodes.some((n) => overlaps(n, b, 2)) || placed.some((l) => overlaps(l, b, 1))) continue;
      return b;
    }
  return first as Box;
}
