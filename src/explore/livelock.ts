// Livelocks in an explored graph: a reachable cycle in which a CPU running a sum keeps executing
// (not merely spinning) without the sum returning, under weak fairness (every CPU that can step
// in every state of the cycle does step in it, so a CPU spinning only because the lock holder
// is never scheduled is not a livelock).
//
// Strongly connected components (Tarjan, iterative) are enough: within one component every
// required edge can be reached from every other, so a fair cycle exists as soon as the
// component holds the edges fairness asks for. The result count of a sum is part of the state,
// so a sum cannot return inside a cycle.

import { Ev, eventCpu, eventType } from '../machine/events.ts';
import { topContext } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import type { Machine } from '../machine/machine.ts';
import { statesEqual } from '../machine/state.ts';

export interface Graph {
  readonly nodes: number;
  readonly edges: number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly ev: Int32Array;
  /** The machine state of a node (written into `into`). */
  stateOf(id: number, into: Int32Array): void;
}

export interface Livelock {
  /** The node where the cycle starts (reached by the cheapest path). */
  readonly entry: number;
  /** Events of a closed walk from `entry` back to it. */
  readonly cycle: readonly number[];
}

/** Contexts that return a result (a sum or a read): they are the ones a livelock starves. */
function summers(m: Machine): Set<number> {
  const out = new Set<number>();
  m.code.forEach((code, c) => {
    if (code.some((ins) => ins.op === Op.Record)) out.add(c);
  });
  return out;
}

export function findLivelocks(
  m: Machine,
  g: Graph,
  order: (a: number, b: number) => number,
): Livelock[] {
  // Adjacency in CSR form.
  const start = new Int32Array(g.nodes + 1);
  for (let e = 0; e < g.edges; e++) {
    const i = (g.from[e] as number) + 1;
    start[i] = (start[i] as number) + 1;
  }
  for (let i = 0; i < g.nodes; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const adj = new Int32Array(g.edges);
  const fill = start.slice(0, g.nodes);
  for (let e = 0; e < g.edges; e++) {
    const f = g.from[e] as number;
    adj[fill[f] as number] = e;
    fill[f] = (fill[f] as number) + 1;
  }

  // Tarjan's SCC, iteratively.
  const index = new Int32Array(g.nodes).fill(-1);
  const low = new Int32Array(g.nodes);
  const onStack = new Uint8Array(g.nodes);
  const comp = new Int32Array(g.nodes).fill(-1);
  const stack: number[] = [];
  const call: { v: number; i: number }[] = [];
  let counter = 0;
  let comps = 0;
  for (let root = 0; root < g.nodes; root++) {
    if (index[root] !== -1) continue;
    call.push({ v: root, i: start[root] as number });
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (call.length > 0) {
      const frame = call[call.length - 1] as { v: number; i: number };
      const v = frame.v;
      if (frame.i < (start[v + 1] as number)) {
        const w = g.to[adj[frame.i++] as number] as number;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          call.push({ v: w, i: start[w] as number });
        } else if (onStack[w] === 1) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      call.pop();
      const parent = call[call.length - 1];
      if (parent) low[parent.v] = Math.min(low[parent.v] as number, low[v] as number);
      if (low[v] === index[v]) {
        for (;;) {
          const w = stack.pop() as number;
          onStack[w] = 0;
          comp[w] = comps;
          if (w === v) break;
        }
        comps++;
      }
    }
  }

  // Judge each component with at least one internal edge.
  const who = summers(m);
  const a = new Int32Array(m.size);
  const b = new Int32Array(m.size);
  const members: number[][] = Array.from({ length: comps }, () => []);
  for (let v = 0; v < g.nodes; v++) members[comp[v] as number]?.push(v);
  const found: Livelock[] = [];
  for (let c = 0; c < comps; c++) {
    const nodes = members[c] as number[];
    const internal: number[] = [];
    for (const v of nodes) {
      for (let i = start[v] as number; i < (start[v + 1] as number); i++) {
        const e = adj[i] as number;
        if (comp[g.to[e] as number] === c) internal.push(e);
      }
    }
    if (internal.length === 0) continue;
    // CPUs that can step in every state of the component.
    const always = new Array<boolean>(m.cpus).fill(true);
    for (const v of nodes) {
      g.stateOf(v, a);
      for (let k = 0; k < m.cpus; k++) if (topContext(m, a, k) < 0) always[k] = false;
    }
    const required = new Map<number, number>(); // CPU → an internal step edge on it
    let progress = -1; // an internal edge on which a summer executes (changes the state)
    for (const e of internal) {
      const ev = g.ev[e] as number;
      if (eventType(ev) !== Ev.Step) continue;
      const k = eventCpu(ev);
      if (!required.has(k)) required.set(k, e);
      if (progress >= 0) continue;
      g.stateOf(g.from[e] as number, a);
      if (!who.has(topContext(m, a, k))) continue;
      g.stateOf(g.to[e] as number, b);
      if (!statesEqual(a, b)) progress = e;
    }
    if (progress < 0) continue;
    let fair = true;
    for (let k = 0; k < m.cpus; k++) if (always[k] && !required.has(k)) fair = false;
    if (!fair) continue;
    const entry = nodes.reduce((x, y) => (order(x, y) <= 0 ? x : y));
    const must = [
      progress,
      ...[...required.entries()].filter(([k]) => always[k]).map(([, e]) => e),
    ];
    found.push({ entry, cycle: closedWalk(g, start, adj, comp, c, entry, must) });
  }
  return found;
}

/** A walk from `entry` through every edge of `must` and back, inside component `c` (BFS legs). */
function closedWalk(
  g: Graph,
  start: Int32Array,
  adj: Int32Array,
  comp: Int32Array,
  c: number,
  entry: number,
  must: readonly number[],
): number[] {
  const events: number[] = [];
  const leg = (from: number, to: number) => {
    if (from === to) return;
    const prev = new Map<number, number>([[from, -1]]);
    const queue = [from];
    while (queue.length > 0 && !prev.has(to)) {
      const v = queue.shift() as number;
      for (let i = start[v] as number; i < (start[v + 1] as number); i++) {
        const e = adj[i] as number;
        const w = g.to[e] as number;
        if (comp[w] !== c || prev.has(w)) continue;
        prev.set(w, e);
        queue.push(w);
      }
    }
    const path: number[] = [];
    for (let v = to; v !== from;) {
      const e = prev.get(v) as number;
      path.push(g.ev[e] as number);
      v = g.from[e] as number;
    }
    events.push(...path.reverse());
  };
  let at = entry;
  for (const e of must) {
    leg(at, g.from[e] as number);
    events.push(g.ev[e] as number);
    at = g.to[e] as number;
  }
  leg(at, entry);
  return events;
}
