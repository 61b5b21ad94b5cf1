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
// Nodes are stored compactly (visited.ts), queued by cost (queue.ts), and the search stops,
// incomplete, at a state or memory budget. Two reductions are opt-in: symmetry.ts and por.ts.

import { budgetSlot, type Budget } from '../machine/budget.ts';
import {
  apply,
  enabledEvents,
  Ev,
  eventCpu,
  eventTarget,
  eventType,
  isTerminal,
  makeEvent,
} from '../machine/events.ts';
import { initialState, MachineFault, topContext } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import {
  contextName,
  ctxBase,
  CTX_DONE,
  CTX_PC,
  CTX_RETRIES,
  type Machine,
} from '../machine/machine.ts';
import { hashKey, statesEqual } from '../machine/state.ts';
import { finalViolations, observe, outcomeKey, type Violation } from '../scenarios/outcome.ts';
import type { InvariantSpec, Observables, Params, Scenario } from '../scenarios/types.ts';
import { footprints } from './footprint.ts';
import { DEFAULT_MAX_MEMORY_MB } from './limits.ts';
import { findLivelocks, type Graph } from './livelock.ts';
import { privateSteps, type PrivateSteps } from './por.ts';
import { BucketQueue } from './queue.ts';
import { findSymmetry, type Symmetry } from './symmetry.ts';
import { MAX_NODES, Visited } from './visited.ts';

/** The interventions a path may make, and its switches. */
export interface Bounds extends Budget {
  /** Most switches on a path; Infinity for no bound. */
  readonly switches: number;
}

/** How far a run has got, every 4096 expanded nodes. */
export interface ExploreProgress {
  readonly states: number;
  readonly transitions: number;
  /** The most steps on an expanded node's cheapest path. */
  readonly depth: number;
  /** Memory held by the visited set and the queue. */
  readonly bytes: number;
  readonly ms: number;
}

export interface ExploreOptions {
  /** Stop (incomplete) after this many nodes; no limit by default. */
  readonly maxStates?: number;
  /** Stop (incomplete) when the visited set and queue hold this many MB; 1024 by default. */
  readonly maxMemoryMB?: number;
  /**
   * Stop at the first violation. States are expanded cheapest first (fewest interventions, then
   * switches, then steps), so it is the simplest one: what iterative deepening on the bounds
   * would find, without re-exploring.
   */
  readonly simplest?: boolean;
  /** Keep one state per class of states that differ by a renaming of identical CPUs. */
  readonly symmetry?: boolean;
  /** Explore a CPU's private step alone when nothing else can interfere with it. */
  readonly por?: boolean;
  /** Called every 4096 expanded states; returning true cancels (the result is incomplete). */
  readonly progress?: (p: ExploreProgress) => boolean;
}

export interface Witness {
  readonly events: readonly number[];
  readonly interventions: number;
  readonly switches: number;
}

/** An invariant broken on the way to an outcome, at `step` (events applied; 0: the start). */
export interface PathViolation extends Violation {
  readonly step: number;
}

export interface Outcome {
  readonly observables: Observables;
  /** Final invariants the end state breaks, then always-invariants broken on the way. */
  readonly violations: readonly (Violation | PathViolation)[];
  /** False for a stuck state: not finished, and nothing but itself can follow (a deadlock). */
  readonly terminal: boolean;
  readonly witness: Witness;
  /** How many distinct end nodes gave this outcome. */
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

/** Why an incomplete run stopped (or, for 'loop-bound', why it could not cover every path). */
export type StopReason = 'max-states' | 'max-memory' | 'cancelled' | 'simplest' | 'loop-bound';

/** Whether a reduction asked for ran, and if not, why. */
export interface ReductionUse {
  readonly on: boolean;
  readonly why?: string;
}

export interface ExploreResult {
  readonly complete: boolean;
  readonly stopped: StopReason | null;
  readonly stats: {
    states: number;
    transitions: number;
    ms: number;
    depth: number;
    bytes: number;
  };
  /** Present for the reductions that were asked for. */
  readonly reductions: { readonly symmetry?: ReductionUse; readonly por?: ReductionUse };
  readonly outcomes: readonly Outcome[];
  readonly always: readonly AlwaysViolation[];
  /** Found only in complete explorations (a cycle needs the whole graph). */
  readonly livelocks: readonly LivelockReport[];
}

// Cost weights: an intervention outweighs any number of switches, a switch any number of steps.
const W_INTERVENTION = 1e12;
const W_SWITCH = 1e6;

/**
 * A node's metadata word: interventions used (4 bits each: IRQs, NMIs, preemptions,
 * migrations), the CPU of the last step + 1 (8 bits), always-invariants broken (8 bits).
 */
const MAX_BUDGET = 15;
const MAX_ALWAYS = 8;
const usedOf = (meta: number, slot: number) => (meta >>> (4 * slot)) & 15;
const lastOf = (meta: number) => ((meta >>> 16) & 255) - 1;
const maskOf = (meta: number) => meta >>> 24;
const interventionsOf = (meta: number) =>
  usedOf(meta, 0) + usedOf(meta, 1) + usedOf(meta, 2) + usedOf(meta, 3);
const pack = (used: readonly number[], last: number, mask: number) =>
  (used[0] as number) |
  ((used[1] as number) << 4) |
  ((used[2] as number) << 8) |
  ((used[3] as number) << 12) |
  ((last + 1) << 16) |
  (mask << 24) |
  0;

/** Explores `sc` with parameters `params` within `bounds`. */
export function explore(
  sc: Scenario,
  params: Params,
  bounds: Bounds,
  options: ExploreOptions = {},
): ExploreResult {
  const started = Date.now();
  const maxStates = Math.min(options.maxStates ?? Infinity, MAX_NODES);
  const maxBytes = (options.maxMemoryMB ?? DEFAULT_MAX_MEMORY_MB) * 1024 * 1024;
  const { machine: m } = sc.build(params);
  const limits = [bounds.irqs, bounds.nmis, bounds.preemptions, bounds.migrations];
  for (const [i, name] of ['irqs', 'nmis', 'preemptions', 'migrations'].entries()) {
    const l = limits[i] as number;
    if (!Number.isInteger(l) || l < 0 || l > MAX_BUDGET)
      throw new RangeError(`Explore allows 0 to ${MAX_BUDGET} ${name}, not ${l}`);
  }
  if (m.cpus > 254) throw new RangeError('Explore handles at most 254 CPUs');
  const always = sc.invariants.filter((i) => i.when === 'always' && i.always);
  if (always.length > MAX_ALWAYS)
    throw new RangeError(`Explore tracks at most ${MAX_ALWAYS} always-invariants`);
  const brokenIn = (s: Int32Array): number => {
    let mask = 0;
    for (let i = 0; i < always.length; i++)
      if ((always[i] as InvariantSpec).always?.(m, s, params) != null) mask |= 1 << i;
    return mask;
  };

  // Tasks that loop forever (adders in a livelock study) would make a retrying sum's retry count
  // grow without end; it saturates at cpus + 1 so the state space stays finite (the
  // retries-bounded verdict, "at most cpus", is still decided exactly).
  const endless = m.code.slice(0, m.tasks).some((code) => code.some((ins) => ins.op === Op.Pause));
  const retryCap = m.cpus + 1;
  const capRetries = (s: Int32Array) => {
    for (let c = 0; c < m.contexts; c++) {
      const at = ctxBase(m, c) + CTX_RETRIES;
      if ((s[at] as number) > retryCap) s[at] = retryCap;
    }
  };

  const start = initialState(m);
  const reductions: { symmetry?: ReductionUse; por?: ReductionUse } = {};
  let symmetry: Symmetry | null = null;
  let por: PrivateSteps | null = null;
  // Livelocks are cycles of the whole graph: reductions would hide them.
  const noReduction = endless ? 'tasks run forever here, and livelocks need the whole graph' : '';
  if (options.symmetry) {
    const found = noReduction || findSymmetry(m, bounds.migrations, start);
    if (typeof found === 'string') reductions.symmetry = { on: false, why: found };
    else {
      symmetry = found;
      reductions.symmetry = { on: true };
    }
  }
  if (options.por) {
    const found =
      noReduction ||
      (Number.isFinite(bounds.switches)
        ? 'a switch bound counts the order of steps, which the reduction changes'
        : privateSteps(sc, m, bounds.migrations));
    if (typeof found === 'string') reductions.por = { on: false, why: found };
    else {
      por = found;
      reductions.por = { on: true };
    }
  }

  const sym = symmetry;
  const nodes = new Visited(m);
  // Where a successor can differ from its parent (not with symmetry: renaming moves every word).
  const prints = sym ? null : footprints(m, nodes.segments);
  const queue = new BucketQueue();
  const cur = new Int32Array(m.size);
  const next = new Int32Array(m.size);
  const tmp = new Int32Array(m.size);
  const curIds = new Int32Array(nodes.width);
  const nextIds = new Int32Array(nodes.width);
  const used = [0, 0, 0, 0];
  const evs: number[] = [];
  const outcomes = new Map<string, Outcome & { mask: number }>();
  const firstBroken = new Map<string, { id: number }>();
  let transitions = 0;
  // Paths a loop bound cut (a typed program's loop reached #pragma lab loop_bound).
  let cut = 0;
  let stopped = null as StopReason | null; // set inside `follow` too
  let depth = 0;
  // Every transition, for livelock detection (a cycle is a property of the whole graph).
  const edges = { n: 0, from: new Int32Array(0), to: new Int32Array(0), ev: new Int32Array(0) };
  const addEdge = (f: number, t: number, e: number) => {
    if (edges.n === edges.from.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(Math.max(4096, a.length * 2));
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
  const bytes = () => nodes.bytes + queue.bytes + edges.from.byteLength * 3;
  let violated = false;

  const costOf = (id: number) =>
    interventionsOf(nodes.meta(id)) * W_INTERVENTION +
    nodes.switches.get(id) * W_SWITCH +
    nodes.steps.get(id);

  // The root.
  cur.set(start);
  let rootLast = -1;
  if (sym) rootLast = sym.canonical(cur, -1, tmp).last;
  nodes.components(cur, curIds);
  const root = nodes.find(curIds, pack(used, rootLast, always.length ? brokenIn(cur) : 0));
  nodes.steps.set(root, 0);
  nodes.switches.set(root, 0);
  nodes.parent.set(root, -1);
  nodes.event.set(root, -1);
  queue.push(root, 0);

  const pathOf = (id: number): number[] => {
    const events: number[] = [];
    for (let n = id; nodes.parent.get(n) !== -1; n = nodes.parent.get(n))
      events.push(nodes.event.get(n));
    return events.reverse();
  };
  // A schedule that reaches node id, as events on the real machine (renamed back from the
  // canonical states with symmetry), and the renaming from its end state to the node's.
  const concrete = (id: number): { events: number[]; g: number } => {
    const path = pathOf(id);
    if (!sym) return { events: path, g: 0 };
    const r = start.slice();
    let g = 0;
    let last = -1;
    const out: number[] = [];
    for (const e of path) {
      const back = sym.inverse(g);
      const type = eventType(e);
      const k = sym.cpu(back, eventCpu(e));
      const ev = makeEvent(type, k, type === Ev.Migrate ? sym.cpu(back, eventTarget(e)) : 0);
      out.push(ev);
      apply(m, r, ev);
      if (type === Ev.Step) last = k;
      tmp.set(r);
      g = sym.canonical(tmp, last, next).g;
    }
    return { events: out, g };
  };
  const witnessOf = (id: number, events: readonly number[]): Witness => ({
    events,
    interventions: interventionsOf(nodes.meta(id)),
    switches: nodes.switches.get(id),
  });
  // Events renamed by g (a CPU map), for the other members of a terminal node's class.
  const renameEvents = (events: readonly number[], map: (k: number) => number) =>
    events.map((e) =>
      makeEvent(
        eventType(e),
        map(eventCpu(e)),
        eventType(e) === Ev.Migrate ? map(eventTarget(e)) : 0,
      ),
    );

  const record = (id: number, s: Int32Array, meta: number, terminal: boolean) => {
    const mask = maskOf(meta);
    const add = (state: Int32Array, events: () => number[]) => {
      const o = observe(sc, m, state, params);
      // Judged per end state (a typed program's final invariants may read the state itself), so
      // end states with the same observables but other verdicts are other outcomes.
      const violations: Violation[] = terminal
        ? finalViolations(sc, o, params, m, state)
        : [stuck(m, state)];
      const key = `${terminal ? 'T' : 'D'}${mask}${violations.map((v) => v.id).join(',')}|${outcomeKey(o)}`;
      const seen = outcomes.get(key);
      if (seen) {
        seen.states++;
        return;
      }
      if (violations[0]?.id === 'loop-bound') cut++;
      if (violations.length > 0 || mask !== 0) violated = true;
      outcomes.set(key, {
        observables: o,
        violations,
        terminal,
        witness: witnessOf(id, events()),
        states: 1,
        mask,
      });
    };
    if (!sym) {
      add(s, () => pathOf(id));
      return;
    }
    // Every member of the class is reachable (the start is the same under each renaming); each
    // distinct one counts as an end state, as in the full exploration.
    const seen: { hash: number; last: number; image: Int32Array }[] = [];
    let path: { events: number[]; g: number } | null = null;
    for (let h = 0; h < sym.perms.length; h++) {
      const image = new Int32Array(m.size);
      sym.image(h, s, image);
      const last = sym.cpu(h, lastOf(meta));
      const hash = hashKey(image);
      if (seen.some((x) => x.hash === hash && x.last === last && statesEqual(x.image, image)))
        continue;
      seen.push({ hash, last, image });
      add(image, () => {
        path ??= concrete(id);
        const p = path;
        const h1 = h;
        return renameEvents(p.events, (k) => sym.cpu(h1, sym.cpu(p.g, k)));
      });
    }
  };

  /**
   * An event that makes the machine fault (a typed program divides by zero, or unlocks a lock
   * it does not hold): an outcome of its own, with the schedule that leads to it, so Explore
   * answers "this program can fault, here is how" instead of stopping.
   */
  const fault = (id: number, ev: number, state: Int32Array, reason: string) => {
    const key = `F|${reason}`;
    const seen = outcomes.get(key);
    if (seen) {
      seen.states++;
      return;
    }
    const c = concrete(id);
    const back = sym ? sym.inverse(c.g) : 0;
    const rename = (k: number) => (sym ? sym.cpu(back, k) : k);
    const type = eventType(ev);
    const last = makeEvent(
      type,
      rename(eventCpu(ev)),
      type === Ev.Migrate ? rename(eventTarget(ev)) : 0,
    );
    violated = true;
    outcomes.set(key, {
      observables: observe(sc, m, state, params),
      violations: [{ id: 'fault', reason }],
      terminal: false,
      witness: witnessOf(id, [...c.events, last]),
      states: 1,
      mask: 0,
    });
  };

  // The node being expanded, shared with `follow` (one closure for the whole run).
  let id = -1;
  let meta = 0;
  let lastCpu = -1;
  let mask = 0;
  let steps = 0;
  let lastCanStep = false;
  // Whether an event of the node being expanded changed the state (set inside `follow`).
  const moved = new Uint8Array(1);

  // Follows event ev from the node being expanded; returns whether it led to a new node.
  const follow = (ev: number): boolean => {
    const slot = budgetSlot(ev);
    if (slot >= 0 && (used[slot] as number) >= (limits[slot] as number)) return false;
    const isStep = eventType(ev) === Ev.Step;
    const switched = isStep && lastCanStep && eventCpu(ev) !== lastCpu;
    const switches = nodes.switches.get(id) + (switched ? 1 : 0);
    if (switches > bounds.switches) return false;
    // One block copy (a memcpy), not a word loop: it runs for every transition.
    next.set(cur);
    try {
      apply(m, next, ev);
    } catch (e) {
      if (!(e instanceof MachineFault)) throw e;
      fault(id, ev, cur, e.message);
      // The state is not stuck: its path ends in the fault, told as an outcome of its own.
      moved[0] = 1;
      return false;
    }
    if (endless) capRetries(next);
    transitions++;
    let last = isStep ? eventCpu(ev) : lastCpu;
    if (sym) last = sym.canonical(next, last, tmp).last;
    if (slot >= 0) used[slot] = (used[slot] as number) + 1;
    const nextMeta = pack(used, last, always.length ? mask | brokenIn(next) : 0);
    if (slot >= 0) used[slot] = (used[slot] as number) - 1;
    if (prints !== null && eventType(ev) !== Ev.Migrate) {
      const k = eventCpu(ev);
      const at = (k * (m.contexts + 1) + topContext(m, cur, k) + 1) * 2 * nodes.segments.length;
      nodes.components(next, nextIds, cur, curIds, prints, at);
    } else nodes.components(next, nextIds, cur, curIds);
    const to = nodes.find(nextIds, nextMeta);
    if (to < 0) {
      stopped = 'max-states';
      return false;
    }
    const fresh = nodes.fresh;
    if (endless) addEdge(id, to, ev);
    if (to !== id && moved[0] === 0 && !statesEqual(next, cur)) moved[0] = 1;
    if (fresh && nodes.count > maxStates) {
      stopped = 'max-states';
      return fresh;
    }
    const toSteps = nodes.steps.get(to);
    const toSwitches = nodes.switches.get(to);
    if (
      nodes.expanded.get(to) === 0 &&
      (toSteps < 0 || switches < toSwitches || (switches === toSwitches && steps + 1 < toSteps))
    ) {
      nodes.steps.set(to, steps + 1);
      nodes.switches.set(to, switches);
      nodes.parent.set(to, id);
      nodes.event.set(to, ev);
      queue.push(to, costOf(to));
    }
    return fresh;
  };

  let expanded = 0;
  while (queue.size > 0) {
    id = queue.pop();
    if (nodes.expanded.get(id) === 1 || queue.lastCost > costOf(id)) continue;
    if (options.simplest && violated) {
      stopped = 'simplest';
      break;
    }
    nodes.expanded.set(id, 1);
    if (++expanded % 4096 === 0) {
      const b = bytes();
      if (b > maxBytes) {
        stopped = 'max-memory';
        break;
      }
      const p = { states: nodes.count, transitions, depth, bytes: b, ms: Date.now() - started };
      if (options.progress?.(p) === true) {
        stopped = 'cancelled';
        break;
      }
    }
    nodes.decode(id, cur, curIds);
    meta = nodes.meta(id);
    for (let i = 0; i < 4; i++) used[i] = usedOf(meta, i);
    lastCpu = lastOf(meta);
    mask = maskOf(meta);
    steps = nodes.steps.get(id);
    if (steps > depth) depth = steps;

    if (mask !== 0) {
      violated = true;
      for (let i = 0; i < always.length; i++) {
        const inv = always[i] as InvariantSpec;
        if (
          (mask & (1 << i)) !== 0 &&
          !firstBroken.has(inv.id) &&
          inv.always?.(m, cur, params) != null
        )
          firstBroken.set(inv.id, { id });
      }
    }
    if (isTerminal(m, cur)) {
      record(id, cur, meta, true);
      continue;
    }

    const n = enabledEvents(m, cur, evs);
    // Could the previous step's CPU still step? Then stepping another CPU is a switch.
    lastCanStep = false;
    for (let i = 0; i < n; i++) {
      const ev = evs[i] as number;
      if (eventType(ev) === Ev.Step && eventCpu(ev) === lastCpu) lastCanStep = true;
    }
    moved[0] = 0;
    // A private step alone, unless it leads back to a node already met (the cycle proviso).
    const alone = por ? por.pick(cur, used, limits) : -1;
    if (alone < 0 || !follow(makeEvent(Ev.Step, alone))) {
      for (let i = 0; i < n && stopped === null; i++) follow(evs[i] as number);
    }
    if (stopped !== null) break;
    if (moved[0] === 0) record(id, cur, meta, false);
  }

  if (options.simplest && violated && stopped === null) stopped = 'simplest';
  // A loop bound cut some paths: what was found is real, but more may lie beyond the bound.
  if (stopped === null && cut > 0) stopped = 'loop-bound';
  const complete = stopped === null;
  const livelocks: LivelockReport[] = [];
  if (complete && endless) {
    const graph: Graph = {
      nodes: nodes.count,
      edges: edges.n,
      from: edges.from,
      to: edges.to,
      ev: edges.ev,
      stateOf: (id, into) => {
        nodes.decode(id, into, curIds);
      },
    };
    const byCost = (a: number, b: number) => costOf(a) - costOf(b) || a - b;
    for (const l of findLivelocks(m, graph, byCost)) {
      livelocks.push({ witness: witnessOf(l.entry, pathOf(l.entry)), cycle: l.cycle });
    }
  }

  // Always-invariants: the first state that broke each, and where each outcome's path broke it.
  const alwaysOut: AlwaysViolation[] = [];
  for (const [invId, { id }] of firstBroken) {
    const { events } = concrete(id);
    const inv = always.find((i) => i.id === invId) as InvariantSpec;
    const s = replayTo(m, start, events, endless ? capRetries : null);
    alwaysOut.push({
      id: invId,
      reason: inv.always?.(m, s, params) ?? '',
      witness: witnessOf(id, events),
    });
  }
  const outList: Outcome[] = [];
  for (const { mask, ...o } of outcomes.values()) {
    if (mask === 0) {
      outList.push(o);
      continue;
    }
    const broken = always.filter((_, i) => (mask & (1 << i)) !== 0);
    const found = whereBroken(
      m,
      params,
      start,
      o.witness.events,
      broken,
      endless ? capRetries : null,
    );
    outList.push({ ...o, violations: [...o.violations, ...found] });
  }

  return {
    complete,
    stopped,
    stats: { states: nodes.count, transitions, ms: Date.now() - started, depth, bytes: bytes() },
    reductions,
    outcomes: outList,
    always: alwaysOut,
    livelocks,
  };
}

/** Why a state that is not finished can go no further: a deadlock, or a loop bound reached. */
function stuck(m: Machine, s: Int32Array): Violation {
  for (let c = 0; c < m.contexts; c++) {
    const ins = m.code[c]?.[s[ctxBase(m, c) + CTX_PC] as number];
    if (ins?.op === Op.Halt && (m.ctxKind[c] !== 0 || s[ctxBase(m, c) + CTX_DONE] === 0)) {
      return {
        id: 'loop-bound',
        reason: `${contextName(m, c)} stopped at the bound of the loop on line ${ins.line}: raise #pragma lab loop_bound to see further`,
      };
    }
  }
  return { id: 'deadlock', reason: 'no CPU can make progress' };
}

function replayTo(
  m: Machine,
  start: Int32Array,
  events: readonly number[],
  cap: ((s: Int32Array) => void) | null,
): Int32Array {
  const s = start.slice();
  for (const ev of events) {
    apply(m, s, ev);
    cap?.(s);
  }
  return s;
}

/** Where along `events` each invariant of `broken` first fails, and why. */
function whereBroken(
  m: Machine,
  params: Params,
  start: Int32Array,
  events: readonly number[],
  broken: readonly InvariantSpec[],
  cap: ((s: Int32Array) => void) | null,
): PathViolation[] {
  const found: PathViolation[] = [];
  const s = start.slice();
  const check = (step: number) => {
    for (const inv of broken) {
      if (found.some((f) => f.id === inv.id)) continue;
      const reason = inv.always?.(m, s, params);
      if (reason != null) found.push({ id: inv.id, reason, step });
    }
  };
  check(0);
  events.forEach((ev, i) => {
    apply(m, s, ev);
    cap?.(s);
    check(i + 1);
  });
  return found;
}
