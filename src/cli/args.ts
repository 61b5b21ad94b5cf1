// Shared option parsing for the commands: scenario lookup, --set, --preset, --json. Reading
// options (options.ts) and program files (programFile.ts) are apart, and exported here too.

import { existsSync } from 'node:fs';
import type { CompiledProgram } from '../lang/compiled.ts';
import { findScenario, catalogue } from '../scenarios/index.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { UsageError } from './errors.ts';
import { didYouMean } from './suggest.ts';
import { shownName } from '../scenarios/program.ts';
import { readProgram, openProgramArg } from './programFile.ts';

export { intOption, parseCommand } from './options.ts';
export { openProgramArg, paramsArg, readProgram } from './programFile.ts';

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
