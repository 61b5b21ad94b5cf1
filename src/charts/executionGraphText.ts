// An execution graph as text, for whoever cannot see the picture (a screen reader, a search in
// the page): each event by its thread, each edge in words, and the whole graph in a paragraph.
// The SVG's description and the table beside it are both made here, so they say the same.

import type { EdgeKind, ExecutionGraph } from '../axiomatic/explain.ts';

/** What each relation is, in a few words. */
export const RELATION_WORDS: Readonly<Record<EdgeKind | 'order', string>> = {
  po: 'program order',
  rf: 'reads from',
  co: 'coherence order',
  fr: 'from-read (reads a value older than)',
  addr: 'address dependency',
  data: 'data dependency',
  ctrl: 'control dependency',
  rmw: 'one atomic read-modify-write',
  order: 'ordered by',
};

/** "P1: R flag=1", or "init flag=0" for an initial write. */
export function eventName(g: ExecutionGraph, id: number): string {
  const e = g.events[id];
  if (!e) return `event ${id}`;
  return e.thread >= 0 ? `P${e.thread}: ${e.label}` : e.label;
}

export interface EdgeRow {
  readonly from: string;
  readonly relation: string;
  readonly to: string;
  /** Between two threads, or within one. */
  readonly where: 'between threads' | 'within a thread' | 'from the initial state';
}

/** Every edge of the graph but program order (the columns say it), in the graph's order. */
export function edgeRows(g: ExecutionGraph): EdgeRow[] {
  return g.edges
    .filter((e) => e.kind !== 'po')
    .map((e) => ({
      from: eventName(g, e.from),
      relation: `${e.kind}${e.external ? 'e' : e.kind === 'rf' || e.kind === 'co' || e.kind === 'fr' ? 'i' : ''}`,
      to: eventName(g, e.to),
      where:
        g.events[e.from]?.thread === -1
          ? 'from the initial state'
          : e.external
            ? 'between threads'
            : 'within a thread',
    }));
}

/** The whole graph in a paragraph: the verdict, each thread's events in order, the edges. */
export function graphSummary(g: ExecutionGraph): string {
  const verdict = g.consistent
    ? `An execution the kernel's memory model (lkmm) allows, ending in ${g.state}`
    : `An execution the kernel's memory model (lkmm) forbids (it breaks ${g.broken.join(', ')}), which would end in ${g.state}`;
  const threads = Array.from({ length: g.threads }, (_, t) => {
    const events = g.events
      .filter((e) => e.thread === t)
      .sort((a, b) => a.po - b.po)
      .map((e) => `${e.label}${e.tags.length ? ` (${e.tags.join(', ')})` : ''}`);
    return `P${t}, in program order: ${events.join(', then ') || 'no events'}`;
  });
  const inits = g.events.filter((e) => e.thread < 0).map((e) => e.label);
  const edges = edgeRows(g).map((r) => `${r.from} ${r.relation} ${r.to}`);
  return [
    `${verdict}.`,
    inits.length ? `Initial writes: ${inits.join(', ')}.` : '',
    ...threads.map((t) => `${t}.`),
    edges.length ? `Edges: ${edges.join('; ')}.` : '',
    g.why ? g.why.sentence : '',
  ]
    .filter((s) => s !== '')
    .join(' ');
}
