// Exhaustive bounded exploration of a scenario: every reachable state within upper bounds on
// interventions (IRQs, NMIs, preemptions, migrations) and, optionally, switches.
//
// The search is a Dijkstra over nodes (state, interventions used per kind, CPU of the last step,
// always-invariants broken so far), with the lexicographic cost (interventions, switches,
// steps). The first time a node is expanded its path is therefore the cheapest, so each
// outcome's witness is the one with the fewest interventions, then the fewest switches, then the
// fewest steps; equal costs go to the node found first, which makes two runs print the same
// witness. Keying nodes on the budget used (not only the state) means bounding never loses an
// outcome; keying them on the invariants broken on the way means an outcome reached through a
// bad state is reported apart from the same end reached cleanly.
//
// A *switch* is a step on a CPU other than the previous step's while that CPU could still step
// (CHESS's preemption bound).
//
// The search runs level by level, a level being the nodes of one cost (shard.ts); here in one
// thread, in shards/ on several with the same answer. Nodes are stored compactly
// (visited.ts), queued by cost (queue.ts), and the search stops, incomplete, at a state or
// memory budget. One thread remembers what each CPU can do from its components and where it
// leads (transitions.ts), so most nodes are expanded without running the interpreter. Two
// reductions are opt-in: symmetry.ts and por.ts. The answer is put together from what the
// search found in assemble.ts; what it answers is typed in result.ts.

import { pathOf, type PathIndex, assemble } from './assemble.ts';
import { DEFAULT_MAX_MEMORY_MB } from './limits.ts';
import { findLivelocks, type Graph } from './livelock.ts';
import { type Bounds, type ReductionUse, searchSetup } from './setup.ts';
import { interventionsOf, Shard, type StopReason } from './shard.ts';
import { MAX_NODES } from './visited.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { ExploreOptions, ExploreResult, LivelockReport } from './result.ts';

// The explorer's entry also names what it is asked and answers (declared in setup.ts, shard.ts
// and result.ts), for callers that need no more of it.
export type { Bounds, ExploreOptions, ExploreResult, ReductionUse, StopReason };

/** Explores `sc` with parameters `params` within `bounds`, in this thread. */
export function explore(
  sc: Scenario,
  params: Params,
  bounds: Bounds,
  options: ExploreOptions = {},
): ExploreResult {
  const started = Date.now();
  const setup = searchSetup(sc, params, bounds, options);
  const maxStates = Math.min(options.maxStates ?? Infinity, MAX_NODES);
  const maxBytes = (options.maxMemoryMB ?? DEFAULT_MAX_MEMORY_MB) * 1024 * 1024;
  const shard = new Shard(setup, { index: 0, count: 1 });
  shard.seed();
  const check = (): StopReason | null => {
    const bytes = shard.bytes;
    if (bytes > maxBytes) return 'max-memory';
    const p = {
      states: shard.nodes.count,
      transitions: shard.transitions,
      depth: shard.depth,
      bytes,
      ms: Date.now() - started,
    };
    return options.progress?.(p) === true ? 'cancelled' : null;
  };
  // Level by level, cheapest first (shard.ts): one shard ranks a level's nodes in its own order.
  // Limits on states and simplest runs stop between levels, so that how far a run got does not
  // depend on how many shards searched it (shards/worker.ts decides the same way).
  let stopped: StopReason | null = null;
  let ranked = 0;
  for (;;) {
    const cost = shard.minCost();
    if (cost === Infinity) break;
    if (shard.nodes.count > maxStates) {
      stopped = 'max-states';
      break;
    }
    if (options.simplest && shard.violated) {
      stopped = 'simplest';
      break;
    }
    shard.beginLevel(cost);
    const base = ranked;
    shard.expandLevel((i) => base + i, null, check);
    ranked += shard.levelSize;
    if (shard.stopped !== null) {
      stopped = shard.stopped;
      break;
    }
  }
  if (options.simplest && shard.violated && stopped === null) stopped = 'simplest';
  const cut = [...shard.outcomes.values()].some((o) => o.violations[0]?.id === 'loop-bound');
  const paths = shardPaths(shard);

  const livelocks: LivelockReport[] = [];
  if (stopped === null && !cut && setup.endless) {
    const nodes = shard.nodes;
    const ids = new Int32Array(nodes.width);
    const graph: Graph = {
      nodes: nodes.count,
      edges: shard.edges.n,
      from: shard.edges.from,
      to: shard.edges.to,
      ev: shard.edges.ev,
      stateOf: (id, into) => {
        nodes.decode(id, into, ids);
      },
    };
    const byCost = (a: number, b: number) => shard.costOf(a) - shard.costOf(b) || a - b;
    for (const l of findLivelocks(setup.m, graph, byCost)) {
      livelocks.push({
        witness: {
          events: pathOf(paths, l.entry),
          interventions: interventionsOf(nodes.meta(l.entry)),
          switches: nodes.switchesOf(l.entry),
        },
        cycle: l.cycle,
      });
    }
  }
  return assemble(setup, [shardReport(shard)], paths, {
    stopped,
    ms: Date.now() - started,
    livelocks,
  });
}

/** A shard's findings and figures, for `assemble`. */
export function shardReport(shard: Shard) {
  return {
    outcomes: [...shard.outcomes.values()],
    broken: [...shard.broken.values()],
    states: shard.nodes.count,
    transitions: shard.transitions,
    depth: shard.depth,
    bytes: shard.bytes,
  };
}

/** The paths of a run with one shard: its own parents and events (refs are its ids). */
function shardPaths(shard: Shard): PathIndex {
  return {
    parentOf: (ref) => shard.nodes.parent.get(ref),
    eventOf: (ref) => shard.nodes.event.get(ref),
  };
}
