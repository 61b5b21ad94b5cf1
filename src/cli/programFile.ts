// A program file read, opened as a scenario and given its parameters, with what goes wrong in
// the lab's words: apart from args.ts (which looks scenarios up in the catalogue) so that `lab
// check` and its threads answer a file without loading the catalogue.

import { readFileSync } from 'node:fs';
import type { CompiledProgram } from '../lang/compiled.ts';
import { formatError, LineMap } from '../lang/source.ts';
import { messageOf } from '../machine/errors.ts';
import { openProgram } from '../scenarios/load.ts';
import { ParamError, resolveParams, splitAssignment } from '../scenarios/params.ts';
import { MEMORY_PARAM } from '../scenarios/textScenario.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { UsageError } from './errors.ts';

/** A program file's text; a usage error when it cannot be read. */
export function readProgram(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${messageOf(e)}`);
  }
}

/**
 * A typed program's text (read from `path`), opened as a scenario, compiled first under
 * `memory` when it names a model (the one it runs under: a file is compiled once per model);
 * its compile errors as one usage error, each as a compiler prints it (`file:line:col:
 * message`, the line, a caret).
 */
export function openProgramArg(
  path: string,
  source: string,
  memory?: string,
): { scenario: Scenario; compiled: CompiledProgram } {
  // A model --memory does not name is refused by paramsArg, with the models it takes.
  const model = MEMORY_PARAM.choices.includes(memory ?? '') ? (memory as 'sc') : undefined;
  // Opened, so the live CPUs on worker threads are handed the same program.
  const r = openProgram(source, model);
  if (!r.ok) {
    const map = new LineMap(source);
    throw new UsageError(r.errors.map((e) => formatError(map, e, path)).join('\n'));
  }
  return { scenario: r.scenario, compiled: r.compiled };
}

/** Parameters from --preset, repeated --set name=value and --memory. */
export function paramsArg(
  sc: Scenario,
  sets: readonly string[] = [],
  preset?: string,
  memory?: string,
): Params {
  try {
    const overrides: Record<string, string> = {};
    for (const s of sets) {
      const [name, value] = splitAssignment(s);
      overrides[name] = value;
    }
    if (memory !== undefined) overrides.memory = memory;
    return resolveParams(sc, overrides, preset);
  } catch (e) {
    if (e instanceof ParamError) throw new UsageError(e.message);
    throw e;
  }
}
