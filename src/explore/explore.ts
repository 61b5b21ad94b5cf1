// Exhaustive bounded exploration of a scenario: every reachable state within upper bounds on
// interventions (IRQs, NMIs, preemptions, migrations) and, optionally, switches.
//
// The search is a Dijkstra over nodes (state, interventions used per kind, CPU of the last step),
// with the lexicographic cost (interventions, switches, steps). The first time a node is
// expanded its path is therefore the cheapest, so each outcome's witness is the one with the
// fewest interventions, then the fewest switches, then the fewest steps; equal costs go to the
// path found first, which makes two runs print the same witness. Keying nodes on the budget used
// (not only the state) means bounding never loses an outcome.
//
// A *switch* is a step on a CPU other than the previous step's while that CPU could still step
// (CHESS's preemption bound).

import { ctxBase, CTX_RETRIES } from '../machine/machine.ts';
import { apply, enabledEvents, Ev, eventCpu, eventType, isTerminal } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import { type Budget, budgetSlot } from '../machine/budget.ts';
import { hashState } from '../machine/state.ts';
import {
  alwaysViolations,
  finalViolations,
  observe,
  outcomeKey,
  type Violation,
} from '../scenarios/outcome.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';
import { MinHeap } from './heap.ts';
import { findLivelocks, type Graph } from './livelock.ts';

/** The interventions a path may make, and its switches. */
export interface Bounds extends Budget {
  /** Most switches on a path; Infinity for no bound. */
  readonly switches: number;
}

export interface ExploreOptions {
  /** Stop (incomplete) after this many nodes. */
  readonly maxStates?: number;
  /**
   * Stop at the first violation. States are expanded cheapest first (fewest interventions, then
   * switches, then steps), so it is the simplest one: what iterative deepening on the bounds
   * would find, without re-exploring.
   */
  readonly simplest?: boolean;
  /** Called every 4096 expanded states; returning true cancels (the result is incomplete). */
  readonly progress?: (states: number, transitions: number) => boolean;
}

export interface Witness {
  readonly events: readonly number[];
  readonly interventions: number;
  readonly switches: number;
}

export interface Outcome {
  readonly observables: Observables;
  readonly violations: readonly Violation[];
  /** False for a stuck state: not finished, and nothing but itself can follow (a deadlock). */
  readonly terminal: boolean;
  readonly witness: Witness;
  /** How many distinct end states gave this outcome. */
  states: number;
}

export interface AlwaysViolation extends Violation {
  /** The cheapest path to the first state that breaks it. */
  readonly witness: Witness;
}

export interface LivelockReport {
  /** The cheapest path to the first state of the cycle. */
  readonly witness: Witness;
  /** A fair cycle from that state back to it, in which a sum keeps running and never returns. */
  readonly cycle: readonly number[];
}

export interface ExploreResult {
  readonly complete: boolean;
  readonly stats: { states: number; transitions: number; ms: number };
  readonly outcomes: readonly Outcome[];
  readonly always: readonly AlwaysViolation[];
  /** Found only in complete explorations (a cycle needs the whole graph). */
  readonly livelocks: readonly LivelockReport[];
}

// Cost weights: an intervention outweighs any number of switches, a switch any number of steps.
const W_INTERVENTION = 1e12;
const W_SWITCH = 1e6;

const META = 5; // used irqs, nmis, preemptions, migrations; CPU of the last step + 1

/** Every node's state, metadata, best cost and parent, in flat growable arrays. */
class Nodes {
  count = 0;
  states: Int32Array;
  meta: Int32Array;
  cost: Float64Array;
  parent: Int32Array;
  event: Int32Array;
  switches: Int32Array;
  expanded: Uint8Array;
  /** Each node's 64-bit key (two lanes), and an open-addressing table of node ids by key. */
  private keys: Int32Array;
  private table = new Int32Array(1 << 12).fill(-1);
  private readonly h = new Int32Array(2);

  constructor(readonly size: number) {
    const cap = 1024;
    this.states = new Int32Array(cap * size);
    this.meta = new Int32Array(cap * META);
    this.cost = new Float64Array(cap);
    this.parent = new Int32Array(cap);
    this.event = new Int32Array(cap);
    this.switches = new Int32Array(cap);
    this.expanded = new Uint8Array(cap);
    this.keys = new Int32Array(cap * 2);
  }

  private grow(): void {
    const cap = this.cost.length * 2;
    const more = <T extends Int32Array | Float64Array | Uint8Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.states = more(this.states, cap * this.size);
    this.meta = more(this.meta, cap * META);
    this.cost = more(this.cost, cap);
    this.parent = more(this.parent, cap);
    this.event = more(this.event, cap);
    this.switches = more(this.switches, cap);
    this.expanded = more(this.expanded, cap);
    this.keys = more(this.keys, cap * 2);
  }

  /** Doubles the table when it is half full, re-inserting every node by its key. */
  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      let i = (this.keys[2 * id + 1] as number) & mask;
      while (table[i] !== -1) i = (i + 1) & mask;
      table[i] = id;
    }
    this.table = table;
  }

  /** Hashes state + metadata into this.h (two 32-bit lanes). */
  private key(s: Int32Array, meta: Int32Array): void {
    hashState(s, this.h);
    let m = 0x2f1a3b5c;
    for (let i = 0; i < META; i++) m = Math.imul(m ^ (meta[i] as number), 0x9e3779b1) ^ (m >>> 15);
    this.h[1] = (this.h[1] as number) ^ m;
    this.h[0] = Math.imul((this.h[0] as number) ^ (m >>> 7), 0x85ebca6b);
  }

  private same(id: number, s: Int32Array, meta: Int32Array): boolean {
    const base = id * this.size;
    for (let i = 0; i < this.size; i++) if (this.states[base + i] !== s[i]) return false;
    for (let i = 0; i < META; i++) if (this.meta[id * META + i] !== meta[i]) return false;
    return true;
  }

  /** The node for (s, meta): [id, true] if it was just created. */
  find(s: Int32Array, meta: Int32Array): [number, boolean] {
    this.key(s, meta);
    const h0 = this.h[0] as number;
    const h1 = this.h[1] as number;
    const mask = this.table.length - 1;
    let i = h1 & mask;
    for (;;) {
      const id = this.table[i] as number;
      if (id === -1) break;
      // Equal keys are checked word by word: a 64-bit collision cannot merge two states.
      if (this.keys[2 * id] === h0 && this.keys[2 * id + 1] === h1 && this.same(id, s, meta))
        return [id, false];
      i = (i + 1) & mask;
    }
    if (this.count === this.cost.length) this.grow();
    const id = this.count++;
    this.states.set(s, id * this.size);
    this.meta.set(meta, id * META);
    this.keys[2 * id] = h0;
    this.keys[2 * id + 1] = h1;
    this.cost[id] = Infinity;
    this.table[i] = id;
    if (this.count * 2 > this.table.length) this.rehash();
    return [id, true];
  }

  stateOf(id: number, into: Int32Array): void {
    into.set(this.states.subarray(id * this.size, (id + 1) * this.size));
  }

  witness(id: number): Witness {
    const events: number[] = [];
    for (let n = id; this.parent[n] !== -1; n = this.parent[n] as number)
      events.push(this.event[n] as number);
    events.reverse();
    let interventions = 0;
    for (let i = 0; i < 4; i++) interventions += this.meta[id * META + i] as number;
    return { events, interventions, switches: this.switches[id] as number };
  }
}

/** Explores `sc` with parameters `params` within `bounds`. */
export function explore(
  sc: Scenario,
  params: Params,
  bounds: Bounds,
  options: ExploreOptions = {},
): ExploreResult {
  const started = Date.now();
  const maxStates = options.maxStates ?? 2_000_000;
  const { machine: m } = sc.build(params);
  const limits = [bounds.irqs, bounds.nmis, bounds.preemptions, bounds.migrations];
  const checksAlways = sc.invariants.some((i) => i.when === 'always');
  const nodes = new Nodes(m.size);
  const heap = new MinHeap();
  const cur = new Int32Array(m.size);
  const next = new Int32Array(m.size);
  const meta = new Int32Array(META);
  const evs: number[] = [];
  const outcomes = new Map<string, Outcome>();
  const always = new Map<string, AlwaysViolation>();
  let transitions = 0;
  let complete = true;
  // Every transition, for livelock detection (a cycle is a property of the whole graph).
  const edges = {
    n: 0,
    from: new Int32Array(4096),
    to: new Int32Array(4096),
    ev: new Int32Array(4096),
  };
  const addEdge = (f: number, t: number, e: number) => {
    if (edges.n === edges.from.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      edges.from = grow(edges.from);
      edges.to = grow(edges.to);
      edges.ev = grow(edges.ev);
    }
    edges.from[edges.n] = f;
    edges.to[edges.n] = t;
    edges.ev[edges.n] = e;
    edges.n++;
  };
  // Tasks that loop forever (adders in a livelock study) would make a retrying sum's retry count
  // grow without end; it saturates at cpus + 1 so the state space stays finite (the
  // retries-bounded verdict, "at most cpus", is still decided exactly).
  const endless = m.code.slice(0, m.tasks).some((code) => code.some((ins) => ins.op === Op.Pause));
  const retryCap = m.cpus + 1;
  let expandedCount = 0;
  let violated = false;

  const [root] = nodes.find(initialState(m), meta);
  nodes.cost[root] = 0;
  nodes.parent[root] = -1;
  nodes.event[root] = -1;
  heap.push(root, 0);

  const record = (
    id: number,
    observables: Observables,
    violations: readonly Violation[],
    terminal: boolean,
  ) => {
    const key = `${terminal ? 'T' : 'D'}${outcomeKey(observables)}`;
    if (violations.length > 0) violated = true;
    const seen = outcomes.get(key);
    if (seen) seen.states++;
    else
      outcomes.set(key, {
        observables,
        violations,
        terminal,
        witness: nodes.witness(id),
        states: 1,
      });
  };

  while (heap.size > 0) {
    const id = heap.pop();
    if (heap.lastCost > (nodes.cost[id] as number) || nodes.expanded[id] === 1) continue;
    nodes.expanded[id] = 1;
    if (options.simplest && violated) break;
    if (++expandedCount % 4096 === 0 && options.progress?.(nodes.count, transitions) === true) {
      complete = false;
      break;
    }
    nodes.stateOf(id, cur);
    const base = id * META;
    const lastCpu = (nodes.meta[base + 4] as number) - 1;

    if (checksAlways) {
      for (const v of alwaysViolations(sc, m, cur, params)) {
        if (!always.has(v.id)) always.set(v.id, { ...v, witness: nodes.witness(id) });
        violated = true;
      }
    }
    if (isTerminal(m, cur)) {
      const o = observe(sc, m, cur, params);
      record(id, o, finalViolations(sc, o, params), true);
      continue;
    }

    const n = enabledEvents(m, cur, evs);
    // Could the previous step's CPU still step? Then stepping another CPU is a switch.
    let lastCanStep = false;
    for (let i = 0; i < n; i++) {
      const ev = evs[i] as number;
      if (eventType(ev) === Ev.Step && eventCpu(ev) === lastCpu) lastCanStep = true;
    }
    let progress = false;
    for (let i = 0; i < n; i++) {
      const ev = evs[i] as number;
      const slot = budgetSlot(ev);
      if (slot >= 0 && (nodes.meta[base + slot] as number) >= (limits[slot] as number)) continue;
      const isStep = eventType(ev) === Ev.Step;
      const switched = isStep && lastCanStep && eventCpu(ev) !== lastCpu;
      const switches = (nodes.switches[id] as number) + (switched ? 1 : 0);
      if (switches > bounds.switches) continue;
      next.set(cur);
      apply(m, next, ev);
      if (endless) {
        for (let c = 0; c < m.contexts; c++) {
          const at = ctxBase(m, c) + CTX_RETRIES;
          if ((next[at] as number) > retryCap) next[at] = retryCap;
        }
      }
      transitions++;
      for (let j = 0; j < 4; j++) meta[j] = nodes.meta[base + j] as number;
      if (slot >= 0) meta[slot] = (meta[slot] as number) + 1;
      meta[4] = isStep ? eventCpu(ev) + 1 : lastCpu + 1;
      const cost =
        (nodes.cost[id] as number) +
        1 +
        (slot >= 0 ? W_INTERVENTION : 0) +
        (switched ? W_SWITCH : 0);
      const [to, fresh] = nodes.find(next, meta);
      // Livelocks are looked for only when some task runs forever (endless adders): with finite
      // tasks the others eventually stop, and a sum they no longer disturb returns.
      if (endless) addEdge(id, to, ev);
      if (to !== id) progress = progress || !statesEqual(next, cur);
      if (fresh && nodes.count > maxStates) {
        complete = false;
        break;
      }
      if (cost < (nodes.cost[to] as number) && nodes.expanded[to] === 0) {
        nodes.cost[to] = cost;
        nodes.parent[to] = id;
        nodes.event[to] = ev;
        nodes.switches[to] = switches;
        heap.push(to, cost);
      }
    }
    if (!complete) break;
    if (!progress) {
      // Nothing but spinning (or nothing at all) can follow, and the machine is not done.
      record(
        id,
        observe(sc, m, cur, params),
        [{ id: 'deadlock', reason: 'no CPU can make progress' }],
        false,
      );
    }
  }

  if (options.simplest && violated) complete = false; // stopped early on purpose
  const livelocks: LivelockReport[] = [];
  if (complete && endless) {
    const graph: Graph = {
      nodes: nodes.count,
      edges: edges.n,
      from: edges.from,
      to: edges.to,
      ev: edges.ev,
      stateOf: (id, into) => {
        nodes.stateOf(id, into);
      },
    };
    const byCost = (a: number, b: number) =>
      (nodes.cost[a] as number) - (nodes.cost[b] as number) || a - b;
    for (const l of findLivelocks(m, graph, byCost)) {
      livelocks.push({ witness: nodes.witness(l.entry), cycle: l.cycle });
    }
  }
  return {
    complete,
    stats: { states: nodes.count, transitions, ms: Date.now() - started },
    outcomes: [...outcomes.values()],
    always: [...always.values()],
    livelocks,
  };
}

function statesEqual(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
