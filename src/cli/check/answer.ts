// One file of `lab check`'s many, answered into the text it prints: herd7's lines (with the lab's
// Model line, and INCOMPLETE when the search stopped early), or one JSON line. What has no answer
// comes back as its reason, so that a run over a folder goes on past it. Shared by the command's
// own thread and the threads that check a large set (checkThread.ts).

import { statSync } from 'node:fs';
import { MachineFault } from '../../machine/interpreter.ts';
import { messageOf } from '../../machine/errors.ts';
import { ParamError } from '../../scenarios/params.ts';
import { checkFile, type CheckOptions, incompleteLine } from './file.ts';
import { UsageError } from '../errors.ts';

/** How every file of one command is answered: the command's options, the same for each. */
export interface ManyOptions extends CheckOptions {
  readonly json: boolean;
}

/** A file's answer as printed, or why it has none. */
export type FileAnswer =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** A JSON value on one line; 64-bit values beyond 2^53 − 1 as decimal strings, as toJson does. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * Answers `path` as `lab check` answers one file; the text without its final newline. Bad input
 * (a file that cannot be read or compiled, a condition the model cannot answer) and a program's
 * own fault become a reason; anything else is a bug, and is thrown.
 */
export function answerFile(path: string, options: ManyOptions): FileAnswer {
  // A folder among the files is one that held none (many.ts's filesOf put the others' in its place).
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    return { ok: false, reason: `${path} holds no .litmus file` };
  }
  try {
    const { answer, complete, stopped } = checkFile(path, options);
    if (options.json) {
      return {
        ok: true,
        text: jsonLine({ file: path, ...answer, complete, stopped, text: undefined }),
      };
    }
    const incomplete = incompleteLine(complete, stopped);
    return { ok: true, text: incomplete ? `${answer.text}\n${incomplete}` : answer.text };
  } catch (e) {
    if (e instanceof UsageError || e instanceof ParamError) return { ok: false, reason: e.message };
    if (e instanceof MachineFault)
      return { ok: false, reason: `the machine stopped: ${messageOf(e)}` };
    throw e;
  }
}
