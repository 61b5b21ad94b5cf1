// What a column of an execution graph holds once a counter's events are grouped: the events in
// program order, each with the runs it is part of (the calls, a handler's run, a loop, a
// scheduler turn: GraphEvent.frames), and a loop's turns folded into one item where the reader
// asked, or where the graph is a counter's (more events than a litmus test has) and the loop
// holds no step of a forbidden cycle. The layout (executionGraph.ts) boxes and draws them;
// nothing here measures. Pure.

import type { CycleStep, ExecutionGraph, GraphFrame } from '../axiomatic/explain.ts';

/** A loop's run as one item of its column: its turns, and the events they made. */
export interface GraphFold {
  /** The loop's frame key. */
  readonly key: string;
  readonly thread: number;
  /** "for (i = 0; i < 3; i++)", "for_each_online_cpu(cpu)". */
  readonly label: string;
  /** Its line in the program. */
  readonly line: number;
  readonly turns: number;
  /** Its events' ids, in program order. */
  readonly events: readonly number[];
}

/** One item of a column: an event, or a folded loop standing for its events. */
export type ColumnItem =
  | {
      readonly kind: 'event';
      readonly id: number;
      /** Made by the machinery (a scheduler turn, hotplug, RCU-sched): drawn small and grey. */
      readonly quiet: boolean;
      /** The runs it is part of, outermost first (GraphEvent.frames). */
      readonly chain: readonly GraphFrame[];
    }
  | {
      readonly kind: 'fold';
      readonly fold: GraphFold;
      /** The runs the loop is part of, outermost first (without the loop). */
      readonly chain: readonly GraphFrame[];
    };

/** More events than this in the threads, and a graph is a counter's: its long loops fold. */
export const FOLD_FROM_EVENTS = 16;
/** A loop folds by default from this many events (two turns of one event read as they are). */
const FOLD_MIN_EVENTS = 3;

/**
 * The events drawn quietly: those the model's machinery made (a scheduler turn, its barriers,
 * hotplug's steps, RCU-sched's sections), except an access to a location the program itself
 * reads or writes (hotplug's write of cpu_online_mask, which a sum reads, is part of the story).
 */
export function quietEvents(g: ExecutionGraph): Set<number> {
  const programs = new Set(
    g.events.filter((e) => e.maker === 'program' && e.kind !== 'init').map((e) => e.location),
  );
  return new Set(
    g.events
      .filter((e) => e.maker !== 'program' && !(e.location !== '' && programs.has(e.location)))
      .map((e) => e.id),
  );
}

/** Every loop run of the graph that took more than one turn, by its frame key. */
export function loopRuns(g: ExecutionGraph): Map<string, GraphFold> {
  const runs = new Map<
    string,
    { thread: number; label: string; line: number; turns: number; events: number[] }
  >();
  const ordered = g.events
    .filter((e) => e.thread >= 0)
    .sort((a, b) => a.thread - b.thread || a.po - b.po);
  for (const e of ordered)
    for (const f of e.frames) {
      if (f.kind !== 'loop') continue;
      const r = runs.get(f.key);
      if (r) {
        r.turns = Math.max(r.turns, f.turn);
        r.events.push(e.id);
      } else
        runs.set(f.key, {
          thread: e.thread,
          label: f.label,
          line: f.line,
          turns: f.turn,
          events: [e.id],
        });
    }
  const out = new Map<string, GraphFold>();
  for (const [key, r] of runs) if (r.turns > 1) out.set(key, { key, ...r });
  return out;
}

/**
 * What one turn of a loop did, to tell turns that repeat each other from turns that differ: its
 * events' kinds, tags and locations, a per-CPU slot's index aside (a walk over the CPUs reads
 * one slot a turn).
 */
function turnShape(g: ExecutionGraph, run: GraphFold): string[] {
  const shapes = new Map<number, string[]>();
  for (const id of run.events) {
    const e = g.events[id];
    const turn = e?.frames.find((f) => f.key === run.key)?.turn ?? 0;
    if (!e) continue;
    const shape = `${e.kind} ${e.location.replace(/\[\d+\]$/, '[]')} ${e.tags.join(',')}`;
    shapes.set(turn, [...(shapes.get(turn) ?? []), shape]);
  }
  return [...shapes.values()].map((s) => s.join('; '));
}

/**
 * The loops folded when a graph is first shown: none in a graph of a litmus test's size; in a
 * counter's, each outermost loop of several turns and at least three events whose turns repeat
 * each other (where one turn differs, a slow path taken or a CPU skipped, that is the story),
 * unless it holds an event of the forbidden cycle (the cycle is what the picture is for).
 */
export function defaultFolded(
  g: ExecutionGraph,
  cycle: readonly CycleStep[] = g.why?.cycle ?? [],
): ReadonlySet<string> {
  const threaded = g.events.filter((e) => e.thread >= 0).length;
  const out = new Set<string>();
  if (threaded <= FOLD_FROM_EVENTS) return out;
  const inCycle = new Set(cycle.flatMap((s) => [s.from, s.to]));
  const runs = loopRuns(g);
  for (const e of g.events) {
    const outer = e.frames.find((f) => runs.has(f.key));
    if (!outer || out.has(outer.key)) continue;
    const run = runs.get(outer.key) as GraphFold;
    const alike = new Set(turnShape(g, run)).size === 1;
    if (alike && run.events.length >= FOLD_MIN_EVENTS && !run.events.some((id) => inCycle.has(id)))
      out.add(outer.key);
  }
  return out;
}

/** Each column's items, in program order, with the loops in `folded` folded. */
export function columnItems(g: ExecutionGraph, folded: ReadonlySet<string>): ColumnItem[][] {
  const runs = loopRuns(g);
  const quiet = quietEvents(g);
  return Array.from({ length: g.threads }, (_, t) => {
    const items: ColumnItem[] = [];
    const shown = new Set<string>();
    const events = g.events.filter((e) => e.thread === t).sort((a, b) => a.po - b.po);
    for (const e of events) {
      const at = e.frames.findIndex((f) => folded.has(f.key) && runs.has(f.key));
      if (at < 0) {
        items.push({ kind: 'event', id: e.id, quiet: quiet.has(e.id), chain: e.frames });
        continue;
      }
      // One item for the loop's run, where its first event was (its fold stands for them all).
      const fold = runs.get((e.frames[at] as GraphFrame).key) as GraphFold;
      if (shown.has(fold.key)) continue;
      shown.add(fold.key);
      items.push({ kind: 'fold', fold, chain: e.frames.slice(0, at) });
    }
    return items;
  });
}
