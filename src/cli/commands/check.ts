// `lab check <file>`: a program with a final condition, answered as herd7 answers it under a
// memory model it names (src/explore/check.ts holds which engine answers and how it counts). A
// herd7 litmus file (`C name` first) answers under the kernel's own model, lkmm, unless --memory
// says sc or tso: the program's own default (src/scenarios/program.ts), as in every command. This file reads the arguments, words what has no answer, and prints.

import { type Checked, checkProgram, type Unanswered } from '../../explore/check.ts';
import { DEFAULT_MAX_MEMORY_MB } from '../../explore/limits.ts';
import { intOption, openProgramArg, paramsArg, parseCommand, readProgram } from '../args.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';

/** What `lab check` answers for a program: herd7's answer, and whether the search was whole. */
export type CheckAnswer = Omit<Checked, 'ok'>;

export interface CheckOptions {
  readonly memory?: string;
  readonly set?: readonly string[];
  readonly maxMemoryMB?: number;
}

/** Why a file has no answer, in the command line's words. */
function unanswered(path: string, u: Unanswered): string {
  switch (u.why) {
    case 'not-a-program':
      return `${path} is not a program`;
    case 'no-condition':
      return `${path} has no final condition: add one, as \`exists (0:r0=0 /\\ 1:r0=0)\` (or use lab explore)`;
    case 'refused':
      return `${path}: the kernel's memory model (lkmm) cannot answer this program: ${u.reason}. Try --memory sc or --memory tso.`;
  }
}

/**
 * Answers a program file's condition under `memory` (by default the program's own, as every
 * command takes it: lkmm for a herd7 litmus file, sc for the lab's own programs); throws
 * UsageError with the reason when it cannot.
 */
export function checkFile(path: string, options: CheckOptions = {}): CheckAnswer {
  const source = readProgram(path);
  const { scenario: sc } = openProgramArg(path, source, options.memory);
  const params = paramsArg(sc, options.set, undefined, options.memory);
  const r = checkProgram(sc, params, {
    ...(options.maxMemoryMB === undefined ? {} : { maxMemoryMB: options.maxMemoryMB }),
  });
  if (!r.ok) throw new UsageError(unanswered(path, r));
  return { answer: r.answer, complete: r.complete, stopped: r.stopped };
}

export function checkCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(
    argv,
    {
      set: { type: 'string', multiple: true },
      memory: { type: 'string' },
      json: { type: 'boolean' },
      'max-memory': { type: 'string' },
    },
    { positionals: 1 },
  );
  const path = positionals[0];
  if (path === undefined) throw new UsageError('missing program file: lab check test.litmus');
  const { answer, complete, stopped } = checkFile(path, {
    ...(values.memory === undefined ? {} : { memory: values.memory }),
    ...(values.set === undefined ? {} : { set: values.set }),
    maxMemoryMB: intOption('max-memory', values['max-memory'], DEFAULT_MAX_MEMORY_MB, 65_536),
  });
  const incomplete = complete
    ? null
    : `INCOMPLETE: ${stopped ?? 'stopped'}: more end states may exist`;
  if (values.json) return toJson({ ...answer, complete, stopped, text: undefined });
  return incomplete ? `${answer.text}\n${incomplete}` : answer.text;
}
