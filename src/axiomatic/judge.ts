// The program's invariants under the kernel's memory model, which judges whole executions: an
// execution has an end state but no sequence of states between. So a final invariant is judged
// on each consistent execution's end state, as under sc; an `always` invariant that reads only
// what sums and reads returned (their records keep every value) is judged there too, since the
// records hold every value it would have seen; and the others are not judged, each named with
// the reason, never dropped without a word:
// - one that reads the exact total at a sum's two ends (`sum-within-window`): the model has no
//   moment at which the total could be taken (a RecordTotal records nothing under it);
// - one that reads memory at every state (`slot-below-batch`): the model has no states between.

import type { Machine } from '../machine/machine.ts';
import { finalViolations, type Violation } from '../scenarios/outcome.ts';
import type { Observables, Params, Scenario } from '../scenarios/types.ts';

/** An invariant the model leaves unjudged, and why. */
export interface NotJudged {
  readonly id: string;
  readonly why: string;
}

/** Invariants that read the exact total at a moment, recorded by RecordTotal. */
const AT_A_MOMENT = new Set(['sum-within-window']);

/** The invariants a scenario has that the model does not judge, each with its reason. */
export function notJudgedUnderLkmm(sc: Scenario): NotJudged[] {
  const out: NotJudged[] = [];
  for (const inv of sc.invariants) {
    if (inv.when !== 'always') continue;
    if (AT_A_MOMENT.has(inv.id))
      out.push({
        id: inv.id,
        why: 'it compares a sum with the exact total when the sum started and returned, and the kernel’s memory model has no moments: judged under sc and tso',
      });
    else if (inv.reads !== 'results')
      out.push({
        id: inv.id,
        why: 'it judges every state a run passes through, and the kernel’s memory model judges whole executions, which have no states between: judged under sc and tso',
      });
  }
  return out;
}

/**
 * The invariants an end state of a consistent execution breaks: the final ones, and the
 * `always` ones that read only the records (what sums and reads returned).
 */
export function lkmmViolations(
  sc: Scenario,
  o: Observables,
  p: Params,
  m: Machine,
  s: Int32Array,
): Violation[] {
  const out = finalViolations(sc, o, p, m, s);
  for (const inv of sc.invariants) {
    if (inv.when !== 'always' || inv.reads !== 'results' || AT_A_MOMENT.has(inv.id)) continue;
    const reason = inv.always?.(m, s, p) ?? null;
    if (reason !== null) out.push({ id: inv.id, reason });
  }
  return out;
}
