// The axiomatic engine's answer in herd7's words (src/lang/herdAnswer.ts): every consistent
// execution counted, as herd7 counts them, with the model's flags and whether a loop was cut.
// The one place an engine's result becomes herd7's answer, so `lab check`, `lab explore`, the
// page's lkmm answer and the explorer's recount (src/explore/herd.ts) print alike.

import type { CompiledProgram } from '../lang/compiled.ts';
import { herdAnswer, type HerdAnswer } from '../lang/herdAnswer.ts';
import type { AxiomaticResult } from './check.ts';

/** What an answer shows beside the counts: herd7's Time line, and its Hash for a litmus file. */
export interface HerdShown {
  readonly seconds?: number;
  readonly hash?: string;
}

/** herd7's answer for `result` (the engine's on `program`), or null when it has no condition. */
export function herdOf(
  program: CompiledProgram,
  result: AxiomaticResult,
  shown: HerdShown = {},
): HerdAnswer | null {
  return herdAnswer(
    program,
    result.states.map((s) => ({ state: s.state, count: s.executions })),
    'executions',
    { model: result.model, flags: result.flags, loop: result.loopCut, ...shown },
  );
}
