// One program file answered as `lab check` answers it: herd7's answer under the file's memory
// model (src/explore/check.ts holds which engine answers and how it counts), or why there is none,
// in the command line's words. Apart from the command (commands/check.ts) so that the threads that
// check many files (checkThread.ts) load it without the command that starts them.

import { type Checked, checkProgram, type Unanswered } from '../../explore/check.ts';
import { openProgramArg, paramsArg, readProgram } from '../programFile.ts';
import { UsageError } from '../errors.ts';

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

/** The INCOMPLETE line of an answer whose search stopped early, or null. */
export function incompleteLine(complete: boolean, stopped: string | null): string | null {
  return complete ? null : `INCOMPLETE: ${stopped ?? 'stopped'}: more end states may exist`;
}
