// The scenario catalogue, every entry at once. Ids are stable: they appear in URLs, the CLI and
// tests. The list of entries is entries.ts; Step mode loads them one at a time (load.ts).

import { allScenarios } from './allScenarios.ts';
import { loadedScenario, openProgram, openProgramText, registerScenarios } from './load.ts';
import type { MemoryModel } from '../machine/machine.ts';
import { ParamError } from './params.ts';
import { PROGRAM_ID } from './program.ts';
import type { Scenario } from './types.ts';

export type { Scenario } from './types.ts';

/** What a picker or a list needs to show of a scenario. */
export type ScenarioSummary = Pick<
  Scenario,
  'id' | 'title' | 'group' | 'source' | 'summary' | 'reconstruction'
>;

/** Every scenario, in the catalogue's order (entries.ts), loaded with this module. */
export const catalogue: readonly Scenario[] = allScenarios;

// Found at once by the modules that load entries one at a time (load.ts), once this module has.
registerScenarios(catalogue);

export { openProgram, openProgramText };

/** The scenario with this id (`program`: the open typed program), or undefined. */
export function findScenario(id: string): Scenario | undefined {
  if (id === PROGRAM_ID) return loadedScenario(id);
  return catalogue.find((s) => s.id === id);
}

/** The scenario with this id; throws, naming it, when there is none. */
export function scenarioNamed(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(`unknown scenario '${id}'`);
  return sc;
}

/**
 * How another thread is told which scenario to open: its id, and for a typed program its text
 * (a worker has no program open until it is handed one).
 */
export interface ScenarioRequest {
  readonly scenario: string;
  /** A typed program's text, for scenario `program`: the worker opens it first. */
  readonly program?: string;
}

/** The request for scenario `id` as this thread has it open. */
export function scenarioRequest(id: string): ScenarioRequest {
  const text = id === PROGRAM_ID ? openProgramText() : null;
  return text === null ? { scenario: id } : { scenario: id, program: text };
}

/**
 * The scenario a request names, as a worker opens it: a typed program is compiled first, for
 * `memory` when the worker knows the model it runs under. Throws ParamError, with the reason,
 * for a program that does not compile or a scenario there is none of.
 */
export function openRequest(req: ScenarioRequest, memory?: MemoryModel | 'lkmm'): Scenario {
  if (req.program !== undefined && !openProgram(req.program, memory).ok)
    throw new ParamError('the program does not compile');
  const sc = findScenario(req.scenario);
  if (!sc) throw new ParamError(`unknown scenario '${req.scenario}'`);
  return sc;
}
