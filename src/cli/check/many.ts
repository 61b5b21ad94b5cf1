// `lab check A.litmus B.litmus DIR …`: many files answered as herd7 answers them, one after
// another in the order given (a folder: its .litmus files, sorted by name), each in herd7's words
// and followed by the blank line herd7 prints after every answer (with --json, one JSON line a
// file). A file with no answer is named with its reason on stderr and the run goes on; the exit
// status says whether any was refused. A large set is answered on every idle core (pool.ts).

import { readdirSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { Reply } from '../../machine/errors.ts';
import type { LabOutput } from '../output.ts';
import { type FileAnswer, jsonLine, type ManyOptions } from './answer.ts';
import { THREADS_FROM } from './limits.ts';
import { answerTogether } from './pool.ts';

/** Whether `arg` names a folder. */
export function isFolder(arg: string): boolean {
  return statSync(arg, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * The files `args` name, in order: a file as given (one that cannot be read is refused when it
 * is checked), a folder as its `*.litmus` files sorted by name (not its subfolders'), as a
 * shell's `DIR/*.litmus` gives them to herd7. A folder with none stays, to be refused in its place.
 */
export function filesOf(args: readonly string[]): string[] {
  return args.flatMap((arg) => {
    if (!isFolder(arg)) return [arg];
    const names = readdirSync(arg, { withFileTypes: true })
      .filter((d) => d.name.endsWith('.litmus') && !d.isDirectory())
      .map((d) => d.name)
      .sort();
    if (names.length === 0) return [arg];
    const dir = arg.endsWith('/') ? arg : `${arg}/`;
    return names.map((n) => `${dir}${n}`);
  });
}

/** What `lab check` prints on stderr for a file with no answer. */
function refusal(path: string, reason: string, json: boolean): string {
  if (json) return `${jsonLine({ file: path, error: { message: reason, position: null } })}\n`;
  // Most reasons name the file already ("cannot read X", "X: the kernel's memory model …").
  return reason.includes(path) ? `lab: ${reason}\n` : `lab: ${path}: ${reason}\n`;
}

/**
 * Answers every file of `files` with `options`, writing each answer (or refusal) to `out` in
 * order as soon as it and those before it are done, by `threads` checkers (1: this thread alone).
 * Resolves to the exit status: 0 when every file was answered, 1 when any was not.
 */
export async function checkMany(
  files: readonly string[],
  options: ManyOptions,
  threads: number,
  out: LabOutput,
): Promise<number> {
  let refused = 0;
  const print = (index: number, reply: Reply<FileAnswer>) => {
    const path = files[index] as string;
    const answer: FileAnswer = reply.ok
      ? reply.result
      : { ok: false, reason: `the check failed (a bug in the lab): ${reply.message}` };
    if (answer.ok) {
      out.stdout(`${answer.text}\n${options.json ? '' : '\n'}`);
    } else {
      refused += 1;
      out.stderr(refusal(path, answer.reason, options.json));
    }
  };
  await answerTogether(files, options, threads, print);
  return refused === 0 ? 0 : 1;
}

/**
 * How many checkers answer `files` files when `--workers` does not say: for a large set, one for
 * each core the machine's load (the last minute's average of running processes) leaves idle, at
 * least this thread. A thread on a core another process keeps busy only slows both: on 2 shared
 * cores at a load of 10, herdtools7's 79 Linux-kernel litmus tests took 1.4 times as long on
 * 2 checkers as on 1, and a fifth more CPU (each thread warms the engine up anew).
 */
export function defaultThreads(
  files: number,
  cores = availableParallelism(),
  load = loadavg()[0] ?? 0,
): number {
  if (files < THREADS_FROM) return 1;
  return Math.max(1, Math.min(cores, Math.ceil(cores - load)));
}
