// The answer of an exploration, put together from what its shards found: each outcome with the
// first witness in the search's order (the same whichever shard found it), the states that gave
// it summed, the always-invariants with where they first broke, and the figures.

import { apply, Ev, eventCpu, eventTarget, eventType, makeEvent } from '../machine/events.ts';
import type { InvariantSpec } from '../scenarios/types.ts';
import type {
  AlwaysViolation,
  ExploreResult,
  LivelockReport,
  Outcome,
  PathViolation,
  SearchFigures,
  Witness,
} from './result.ts';
import { capRetries, type SearchSetup } from './setup.ts';
import type { ShardBroken, ShardOutcome, StopReason } from './shard.ts';

/** What one shard reports at the end of a run: what it found, and its part of the figures. */
export interface ShardReport extends SearchFigures {
  readonly outcomes: readonly ShardOutcome[];
  readonly broken: readonly ShardBroken[];
}

/** The run's figures from its shards': states, transitions and bytes add up; depth is the most. */
export function totalFigures(parts: readonly SearchFigures[]): SearchFigures {
  return {
    states: parts.reduce((n, r) => n + r.states, 0),
    transitions: parts.reduce((n, r) => n + r.transitions, 0),
    depth: parts.reduce((d, r) => Math.max(d, r.depth), 0),
    bytes: parts.reduce((n, r) => n + r.bytes, 0),
  };
}

/** The cheapest path's parent (a node ref, −1 at the root) and event of every node. */
export interface PathIndex {
  parentOf(ref: number): number;
  eventOf(ref: number): number;
}

export interface RunFacts {
  /** Why the run stopped early, or null when it covered everything within the bounds. */
  readonly stopped: StopReason | null;
  readonly ms: number;
  /** Found only in complete explorations with endless tasks (one shard). */
  readonly livelocks: readonly LivelockReport[];
}

const before = (a: ShardOutcome, b: ShardOutcome) => a.order - b.order || a.image - b.image;

/** The events from the start to node `ref`, as the search stored them. */
export function pathOf(paths: PathIndex, ref: number): number[] {
  const events: number[] = [];
  for (let n = ref; paths.parentOf(n) !== -1; n = paths.parentOf(n)) events.push(paths.eventOf(n));
  return events.reverse();
}

export function assemble(
  setup: SearchSetup,
  reports: readonly ShardReport[],
  paths: PathIndex,
  run: RunFacts,
): ExploreResult {
  const { m, start, symmetry: sym, endless, always, params } = setup;
  const cap = endless
    ? (s: Int32Array) => {
        capRetries(m, s);
      }
    : null;
  const tmp = new Int32Array(m.size);
  const next = new Int32Array(m.size);

  // A schedule that reaches node ref, as events on the real machine (renamed back from the
  // canonical states with symmetry), and the renaming from its end state to the node's.
  const concrete = (ref: number): { events: number[]; g: number } => {
    const path = pathOf(paths, ref);
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
  // Events renamed by a CPU map, for the other members of a terminal node's class.
  const renameEvents = (events: readonly number[], map: (k: number) => number) =>
    events.map((e) =>
      makeEvent(
        eventType(e),
        map(eventCpu(e)),
        eventType(e) === Ev.Migrate ? map(eventTarget(e)) : 0,
      ),
    );
  const witnessEvents = (o: ShardOutcome): number[] => {
    const c = concrete(o.node);
    if (o.event >= 0) {
      // A fault: the path to the node, then the event that faulted, renamed to the real CPUs.
      const back = sym ? sym.inverse(c.g) : 0;
      const rename = (k: number) => (sym ? sym.cpu(back, k) : k);
      const type = eventType(o.event);
      const last = makeEvent(
        type,
        rename(eventCpu(o.event)),
        type === Ev.Migrate ? rename(eventTarget(o.event)) : 0,
      );
      return [...c.events, last];
    }
    if (!sym) return c.events;
    return renameEvents(c.events, (k) => sym.cpu(o.image, sym.cpu(c.g, k)));
  };
  const witnessOf = (
    o: { interventions: number; switches: number },
    events: readonly number[],
  ): Witness => ({ events, interventions: o.interventions, switches: o.switches });

  // One outcome per key: the first found in the search's order stands for all.
  const merged = new Map<string, ShardOutcome>();
  for (const r of reports) {
    for (const o of r.outcomes) {
      const seen = merged.get(o.key);
      if (!seen) merged.set(o.key, { ...o });
      else {
        const states = seen.states + o.states;
        const first = before(o, seen) < 0 ? o : seen;
        merged.set(o.key, { ...first, states });
      }
    }
  }
  const found = [...merged.values()].sort(before);
  // A loop bound cut some paths: what was found is real, but more may lie beyond the bound.
  const cut = found.some((o) => o.violations[0]?.id === 'loop-bound');
  const stopped = run.stopped ?? (cut ? 'loop-bound' : null);

  const outcomes: Outcome[] = found.map((o) => {
    const events = witnessEvents(o);
    const base: Outcome = {
      observables: o.observables,
      violations: o.violations,
      terminal: o.terminal,
      witness: witnessOf(o, events),
      states: o.states,
    };
    if (o.mask === 0) return base;
    const broken = always.filter((_, i) => (o.mask & (1 << i)) !== 0);
    const where = whereBroken(setup, events, broken, cap);
    return { ...base, violations: [...o.violations, ...where] };
  });

  // Always-invariants: the first state that broke each, in the search's order.
  const firstBroken = new Map<string, ShardBroken>();
  for (const r of reports) {
    for (const b of r.broken) {
      const seen = firstBroken.get(b.id);
      if (!seen || b.order < seen.order) firstBroken.set(b.id, b);
    }
  }
  const alwaysOut: AlwaysViolation[] = [...firstBroken.values()]
    .sort((a, b) => a.order - b.order)
    .map((b) => {
      const { events } = concrete(b.node);
      const inv = always.find((i) => i.id === b.id) as InvariantSpec;
      const s = replayTo(setup, events, cap);
      return { id: b.id, reason: inv.always?.(m, s, params) ?? '', witness: witnessOf(b, events) };
    });

  return {
    complete: stopped === null,
    stopped,
    stats: { ...totalFigures(reports), ms: run.ms },
    reductions: setup.reductions,
    outcomes,
    always: alwaysOut,
    livelocks: run.livelocks,
  };
}

function replayTo(
  setup: SearchSetup,
  events: readonly number[],
  cap: ((s: Int32Array) => void) | null,
): Int32Array {
  const s = setup.start.slice();
  for (const ev of events) {
    apply(setup.m, s, ev);
    cap?.(s);
  }
  return s;
}

/** Where along `events` each invariant of `broken` first fails, and why. */
function whereBroken(
  setup: SearchSetup,
  events: readonly number[],
  broken: readonly InvariantSpec[],
  cap: ((s: Int32Array) => void) | null,
): PathViolation[] {
  const { m, params } = setup;
  const found: PathViolation[] = [];
  const s = setup.start.slice();
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
