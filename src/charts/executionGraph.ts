// Layout of an execution graph (memory lkmm): each thread's events in a column, program order
// down it, the initial writes in a row above; rf, co and fr between the events, the dependencies
// and what orders a forbidden execution's cycle, each a curve that starts on the box of its event
// and ends, with its arrowhead, on the box of the next. Each edge carries its label where no
// other label and no event is. A counter's graph also boxes each run an event is part of (a call,
// a handler's run, a loop, a scheduler turn), labelled over its first event; draws the
// machinery's events small and grey; and folds a loop's iterations into one item
// (executionGraphGroups.ts)
// whose edges stand for those of the events it hides. Pure: ExecutionGraph.tsx draws it; d3
// gives the column scale and the path strings.

import { path as d3path, scalePoint } from 'd3';
import type { CycleStep, EdgeKind, ExecutionGraph, GraphFrame } from '../axiomatic/explain.ts';
import {
  type ColumnItem,
  columnItems,
  defaultFolded,
  type GraphFold,
  loopRuns,
  quietEvents,
} from './executionGraphGroups.ts';
import type { Box, Size } from './geometry.ts';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface GraphNode extends Box {
  /** The event's id; for a folded loop, −1 − its index in the layout's folds. */
  readonly id: number;
  /** The thread (its column), or −1 for an initial write (the top row). */
  readonly thread: number;
  readonly kind: 'R' | 'W' | 'F' | 'init' | 'fold';
  readonly label: string;
  /** Its tags, as a second line ("Once", "Acquire"); for a fold, its iterations; '' for none. */
  readonly tags: string;
  /** In the forbidden execution's cycle (for a fold: one of the events it hides is). */
  readonly inCycle: boolean;
  /** Made by the machinery (a scheduler turn, hotplug, RCU-sched): drawn small and grey. */
  readonly quiet: boolean;
}

/** A box around the events of one run: a call, a handler's run, a loop, the machinery's turn. */
export interface GraphGroup extends Box {
  readonly key: string;
  readonly thread: number;
  readonly kind: GraphFrame['kind'];
  /** What its label says in full ("__percpu_counter_add(&fbc, 1, BATCH)", "for (…) ×3"). */
  readonly text: string;
  /** As drawn: cut with "…" to fit the box. */
  readonly label: string;
  /** Where the label sits: at the top of the box, over its first event. */
  readonly labelBox: Box;
  /** The label's size: the machinery's are smaller. */
  readonly fontSize: number;
  /** Drawn quietly: the machinery's runs. */
  readonly quiet: boolean;
}

/** A loop folded into one item, or one that may be. */
export interface GraphFoldView extends GraphFold {
  /** Its node's id while folded (−1 − its index here); its events are drawn when unfolded. */
  readonly node: number;
  readonly folded: boolean;
  /** The thread's name. */
  readonly threadName: string;
  /** Edges between two of its events (program order aside), not drawn while it is folded. */
  readonly inside: number;
  /** Edges to or from its events (program order aside), drawn to the fold while it is folded. */
  readonly outside: number;
}

/** A control on the picture: a folded loop's node ("show"), or an unfolded loop's label ("fold"). */
export interface GraphControl extends Box {
  /** The loop's frame key. */
  readonly key: string;
  readonly thread: number;
  readonly expanded: boolean;
  /** What a screen reader names it: "Show the 3 iterations of for (i = 0; i < 3; i++) in P0…". */
  readonly name: string;
  /** What it says on the picture ("fold ↑"; a fold node says "show ↓" in its second line). */
  readonly text: string;
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
  /** Between the machinery's events (drawn grey, unlabelled: the key says what they are). */
  readonly quiet: boolean;
  /** How many of the graph's edges it stands for (more than 1 to or from a folded loop). */
  readonly count: number;
}

/**
 * A thread's name ("P0", "P1"…) over its column: its baseline's middle, and the box its text
 * fills.
 */
export interface GraphColumn extends Point {
  readonly thread: number;
  /** The thread's name: "P0", "IRQ0 on idle CPU0", "CPU1's offline and DEAD1". */
  readonly name: string;
  readonly box: Box;
}

export interface GraphLayout extends Size {
  readonly columns: readonly GraphColumn[];
  readonly nodes: readonly GraphNode[];
  /** Drawn in this order: program order first, the cycle's steps last (on top). */
  readonly edges: readonly GraphEdgePath[];
  /** Outermost first: drawn under everything. */
  readonly groups: readonly GraphGroup[];
  /** Every loop of more than one turn, folded or not. */
  readonly folds: readonly GraphFoldView[];
  /** In reading order: down each column, the columns left to right. */
  readonly controls: readonly GraphControl[];
}

/** The sizes the layout works in (SVG user units; the SVG scales to its box). */
export const GRAPH_FONT = {
  /** Event labels, in the monospace font. */
  size: 13,
  /** Average width of a monospace character, as a fraction of the size. */
  charWidth: 0.62,
  /** Edge labels. */
  edgeSize: 11.5,
  /** The machinery's events, and a fold's second line. */
  quietSize: 11,
  /** A group's label (a call's text, a loop's head), in the monospace font. */
  groupSize: 12,
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
/** The machinery's events: shorter, and closer together where two follow each other. */
const QUIET_H = 26;
const QUIET_GAP = 16;
/** A group's box: how far it stands out of the one it holds, and below its last event. */
const BOX_X = 7;
const BOX_PAD = 6;
/** The band at the top of a group's box that holds its label. */
const HEAD = 19;
/** The least room for a po arrow between two events when boxes open or close between them. */
const MIN_LINK = 16;
/** How far a group's label may reach past its column's right edge, into the room beside it. */
const LABEL_REACH = SIDE - 4;

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

/** `text` cut with "…" to at most `width` at `size` (whole when it fits). */
export function fitText(text: string, width: number, size: number): string {
  if (textWidth(text, size) <= width) return text;
  const chars = Array.from(text);
  let n = chars.length;
  while (n > 0 && textWidth(`${chars.slice(0, n).join('')}…`, size) > width) n--;
  return n > 0 ? `${chars.slice(0, n).join('')}…` : '';
}

/**
 * A call's or a loop's head, shorter: "__percpu_counter_add(…)", "for (…)", and a macro's name
 * alone ("for_each_online_cpu"); the same text for anything else.
 */
export function shortHead(label: string): string {
  const m = /^([A-Za-z_]\w*)\s*\(/.exec(label);
  if (!m) return label;
  const name = m[1] as string;
  if (name === 'for' || name === 'while') return `${name} (…)`;
  return /^for_each_/.test(name) ? name : `${name}(…)`;
}

/** The first of `forms` that fits `width` at `size`, or the last cut with "…". */
export function fitForms(forms: readonly string[], width: number, size: number): string {
  for (const f of forms) if (textWidth(f, size) <= width) return f;
  return fitText(forms[forms.length - 1] ?? '', width, size);
}

/** What a group's label says in full, and shorter forms of it, longest first. */
function groupForms(f: GraphFrame, runs: ReadonlyMap<string, GraphFold>): string[] {
  if (f.kind === 'handler' || f.kind === 'scheduler' || f.kind === 'hotplug') return [f.label];
  if (f.kind === 'call') return [f.label, shortHead(f.label)];
  const times = ` ×${String(runs.get(f.key)?.turns ?? f.turn)}`;
  return [f.label + times, shortHead(f.label) + times];
}

/** "fold" on an unfolded loop's label; a fold node's second line ends "show ↓". */
const FOLD_TEXT = 'fold';
const SHOW_TEXT = 'show ↓';

/** A group being laid out: its items, its depth, and how many groups it holds, nested. */
interface OpenGroup {
  readonly frame: GraphFrame;
  readonly thread: number;
  readonly first: number;
  last: number;
  /** 1 + the tallest nest of groups inside it. */
  height: number;
  /** Its place among the groups opening at its first item (0: the outermost). */
  readonly opening: number;
  /** Its place among the groups closing after its last item (0: the innermost). */
  closing: number;
  parent: OpenGroup | null;
}

/** A column's groups: which open at each item (outermost first), which close after it. */
interface Nesting {
  readonly groups: OpenGroup[];
  readonly opened: OpenGroup[][];
  readonly closed: OpenGroup[][];
}

/** How the runs of a column's items nest: a group holds the items whose frames hold its run. */
function nest(col: readonly ColumnItem[], t: number): Nesting {
  const open: OpenGroup[] = [];
  const groups: OpenGroup[] = [];
  const opened: OpenGroup[][] = col.map(() => []);
  const closed: OpenGroup[][] = col.map(() => []);
  col.forEach((item, i) => {
    let k = 0;
    while (k < open.length && open[k]?.frame.key === item.chain[k]?.key) k++;
    for (const gr of open.splice(k).reverse()) {
      gr.closing = closed[i - 1]?.length ?? 0;
      closed[i - 1]?.push(gr);
    }
    item.chain.slice(k).forEach((frame, j) => {
      const gr: OpenGroup = {
        frame,
        thread: t,
        first: i,
        last: i,
        height: 1,
        opening: j,
        closing: 0,
        parent: open[open.length - 1] ?? null,
      };
      open.push(gr);
      opened[i]?.push(gr);
      groups.push(gr);
    });
    for (const gr of open) gr.last = i;
  });
  for (const gr of open.reverse()) {
    gr.closing = closed[col.length - 1]?.length ?? 0;
    closed[col.length - 1]?.push(gr);
  }
  // Each box stands out of the ones it holds: its height is 1 + the tallest nest inside it.
  for (const gr of [...groups].reverse())
    if (gr.parent) gr.parent.height = Math.max(gr.parent.height, gr.height + 1);
  return { groups, opened, closed };
}

/**
 * The layout of an execution graph, with `cycle` (its forbidden cycle's steps) highlighted and
 * the loops in `folded` folded (by default, a counter's long loops: executionGraphGroups.ts).
 */
export function executionGraphLayout(
  g: ExecutionGraph,
  cycle: readonly CycleStep[] = g.why?.cycle ?? [],
  folded: ReadonlySet<string> = defaultFolded(g, cycle),
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
  const names = Array.from({ length: g.threads }, (_, t) => g.threadNames[t] ?? `P${String(t)}`);
  const threads = Array.from({ length: g.threads }, (_, i) => i);
  // Each column's items (events, and loops folded into one), and the groups they make.
  const runs = loopRuns(g);
  const items = columnItems(g, folded);
  const nests = threads.map((t) => nest(items[t] ?? [], t));
  const allGroups = nests.flatMap((n) => n.groups);
  const controlW = textWidth(FOLD_TEXT, GRAPH_FONT.quietSize) + 8;
  // A thread's name longer than its column and the room beside it widens the column. A group's
  // label does not: it takes a shorter form, or is cut.
  const colW = Math.max(
    72,
    ...threaded.map(width),
    ...names.map((n) => textWidth(n, COLUMN_FONT) + 6 - 2 * SIDE),
  );

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

  const quiet = quietEvents(g);
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
        quiet: quiet.has(e.id),
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

  // The loops of more than one iteration: folded (a node stands for their events) or not.
  const folds: GraphFoldView[] = [];
  const foldOf = new Map<number, number>();
  for (const [key, run] of runs) {
    const at = folds.length;
    const isFolded = items[run.thread]?.some((i) => i.kind === 'fold' && i.fold.key === key);
    folds.push({
      ...run,
      node: -1 - at,
      folded: isFolded === true,
      threadName: names[run.thread] ?? '',
      inside: 0,
      outside: 0,
    });
    if (isFolded) for (const id of run.events) foldOf.set(id, -1 - at);
  }
  const isQuietItem = (i: ColumnItem | undefined) => i?.kind === 'event' && i.quiet;
  const heightOf = (i: ColumnItem) => (isQuietItem(i) ? QUIET_H : NODE_H);
  const itemY: number[][] = [];
  let bottom = top + NODE_H;
  for (const t of threads) {
    const col = items[t] ?? [];
    const { opened, closed } = nests[t] as Nesting;
    // The items' tops: the usual gap, or room for the boxes closing and the labels opening.
    const ys: number[] = [];
    let y = top;
    col.forEach((item, i) => {
      const heads = (opened[i]?.length ?? 0) * HEAD;
      if (i === 0) y += heads;
      else {
        const prev = col[i - 1] as ColumnItem;
        const base = isQuietItem(prev) && isQuietItem(item) ? QUIET_GAP : ROW_GAP;
        const pads = (closed[i - 1]?.length ?? 0) * BOX_PAD;
        const boxes = heads + pads;
        y += heightOf(prev) + Math.max(base, boxes > 0 ? boxes + MIN_LINK : 0);
      }
      ys.push(y);
    });
    itemY.push(ys);
    if (col.length > 0) {
      const last = col.length - 1;
      const end = (ys[last] as number) + heightOf(col[last] as ColumnItem);
      bottom = Math.max(bottom, end + (closed[last]?.length ?? 0) * BOX_PAD);
    }
    col.forEach((item, i) => {
      const y0 = ys[i] as number;
      if (item.kind === 'event') {
        const e = g.events[item.id] as ExecutionGraph['events'][number];
        const n: GraphNode = {
          id: e.id,
          thread: e.thread,
          kind: e.kind,
          label: e.label,
          // A fence's label already names it ("F wmb"): its tag would say it twice; the
          // machinery's events have no room for a second line.
          tags: e.kind === 'F' || item.quiet ? '' : e.tags.join(' '),
          inCycle: inCycle.has(e.id),
          quiet: item.quiet,
          x: colX(t),
          y: y0,
          width: colW,
          height: heightOf(item),
        };
        nodes.push(n);
        box.set(e.id, n);
        return;
      }
      const f = folds.find((x) => x.key === item.fold.key) as GraphFoldView;
      const n: GraphNode = {
        id: f.node,
        thread: t,
        kind: 'fold',
        label: fitForms([f.label, shortHead(f.label)], colW - 2 * PAD_X, GRAPH_FONT.size),
        tags: fitText(
          `${String(f.turns)} iterations: ${SHOW_TEXT}`,
          colW - 2 * PAD_X,
          GRAPH_FONT.quietSize,
        ),
        inCycle: f.events.some((id) => inCycle.has(id)),
        quiet: false,
        x: colX(t),
        y: y0,
        width: colW,
        height: NODE_H,
      };
      nodes.push(n);
      box.set(n.id, n);
    });
  }
  const height = bottom + MARGIN + 8;

  // The groups' boxes: each stands BOX_X out of the ones it holds; its label in the band above
  // its first item, which the bands of the groups opening inside it at that item sit below.
  const groups: GraphGroup[] = [];
  const controls: GraphControl[] = [];
  const labels: Box[] = [];
  for (const gr of allGroups) {
    const col = items[gr.thread] as ColumnItem[];
    const ys = itemY[gr.thread] as number[];
    const openingHere = allGroups.filter((o) => o.thread === gr.thread && o.first === gr.first);
    const x = colX(gr.thread) - BOX_X * gr.height;
    const w = colW + 2 * BOX_X * gr.height;
    const y = (ys[gr.first] as number) - (openingHere.length - gr.opening) * HEAD;
    const end = (ys[gr.last] as number) + heightOf(col[gr.last] as ColumnItem);
    const h = end + (gr.closing + 1) * BOX_PAD - y;
    const forms = groupForms(gr.frame, runs);
    const run = gr.frame.kind === 'loop' ? runs.get(gr.frame.key) : undefined;
    const quiet = gr.frame.kind === 'scheduler' || gr.frame.kind === 'hotplug';
    const size = quiet ? GRAPH_FONT.quietSize : GRAPH_FONT.groupSize;
    // From the box's left edge to just short of the room beside the column (a label may reach
    // past the box: it has a ground of its own), less an unfolded loop's "fold" after it.
    const room = colX(gr.thread) + colW + LABEL_REACH - (x + 4) - 4 - (run ? controlW + 4 : 0);
    const label = fitForms(forms, room, size);
    const labelBox = {
      x: x + 4,
      y: y + 2,
      width: textWidth(label, size) + 4,
      height: HEAD - 5,
    };
    groups.push({
      key: gr.frame.key,
      thread: gr.thread,
      kind: gr.frame.kind,
      text: forms[0] ?? '',
      label,
      labelBox,
      fontSize: size,
      quiet,
      x,
      y,
      width: w,
      height: h,
    });
    labels.push(labelBox);
    if (run) {
      const c: GraphControl = {
        key: run.key,
        thread: gr.thread,
        expanded: true,
        name: `Fold the ${String(run.turns)} iterations of ${run.label} in ${names[run.thread] ?? ''} into one`,
        text: FOLD_TEXT,
        x: labelBox.x + labelBox.width + 4,
        y: y + 2,
        width: controlW,
        height: HEAD - 5,
      };
      controls.push(c);
      labels.push(c);
    }
  }
  for (const f of folds) {
    if (!f.folded) continue;
    const n = box.get(f.node) as GraphNode;
    controls.push({
      key: f.key,
      thread: f.thread,
      expanded: false,
      name: `Show the ${String(f.turns)} iterations of ${f.label} in ${f.threadName} (${String(f.events.length)} events)`,
      text: SHOW_TEXT,
      x: n.x,
      y: n.y,
      width: n.width,
      height: n.height,
    });
  }
  // Reading order: down each column, then the next column.
  controls.sort((a, b) => a.thread - b.thread || a.y - b.y);

  // Edges: each a quadratic curve. Arcs between events of one column bulge to its right
  // (communication: rf, co, fr) or to its left (the thread's own order: dependencies, fences);
  // edges between columns bend a little, more for each edge already joining the same two events.
  // An edge to or from an event a fold hides goes to the fold, once for all it stands for.
  const drawn = new Map<string, Wanted & { count: number; quiet: boolean }>();
  const inside = new Map<number, number>();
  const outside = new Map<number, number>();
  for (const w of wantedEdges(g, cycle)) {
    const from = foldOf.get(w.from) ?? w.from;
    const to = foldOf.get(w.to) ?? w.to;
    // Program order is the columns' own: the edges a fold stands for are the others.
    if (from === to && from < 0) {
      if (w.kind !== 'po') inside.set(from, (inside.get(from) ?? 0) + 1);
      continue;
    }
    if (w.kind !== 'po')
      for (const end of new Set([from, to]))
        if (end < 0) outside.set(end, (outside.get(end) ?? 0) + 1);
    const key = `${String(from)}>${String(to)}>${w.kind}>${String(w.step)}`;
    const was = drawn.get(key);
    if (was) {
      was.count++;
      continue;
    }
    // Between two of the machinery's quiet events: quiet too.
    const hushed = w.step === null && quiet.has(w.from) && quiet.has(w.to);
    drawn.set(key, { ...w, from, to, count: 1, quiet: hushed });
  }
  folds.forEach((f, i) => {
    folds[i] = { ...f, inside: inside.get(f.node) ?? 0, outside: outside.get(f.node) ?? 0 };
  });
  const pairCount = new Map<string, number>();
  // The threads' names (14 px, bold) are there before any label: arrows from the initial
  // writes pass by them, and a label on one would hide the name.
  const columns = threads.map((t) => {
    const x = colX(t) + colW / 2;
    const y = top - 8;
    const name = names[t] as string;
    const w = textWidth(name, COLUMN_FONT) + 6;
    return {
      thread: t,
      name,
      x,
      y,
      box: { x: x - w / 2, y: y - COLUMN_FONT, width: w, height: COLUMN_FONT + 4 },
    };
  });
  labels.unshift(...columns.map((c) => c.box));
  const edges: GraphEdgePath[] = [];
  for (const w of drawn.values()) {
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
      const inset = Math.min(6, a.height / 4, b.height / 4);
      start = { x: xa, y: ca.y + (cb.y > ca.y ? inset : -inset) };
      end = { x: xa, y: cb.y + (cb.y > ca.y ? -inset : inset) };
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
    const label =
      w.quiet || w.label === '' ? '' : w.count > 1 ? `${w.label} ×${String(w.count)}` : w.label;
    let labelBox: Box | null = null;
    if (label !== '') {
      const lw = textWidth(label, GRAPH_FONT.edgeSize) + 8;
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
      label,
      labelBox,
      step: w.step,
      quiet: w.quiet,
      count: w.count,
    });
  }
  return {
    width: totalW,
    height,
    columns,
    nodes,
    edges,
    groups,
    folds,
    controls,
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
