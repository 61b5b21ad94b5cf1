// Shared option parsing for the commands: scenario lookup, --set, --preset, --json.

import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CompiledProgram } from '../lang/compile.ts';
import { formatError, LineMap } from '../lang/source.ts';
import { findScenario, catalogue, openProgram } from '../scenarios/index.ts';
import { ParamError, resolveParams, splitAssignment } from '../scenarios/params.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { UsageError } from './errors.ts';

/**
 * A command's arguments through node:util parseArgs, strictly (an unknown option is an error),
 * with its errors (unknown option, missing value) turned into usage errors of one line.
 */
export function parseCommand<const O extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: O,
  { positionals = true }: { positionals?: boolean } = {},
) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: positionals, strict: true });
  } catch (e) {
    // One line, like every other usage error (Node's "ambiguous argument" message has three).
    const message = e instanceof Error ? e.message : String(e);
    throw new UsageError(message.replace(/\s*\n\s*/g, ' '));
  }
}

/** Options every scenario command takes. */
export const scenarioOptions = {
  set: { type: 'string', multiple: true },
  preset: { type: 'string' },
  /** `--memory tso`: the same as `--set memory=tso`. */
  memory: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Whether a command-line argument names a program file rather than a scenario id. */
export function isProgramPath(arg: string): boolean {
  return /[/\\]|\.(c|litmus|lab)$/.test(arg) || (existsSync(arg) && !findScenario(arg));
}

/**
 * A typed program from a file, as a scenario; its compile errors as one usage error, each as a
 * compiler prints it (`file:line:col: message`, the line, a caret).
 */
export function programArg(path: string): {
  scenario: Scenario;
  source: string;
  compiled: CompiledProgram;
} {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Opened, so the live CPUs on worker threads are handed the same program.
  const r = openProgram(source);
  if (!r.ok) {
    const map = new LineMap(source);
    throw new UsageError(r.errors.map((e) => formatError(map, e, path)).join('\n'));
  }
  return { scenario: r.scenario, source, compiled: r.compiled };
}

/** The scenario named by an id or a program file, or a UsageError listing the ids. */
export function scenarioArg(id: string | undefined): Scenario {
  if (id === undefined) {
    throw new UsageError(
      `missing scenario id or program file; one of: ${catalogue.map((s) => s.id).join(', ')}`,
    );
  }
  if (isProgramPath(id)) return programArg(id).scenario;
  const sc = findScenario(id);
  if (!sc) {
    throw new UsageError(
      `unknown scenario '${id}'; one of: ${catalogue.map((s) => s.id).join(', ')} (or a program file: prog.c, test.litmus)`,
    );
  }
  return sc;
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

/** A non-negative integer option. */
export function intOption(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new UsageError(`--${name} takes an integer from 0 to ${max}, got '${text}'`);
  }
  return Number(text);
}
