// The counter chart's motion, apart from its picture. React renders CounterChart.tsx's final
// geometry for each step; this moves the chart's nodes there from the previous geometry with d3's
// transitions: the bars grow, the global count's figure counts up, the sweep moves on (or back
// after a retry) and a fold's batch pours along its arc (pour.ts). The split xyflow makes for
// d3-zoom: `createCounterTween(nodes)` returns `update` and `destroy`, driven from the chart's
// effects.
//
// It loads with d3's transitions at the first step, through tweens.ts, never with the page: a
// Step link's first paint needs none of it (motion.ts). Import it as a type only, or through
// the tweens (useTweens); a static import would put d3-transition on every Step link.

// d3-transition's methods are a side effect of its import (tweens.ts says why it is explicit).
import 'd3-transition';
import { easeCubicInOut, easeCubicOut, interpolateNumber, select } from 'd3';
import { GROW_MS, POUR_MS, RETRY_MS, SWEEP_MS } from './durations.ts';
import type { Box } from './geometry.ts';
import { pourAt, pourPath } from './pour.ts';

/** The vertical extent of a bar: what a growing bar animates. */
export interface Span {
  readonly y: number;
  readonly height: number;
}

/** One state of the chart as the tween sees it: where each moving node ends. */
export interface CounterFrame {
  /** The step shown: only a step forward onto a fold pours. */
  readonly step: number;
  readonly bars: readonly Span[];
  readonly global: Span;
  readonly globalValue: number | bigint;
  /** The sweep marker's x, the swept region's left edge, and the slot the sweep has reached. */
  readonly sweepX: number;
  readonly sweepLeft: number;
  readonly position: number;
  /** The fold's batch: its box on its CPU's bar and where it lands on the global count. */
  readonly pour: { readonly from: Box; readonly to: Box } | null;
}

/** The chart's nodes the tween moves, read at each update: React mounts and unmounts them. */
export interface CounterNodes {
  readonly bars: { readonly current: readonly (Element | null)[] };
  readonly globalBar: { readonly current: Element | null };
  /** The global count's figure, when it is one: d3 owns its text. */
  readonly figure: { readonly current: Element | null };
  readonly marker: { readonly current: Element | null };
  readonly swept: { readonly current: Element | null };
  /** The pouring batch: a group holding one rect; d3 owns its opacity. */
  readonly pour: { readonly current: Element | null };
}

export interface CounterTween {
  /**
   * Moves the nodes from `prev` (null: the chart's first frame) to `next`; with `reduce` (the
   * user asked for reduced motion) every node goes where it ends at once.
   */
  update(prev: CounterFrame | null, next: CounterFrame, reduce: boolean): void;
  /** Stops what the last update set moving, where it is (the chart is going away). */
  destroy(): void;
}

/** Makes the tween over the chart's nodes; the chart calls it once, when the tweens load. */
export function createCounterTween(nodes: CounterNodes): CounterTween {
  // The nodes the last update started a transition on.
  let moving: readonly Element[] = [];
  return {
    update(prev, next, reduce) {
      const pouring = !reduce && prev !== null && next.step === prev.step + 1 && !!next.pour;
      const m: Move = {
        prev,
        next,
        reduce,
        pouring,
        landed: pouring ? POUR_MS * 0.8 : 0,
        started: [],
      };
      growBars(nodes, m);
      countUp(nodes.figure.current, m);
      moveSweep(nodes, m);
      pourBatch(nodes.pour.current, m);
      moving = m.started;
    },

    destroy() {
      for (const el of moving) select(el).interrupt();
      moving = [];
    },
  };
}

/** One update: the frames it goes between, and the nodes it sets moving. */
interface Move {
  readonly prev: CounterFrame | null;
  readonly next: CounterFrame;
  readonly reduce: boolean;
  /** A step forward onto a fold, in motion: the batch pours. */
  readonly pouring: boolean;
  /** How long the global count waits before it moves: until the batch has landed (ms). */
  readonly landed: number;
  readonly started: Element[];
}

/** The bars move from where the last frame left them; the global one once the pour lands. */
function growBars(nodes: CounterNodes, m: Move): void {
  const { prev, next } = m;
  next.bars.forEach((b, k) => {
    grow(nodes.bars.current[k] ?? null, prev?.bars[k] ?? b, b, 0, m);
  });
  grow(nodes.globalBar.current, prev?.global ?? next.global, next.global, m.landed, m);
}

function grow(el: Element | null, from: Span, to: Span, delay: number, m: Move): void {
  if (!el) return;
  const s = select(el).interrupt();
  if (m.reduce || !m.prev) {
    s.attr('y', to.y).attr('height', to.height);
    return;
  }
  s.attr('y', from.y)
    .attr('height', from.height)
    .transition()
    .delay(delay)
    .duration(GROW_MS)
    .ease(easeCubicOut)
    .attr('y', to.y)
    .attr('height', to.height);
  m.started.push(el);
}

const safe = (v: number | bigint | undefined): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v);

/** The figure's number counts up after the pour lands (d3 owns this one text node). */
function countUp(figure: Element | null, m: Move): void {
  if (!figure) return;
  const f = select(figure).interrupt();
  const from = m.prev?.globalValue;
  const to = m.next.globalValue;
  if (m.reduce || !safe(from) || !safe(to) || from === to) {
    f.text(String(to));
    return;
  }
  const i = interpolateNumber(from, to);
  f.text(String(from))
    .transition()
    .delay(m.landed)
    .duration(GROW_MS)
    .tween('text', function () {
      return (t) => {
        this.textContent = String(Math.round(i(t)));
      };
    });
  m.started.push(figure);
}

/** The sweep: a step on, or all the way back to the start on a retry. */
function moveSweep(nodes: CounterNodes, m: Move): void {
  const { prev, next } = m;
  const back = prev !== null && next.position < prev.position;
  const wasX = prev?.sweepX ?? next.sweepX;
  for (const [el, attr, from, to] of [
    [
      nodes.marker.current,
      'transform',
      `translate(${String(wasX)},0)`,
      `translate(${String(next.sweepX)},0)`,
    ],
    [
      nodes.swept.current,
      'width',
      String(Math.max(0, wasX - next.sweepLeft)),
      String(Math.max(0, next.sweepX - next.sweepLeft)),
    ],
  ] as const) {
    if (!el) continue;
    const s = select(el).interrupt();
    if (m.reduce || !prev || from === to) s.attr(attr, to);
    else {
      s.attr(attr, from)
        .transition()
        .duration(back ? RETRY_MS : SWEEP_MS)
        .ease(easeCubicInOut)
        .attr(attr, to);
      m.started.push(el);
    }
  }
}

/** The pour: the batch travels on an arc from its CPU's bar to the global count, then fades. */
function pourBatch(batch: Element | null, m: Move): void {
  if (!batch) return;
  const g = select(batch).interrupt();
  const pour = m.next.pour;
  if (!m.pouring || !pour) {
    g.attr('opacity', 0);
    return;
  }
  const rect = g.select('rect');
  const path = pourPath(pour.from, pour.to);
  const place = (t: number) => {
    const b = pourAt(path, t);
    g.attr('transform', `translate(${b.x.toFixed(1)},${b.y.toFixed(1)})`);
    rect.attr('width', b.width).attr('height', b.height);
  };
  place(0);
  g.attr('opacity', 1)
    .transition()
    .duration(POUR_MS)
    .ease(easeCubicInOut)
    .tween('pour', () => place)
    .transition()
    .duration(300)
    .attr('opacity', 0);
  m.started.push(batch);
}
