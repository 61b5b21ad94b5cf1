// `lab check <file>…`: a program with a final condition, answered as herd7 answers it under a
// memory model it names (src/explore/check.ts holds which engine answers and how it counts). A
// herd7 litmus file (`C name` first) answers under the kernel's own model, lkmm, unless --memory
// says sc or tso: the program's own default (src/scenarios/program.ts), as in every command. This
// file reads the arguments and prints; check/file.ts answers a file, check/many.ts many.

import { DEFAULT_MAX_MEMORY_MB } from '../../explore/limits.ts';
import { MEMORY_PARAM } from '../../scenarios/textScenario.ts';
import { printable } from '../../lang/source.ts';
import { intOption, parseCommand } from '../options.ts';
import { checkFile, incompleteLine } from '../check/file.ts';
import { MAX_CHECK_THREADS } from '../check/limits.ts';
import { checkMany, defaultThreads, filesOf, isFolder } from '../check/many.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';
import type { LabOutput, Outcome } from '../output.ts';

export { type CheckAnswer, checkFile, type CheckOptions } from '../check/file.ts';

/** `lab check`'s options, read. */
function parseCheck(argv: readonly string[]) {
  const { values, positionals } = parseCommand(argv, {
    set: { type: 'string', multiple: true },
    memory: { type: 'string' },
    json: { type: 'boolean' },
    'max-memory': { type: 'string' },
    workers: { type: 'string' },
  });
  const options = {
    ...(values.memory === undefined ? {} : { memory: values.memory }),
    ...(values.set === undefined ? {} : { set: values.set }),
    maxMemoryMB: intOption('max-memory', values['max-memory'], DEFAULT_MAX_MEMORY_MB, 65_536),
  };
  const workers =
    values.workers === undefined
      ? undefined
      : intOption('workers', values.workers, 1, MAX_CHECK_THREADS, 1);
  return { positionals, options, json: values.json ?? false, workers };
}

/** `lab check FILE`: one file's answer as its text; a usage error when it has none. */
export function checkCommand(argv: readonly string[]): string {
  const { positionals, options, json } = parseCheck(argv);
  const path = positionals[0];
  if (path === undefined) throw new UsageError('missing program file: lab check test.litmus');
  if (positionals.length > 1) {
    throw new UsageError(`unexpected argument '${printable(positionals[1] ?? '')}'`);
  }
  const { answer, complete, stopped } = checkFile(path, options);
  const incomplete = incompleteLine(complete, stopped);
  if (json) return toJson({ ...answer, complete, stopped, text: undefined });
  return incomplete ? `${answer.text}\n${incomplete}` : answer.text;
}

/**
 * `lab check FILE…`, as the command line runs it: one file as checkCommand answers it (its text,
 * exit 0, or a usage error, exit 2); many files, or a folder, answered one after another on `out`
 * as they are done (check/many.ts), resolving to the exit status (0, or 1 when any was refused).
 */
export function checkFilesCommand(
  argv: readonly string[],
  out: LabOutput,
): Outcome | Promise<Outcome> {
  const { positionals, options, json, workers } = parseCheck(argv);
  const first = positionals[0];
  if (positionals.length <= 1 && (first === undefined || !isFolder(first))) {
    return checkCommand(argv);
  }
  // The same bad option for every file is said once, before any is checked.
  const memory = options.memory;
  if (memory !== undefined && !MEMORY_PARAM.choices.includes(memory)) {
    throw new UsageError(
      `memory must be one of ${MEMORY_PARAM.choices.join(', ')}; got '${memory}'`,
    );
  }
  const files = filesOf(positionals);
  const threads = workers ?? defaultThreads(files.length);
  return checkMany(files, { ...options, json }, threads, out).then((status) => ({ status }));
}
