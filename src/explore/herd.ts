// The explorer's answer for a program with a final condition, in herd7's words (src/lang/herdAnswer.ts).
// The explorer reaches end states; herd7 counts executions. Where the axiomatic engine judges the
// program under the same model (src/axiomatic/models.ts) and reaches exactly the explorer's end
// states, its executions are the counts; else each end state counts once, and the Model line says
// so. `lab check` and the page's Explore panel both answer through herdOfExploration, so they
// print the same counts for one program.

import { AxiomaticRefusal, type AxiomaticResult, checkUnder } from '../axiomatic/check.ts';
import { herdOf, type HerdShown } from '../axiomatic/herd.ts';
import { countableUnder } from '../axiomatic/models.ts';
import type { CompiledProgram } from '../lang/compiled.ts';
import { type EndState, herdAnswer, type HerdAnswer, herdLine } from '../lang/herdAnswer.ts';
import { apply } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import { ParamError } from '../scenarios/params.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { ExploreResult } from './explore.ts';

/** The end state an explorer witness leads to. */
function endState(m: Machine, events: readonly number[]): Int32Array {
  const s = initialState(m);
  for (const ev of events) apply(m, s, ev);
  return s;
}

/** The end states of an exploration, one count each. */
export function exploredEnds(machine: Machine, r: ExploreResult): EndState[] {
  return r.outcomes
    .filter((o) => o.terminal)
    .map((o) => ({ state: endState(machine, o.witness.events), count: 1 }));
}

/** The explorer's own answer, each end state counted once; null when the program has no condition. */
export function statesAnswer(
  p: CompiledProgram,
  machine: Machine,
  r: ExploreResult,
  shown: HerdShown = {},
): HerdAnswer | null {
  return herdAnswer(p, exploredEnds(machine, r), 'states', {
    model: machine.tso ? 'tso' : 'sc',
    ...shown,
  });
}

/**
 * herd7's answer for an exploration `r` of `sc` at `params` (sc or tso): the consistent
 * executions counted where the axiomatic engine can count them, else the end states; null when
 * the scenario has no program or its program no condition.
 */
export function herdOfExploration(
  sc: Scenario,
  params: Params,
  r: ExploreResult,
  shown: HerdShown = {},
): HerdAnswer | null {
  const program = sc.program?.(params);
  if (!program) return null;
  const { machine } = sc.build(params);
  const states = statesAnswer(program, machine, r, shown);
  // Counts are whole only when the search was: a cut search may have missed end states.
  if (!states || !r.complete) return states;
  const counted = executionsUnder(machine.tso ? 'tso' : 'sc', sc, params, states.states);
  return counted ? herdOf(counted.program, counted.result, shown) : states;
}

/**
 * The consistent executions of a scenario's program under sc or tso, judged axiomatically, when
 * they reach exactly `states` (the explorer's, as herd7 prints them); null where the engine
 * cannot take the program (see countableUnder; interrupts, several threads on a CPU…).
 */
function executionsUnder(
  model: 'sc' | 'tso',
  sc: Scenario,
  params: Params,
  states: readonly string[],
): { program: CompiledProgram; result: AxiomaticResult } | null {
  let program: CompiledProgram | undefined;
  try {
    // Compiled as the engine reads programs (its events, not the machine's grace periods).
    program = sc.program?.({ ...params, memory: 'lkmm' });
  } catch (e) {
    if (e instanceof ParamError) return null;
    throw e;
  }
  if (!program || !countableUnder(model, program)) return null;
  let result: AxiomaticResult;
  try {
    result = checkUnder(model, program);
  } catch (e) {
    if (e instanceof AxiomaticRefusal) return null;
    throw e;
  }
  const lines = new Set(result.states.map((s) => herdLine(program, s.state).line));
  if (lines.size !== states.length || !states.every((s) => lines.has(s))) return null;
  return { program, result };
}
