// Checking a program under a memory model: herd7's answer for a program with a final condition
// (the states, Ok or No, the witnesses, `Observation <name> Never|Sometimes|Always`). The one home
// of the policy, so every front end answers alike: the kernel's model (memory lkmm) is answered
// by the axiomatic engine (src/axiomatic); sc and tso by the explorer, with no bound on context
// switches, its end states recounted as executions where the axiomatic engine can
// (src/explore/herd.ts). `lab check` prints it (src/cli/commands/check.ts).

import { AxiomaticRefusal, type AxiomaticResult, checkLkmm } from '../axiomatic/check.ts';
import { herdOf, type HerdShown } from '../axiomatic/herd.ts';
import type { HerdAnswer } from '../lang/herdAnswer.ts';
import { herdHash } from '../lang/herdHash.ts';
import { isLitmusText } from '../lang/litmusText.ts';
import { isAxiomatic } from '../scenarios/textScenario.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { explore } from './explore.ts';
import { herdOfExploration } from './herd.ts';
import { DEFAULT_MAX_MEMORY_MB } from './limits.ts';

/** herd7's answer, and whether the search behind it was whole. */
export interface Checked {
  readonly ok: true;
  readonly answer: HerdAnswer;
  /** False when the explorer stopped early (memory): more end states may exist. */
  readonly complete: boolean;
  /** Why it stopped, when it did. */
  readonly stopped: string | null;
}

/** Why a program has no answer; a front end words it (with the file's name, its own options). */
export type Unanswered =
  | { readonly ok: false; readonly why: 'not-a-program' }
  | { readonly ok: false; readonly why: 'no-condition' }
  /** The axiomatic engine cannot take the program under lkmm: its reason. */
  | { readonly ok: false; readonly why: 'refused'; readonly reason: string };

export interface CheckOptions {
  /** The explorer's memory limit (sc, tso). */
  readonly maxMemoryMB?: number;
}

/** herd7's Hash= line for a herd7 litmus file, which herd7 prints for it; nothing otherwise. */
function hashOf(sc: Scenario, params: Params): HerdShown {
  const text = sc.text?.(params);
  const hash = text !== undefined && isLitmusText(text) ? herdHash(text) : null;
  return hash === null ? {} : { hash };
}

/**
 * Answers a scenario's final condition at `params`, whose memory parameter names the model, as
 * herd7 answers it, with herd7's Time and Hash lines.
 */
export function checkProgram(
  sc: Scenario,
  params: Params,
  options: CheckOptions = {},
): Checked | Unanswered {
  const program = sc.program?.(params);
  if (!program) return { ok: false, why: 'not-a-program' };
  if (!program.clauses.condition) return { ok: false, why: 'no-condition' };
  if (isAxiomatic(params)) {
    let r: AxiomaticResult;
    try {
      r = checkLkmm(program);
    } catch (e) {
      if (e instanceof AxiomaticRefusal) return { ok: false, why: 'refused', reason: e.message };
      throw e;
    }
    const answer = herdOf(program, r, { seconds: r.ms / 1000, ...hashOf(sc, params) });
    return { ok: true, answer: answer as HerdAnswer, complete: true, stopped: null };
  }
  const r = explore(
    sc,
    params,
    { ...sc.bounds, switches: Infinity },
    { maxMemoryMB: options.maxMemoryMB ?? DEFAULT_MAX_MEMORY_MB },
  );
  const shown = { seconds: r.stats.ms / 1000, ...hashOf(sc, params) };
  const answer = herdOfExploration(sc, params, r, shown);
  return { ok: true, answer: answer as HerdAnswer, complete: r.complete, stopped: r.stopped };
}
