// An execution graph as text, for whoever cannot see the picture (a screen reader, a search in
// the page): each event by its thread, each edge in words, and the whole graph in a paragraph.
// The SVG's description and the table beside it are both made here, so they say the same.

import type { EdgeKind, ExecutionGraph } from '../axiomatic/explain.ts';
import type { GraphFold } from './executionGraphGroups.ts';

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

/** A thread's name: "P0", "IRQ0 on idle CPU0". */
const threadName = (g: ExecutionGraph, t: number) => g.threadNames[t] ?? `P${String(t)}`;

/**
 * "P1: R flag=1"; "P0 (IRQ0): R c[0]=15" for a handler's event in the task it interrupted;
 * "init flag=0" for an initial write.
 */
export function eventName(g: ExecutionGraph, id: number): string {
  const e = g.events[id];
  if (!e) return `event ${id}`;
  if (e.thread < 0) return e.label;
  const t = threadName(g, e.thread);
  return e.context && e.context !== t ? `${t} (${e.context}): ${e.label}` : `${t}: ${e.label}`;
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

/** A fold as the picture's words say it: what it stands for, and what it hides. */
export interface FoldWords extends Pick<GraphFold, 'label' | 'turns' | 'events'> {
  readonly threadName: string;
  readonly folded: boolean;
  /** Edges between two of its events, program order aside (not drawn while folded). */
  readonly inside: number;
}

/** What the picture folds, in a sentence ('' when it folds nothing): nothing is hidden unsaid. */
export function foldSentence(folds: readonly FoldWords[]): string {
  const shut = folds.filter((f) => f.folded);
  if (shut.length === 0) return '';
  const each = shut.map(
    (f) =>
      `the ${String(f.turns)} iterations of ${f.label} in ${f.threadName} (${String(f.events.length)} events, with ${String(f.inside)} edge${f.inside === 1 ? '' : 's'} between them)`,
  );
  return `The picture folds ${each.join('; ')}, each into one box whose arrows stand for its events' edges; every event and edge is listed above.`;
}

/**
 * The whole graph in a paragraph: the verdict, each thread's events in order, the edges, and
 * what the picture folds.
 */
export function graphSummary(g: ExecutionGraph, folds: readonly FoldWords[] = []): string {
  const verdict = g.consistent
    ? `An execution the kernel's memory model (lkmm) allows, ending in ${g.state}`
    : `An execution the kernel's memory model (lkmm) forbids (it breaks ${g.broken.join(', ')}), which would end in ${g.state}`;
  const threads = Array.from({ length: g.threads }, (_, t) => {
    const events = g.events
      .filter((e) => e.thread === t)
      .sort((a, b) => a.po - b.po)
      .map(
        (e) =>
          `${e.context && e.context !== threadName(g, t) ? `${e.context}: ` : ''}${e.label}${e.tags.length ? ` (${e.tags.join(', ')})` : ''}`,
      );
    return `${threadName(g, t)}, in program order: ${events.join(', then ') || 'no events'}`;
  });
  const inits = g.events.filter((e) => e.thread < 0).map((e) => e.label);
  const edges = edgeRows(g).map((r) => `${r.from} ${r.relation} ${r.to}`);
  return [
    `${verdict}.`,
    inits.length ? `Initial writes: ${inits.join(', ')}.` : '',
    ...threads.map((t) => `${t}.`),
    edges.length ? `Edges: ${edges.join('; ')}.` : '',
    g.why ? g.why.sentence : '',
    foldSentence(folds),
  ]
    .filter((s) => s !== '')
    .join(' ');
}
