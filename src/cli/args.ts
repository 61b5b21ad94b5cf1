// Shared option parsing for the commands: scenario lookup, --set, --preset, --json.

import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CompiledProgram } from '../lang/compiled.ts';
import { formatError, LineMap, printable } from '../lang/source.ts';
import { findScenario, catalogue, openProgram } from '../scenarios/index.ts';
import { ParamError, resolveParams, splitAssignment } from '../scenarios/params.ts';
import { MEMORY_PARAM } from '../scenarios/textScenario.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { UsageError } from './errors.ts';
import { didYouMean } from './suggest.ts';
import { messageOf } from '../machine/errors.ts';
import { shownName } from '../scenarios/program.ts';

/**
 * A command's arguments through node:util parseArgs, strictly (an unknown option is an error),
 * with its errors (unknown option, missing value) turned into usage errors of one line.
 */
export function parseCommand<const O extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: O,
  /** `positionals`: how many arguments the command takes besides its options (or any). */
  { positionals = true }: { positionals?: boolean | number } = {},
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      allowPositionals: positionals !== false,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(usageMessage(e, Object.keys(options), argv));
  }
  // An argument past those the command takes was silently dropped: say so, as for an option.
  if (typeof positionals === 'number' && parsed.positionals.length > positionals) {
    const extra = parsed.positionals[positionals] ?? '';
    throw new UsageError(`unexpected argument '${printable(extra)}'`);
  }
  return parsed;
}

/** node:util's parse errors in the lab's words, one line each, with the option they are about. */
function usageMessage(e: unknown, names: readonly string[], argv: readonly string[]): string {
  const message = messageOf(e);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    const typed = (unknown[1] ?? '').replace(/^-+/, '');
    const hint = didYouMean(typed, names).replace(/mean (\S+)\?/, 'mean --$1?');
    return `unknown option ${unknown[1] ?? ''}${hint}; \`lab --help\` lists the options`;
  }
  const ambiguous = /^Option '(--[^' ]+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const o = ambiguous[1] ?? '';
    // The example is the value the user typed: `--irq-rate -5` is told `--irq-rate=-5`.
    const typed = argv[argv.indexOf(o) + 1];
    const value = typed?.startsWith('-') ? typed : '-1';
    return `${o} needs a value; a value that starts with '-' goes after '=': ${o}=${value}`;
  }
  const missing = /^Option '(--[^' ]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1] ?? ''} needs a value`;
  const flag = /^Option '(--[^' ]+)' does not take an argument/.exec(message);
  if (flag) return `${flag[1] ?? ''} is a switch and takes no value`;
  // One line, like every other usage error.
  return message.replace(/\s*\n\s*/g, ' ');
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

/** A typed program from a file, as a scenario (see openProgramArg). */
export function programArg(path: string): {
  scenario: Scenario;
  source: string;
  compiled: CompiledProgram;
} {
  const source = readProgram(path);
  return { ...openProgramArg(path, source), source };
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
      `unknown scenario '${id}'${didYouMean(
        id,
        catalogue.map((s) => s.id),
      )}; one of: ${catalogue.map((s) => s.id).join(', ')} (or a program file: prog.c, test.litmus)`,
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

/** The memory model a parameter set answers under, as every answer names it: sc, tso or lkmm. */
export function modelOf(params: Params): string {
  return String(params.memory ?? 'sc');
}

/** Whether the user named a model (--memory, or --set memory=…) rather than taking the default. */
export function memoryChosen(memory: string | undefined, sets: readonly string[] = []): boolean {
  return memory !== undefined || sets.some((s) => /^\s*memory\s*=/.test(s));
}

/** What each command that steps a machine does, and how to run it on one. */
const MACHINE_COMMANDS = {
  replay: [
    'lab replay follows a schedule on a machine',
    'add --memory sc (or --memory tso) to replay it',
  ],
  random: [
    'lab random runs random schedules on a machine',
    'add --memory sc (or --memory tso) to run it',
  ],
  promela: [
    'lab export --format promela writes a machine for SPIN to step',
    'add --memory sc to export it under sc',
  ],
} as const;

/**
 * Refuses memory lkmm for a command that steps a machine (replay, random, export's promela):
 * lkmm judges whole executions and has no steps. Names the way out, and says when lkmm was not
 * asked for but is the file's own default (a herd7 litmus file answers under lkmm), rather than
 * running it under sc without a word.
 */
export function refuseLkmm(
  sc: Scenario,
  params: Params,
  chosen: boolean,
  command: keyof typeof MACHINE_COMMANDS,
): void {
  if (params.memory !== 'lkmm') return;
  const [does, fix] = MACHINE_COMMANDS[command];
  const model = chosen
    ? "memory lkmm, the kernel's memory model, judges whole executions and has no steps"
    : `${shownName(sc)} answers under lkmm, the kernel's memory model (a herd7 litmus file's default), which judges whole executions and has no steps`;
  throw new UsageError(`${model}, and ${does}: ${fix}; lab explore gives lkmm's answer`);
}

/** An integer option from `min` (0 unless given) to `max`. */
export function intOption(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
  min = 0,
): number {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text) || Number(text) > max || Number(text) < min) {
    throw new UsageError(`--${name} takes an integer from ${min} to ${max}, got '${text}'`);
  }
  return Number(text);
}
