// Judging a run the one way Explore, the witnesses, Step mode's badges, `lab replay` and the
// challenges all judge it: always-invariants at every state on the way (each reported at the
// first state that breaks it), final ones once every task and handler has finished.

import { memo } from '../machine/memo.ts';
import { isTerminal } from '../machine/events.ts';
import type { Machine } from '../machine/machine.ts';
import { alwaysViolations, finalViolations, observe, type Violation } from './outcome.ts';
import type { Observables, Params, Scenario } from './types.ts';

/** An invariant a run broke; always-invariants say at which state (events applied, 0: start). */
export interface RunViolation extends Violation {
  readonly step?: number;
}

/**
 * A violation and the moment it belongs to, the one wording of the UI and the CLI: an
 * always-invariant "broken at event N" (N counts events from 1: `at=N` in a Step link shows that
 * state, and it is the Nth line of `lab replay`), a final one "at the end".
 */
export function violationMoment(v: { readonly id: string; readonly step?: number }): string {
  return v.step === undefined ? `${v.id} (at the end)` : `${v.id} (broken at event ${v.step})`;
}

/**
 * A violation with what the invariant judged, for a list of outcomes: the observables alone can
 * read as two equal numbers failing ("count=4 exact=4"); the reason names the value judged
 * ("no-lost-update (at the end): count + Σ pcp = 6, but the exact total is 4: …").
 */
export function violationWithReason(v: {
  readonly id: string;
  readonly step?: number;
  readonly reason: string;
}): string {
  return v.reason === '' ? violationMoment(v) : `${violationMoment(v)}: ${v.reason}`;
}

export interface RunJudgement {
  /** Whether the last state is terminal (every task and handler done, no IRQ pending). */
  readonly terminal: boolean;
  /** The observables of the last state. */
  readonly observables: Observables;
  /** Always-invariants first, in the order they broke; then the final ones, when terminal. */
  readonly violations: readonly RunViolation[];
}

// Each state's always-verdicts, judged once per parameter set: Step mode judges the whole
// history again at every key press, which would otherwise re-check every earlier state.
const cache = new WeakMap<Params, WeakMap<Int32Array, readonly Violation[]>>();

const newStateCache = () => new WeakMap<Int32Array, readonly Violation[]>();

function alwaysOf(sc: Scenario, m: Machine, s: Int32Array, p: Params): readonly Violation[] {
  const byState = memo(cache, p, newStateCache);
  return memo(byState, s, () => alwaysViolations(sc, m, s, p));
}

/** Judges the run given as its states (states[0] the start, states[i] after i events). */
export function judgeRun(
  sc: Scenario,
  m: Machine,
  states: readonly Int32Array[],
  p: Params,
): RunJudgement {
  const last = states[states.length - 1];
  if (!last) throw new RangeError('a run has at least its initial state');
  const violations: RunViolation[] = [];
  const seen = new Set<string>();
  states.forEach((s, step) => {
    for (const v of alwaysOf(sc, m, s, p)) {
      if (seen.has(v.id)) continue;
      seen.add(v.id);
      violations.push({ ...v, step });
    }
  });
  const terminal = isTerminal(m, last);
  const observables = observe(sc, m, last, p);
  if (terminal) violations.push(...finalViolations(sc, observables, p, m, last));
  return { terminal, observables, violations };
}

/** The ids of the invariants a judgement found broken, sorted. */
export function brokenIds(j: RunJudgement): string[] {
  return [...new Set(j.violations.map((v) => v.id))].sort();
}
