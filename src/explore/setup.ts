// What every part of one exploration derives from its inputs, the same in every shard and in the
// process that assembles the answer: the machine, the start, the budgets, the invariants judged
// on the way, and the reductions asked for (with why one could not run). Deterministic, so two
// threads that build it from the same request agree on every number.

import { type Budget } from '../machine/budget.ts';
import { initialState } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import { ctxBase, CTX_RETRIES, type Machine } from '../machine/machine.ts';
import type { InvariantSpec, Params, Scenario } from '../scenarios/types.ts';
import { privateSteps, type PrivateSteps } from './por.ts';
import { findSymmetry, type Symmetry } from './symmetry.ts';

/** The interventions a path may make, and its switches. */
export interface Bounds extends Budget {
  /** Most switches on a path; Infinity for no bound. */
  readonly switches: number;
}

/** What one thread remembers of events by components: see ExploreOptions.caches. */
export type Caches = 'on' | 'off' | 'check';

/** Whether a reduction asked for ran, and if not, why. */
export interface ReductionUse {
  readonly on: boolean;
  readonly why?: string;
}

/** The most interventions of one kind a node's metadata word can count. */
export const MAX_BUDGET = 15;
/** The most always-invariants a node's metadata word can track. */
export const MAX_ALWAYS = 8;

export interface SearchSetup {
  readonly sc: Scenario;
  readonly params: Params;
  readonly bounds: Bounds;
  readonly m: Machine;
  readonly start: Int32Array;
  /** Interventions allowed per kind: IRQs, NMIs, preemptions, migrations, hotplug events. */
  readonly limits: readonly number[];
  /** Invariants judged at every state on the way. */
  readonly always: readonly InvariantSpec[];
  /** Tasks loop for ever (a livelock study): retries saturate, and livelocks are looked for. */
  readonly endless: boolean;
  readonly symmetry: Symmetry | null;
  readonly por: PrivateSteps | null;
  readonly reductions: { symmetry?: ReductionUse; por?: ReductionUse };
  /** Whether one thread remembers events by components (see ExploreOptions.caches). */
  readonly caches: Caches;
}

/** Checks the bounds and builds what the search needs; throws RangeError on bad bounds. */
export function searchSetup(
  sc: Scenario,
  params: Params,
  bounds: Bounds,
  options: { readonly symmetry?: boolean; readonly por?: boolean; readonly caches?: Caches },
): SearchSetup {
  const { machine: m } = sc.build(params);
  const limits = [
    bounds.irqs,
    bounds.nmis,
    bounds.preemptions,
    bounds.migrations,
    bounds.hotplugs ?? 0,
  ];
  for (const [i, name] of ['irqs', 'nmis', 'preemptions', 'migrations', 'hotplugs'].entries()) {
    const l = limits[i] as number;
    if (!Number.isInteger(l) || l < 0 || l > MAX_BUDGET)
      throw new RangeError(`Explore allows 0 to ${MAX_BUDGET} ${name}, not ${l}`);
  }
  if (m.cpus > 254) throw new RangeError('Explore handles at most 254 CPUs');
  const always = sc.invariants.filter((i) => i.when === 'always' && i.always);
  if (always.length > MAX_ALWAYS)
    throw new RangeError(`Explore tracks at most ${MAX_ALWAYS} always-invariants`);

  const endless = m.code.slice(0, m.tasks).some((code) => code.some((ins) => ins.op === Op.Pause));
  const start = initialState(m);
  const reductions: { symmetry?: ReductionUse; por?: ReductionUse } = {};
  let symmetry: Symmetry | null = null;
  let por: PrivateSteps | null = null;
  // Livelocks are cycles of the whole graph: reductions would hide them.
  const noReduction = endless
    ? 'tasks run forever here, and livelocks need the whole graph'
    : m.hotplug !== null && (bounds.hotplugs ?? 0) > 0
      ? 'CPUs go offline here: which CPUs run, and which a walk reads, change with the masks'
      : '';
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
  const caches = options.caches ?? 'on';
  return {
    sc,
    params,
    bounds,
    m,
    start,
    limits,
    always,
    endless,
    symmetry,
    por,
    reductions,
    caches,
  };
}

/** The always-invariants state s breaks, as a mask over `setup.always`. */
export function brokenIn(setup: SearchSetup, s: Int32Array): number {
  const { always, m, params } = setup;
  let mask = 0;
  for (let i = 0; i < always.length; i++)
    if ((always[i] as InvariantSpec).always?.(m, s, params) != null) mask |= 1 << i;
  return mask;
}

/**
 * Tasks that loop forever (adders in a livelock study) would make a retrying sum's retry count
 * grow without end; it saturates at cpus + 1 so the state space stays finite (the
 * retries-bounded verdict, "at most cpus", is still decided exactly).
 */
export function capRetries(m: Machine, s: Int32Array): void {
  const cap = m.cpus + 1;
  for (let c = 0; c < m.contexts; c++) {
    const at = ctxBase(m, c) + CTX_RETRIES;
    if ((s[at] as number) > cap) s[at] = cap;
  }
}
