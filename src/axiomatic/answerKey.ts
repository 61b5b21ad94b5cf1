// What two answers of memory lkmm must share to be the same answer, as one string: each end
// state with how many consistent executions reach it (in a fixed order, since the engines reach
// them in different orders), the executions in all, the flags and whether a loop was cut. The
// example execution kept for each state, the candidates visited and the time are the engine's
// own. The differential test and the engines' benchmark compare answers with it.

import type { AxiomaticResult } from './check.ts';

export function answerKey(r: AxiomaticResult): string {
  const states = r.states.map((s) => `${Array.from(s.state).join(',')}×${s.executions}`).sort();
  return JSON.stringify({
    states,
    executions: r.executions,
    flags: r.flags,
    loopCut: r.loopCut,
  });
}
