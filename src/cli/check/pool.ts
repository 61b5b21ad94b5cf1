// Files of one `lab check` answered by several checkers: this thread and, for a set large enough
// that a thread's start (loading and warming up the engine, a tenth of a second of CPU) is
// repaid, threads beside it (checkThread.ts). Each checker takes the next file when it finishes
// one, so a slow file holds up one checker, not a share of the set; the answers are handed on in
// the order of the files, each as soon as those before it are. This thread checks too, between
// taking the threads' replies: on two cores, one thread started instead of two.

import { setImmediate } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { replyOf, type Reply } from '../../machine/errors.ts';
import { answerFile, type FileAnswer, type ManyOptions } from './answer.ts';

// Beside this file: the tsx bootstrap in the sources, the bundled thread in the bundle.
const entry = new URL('./checkThread.mjs', import.meta.url);

/** A file sent to a thread. */
export interface FileJob {
  readonly index: number;
  readonly path: string;
}

/**
 * A thread's reply: the answer (or reason) for file `index`, or what its check threw. (A thread
 * that has loaded says so with null, to be sent its first file.)
 */
export interface FileReply {
  readonly index: number;
  readonly reply: Reply<FileAnswer>;
}

/**
 * Answers `paths` with `checkers` checkers (this thread and `checkers - 1` threads), calling
 * `each` with every file's reply in the order of `paths`; resolves when the last has been handed
 * on. A thread that dies (out of memory) rejects.
 */
export async function answerTogether(
  paths: readonly string[],
  options: ManyOptions,
  checkers: number,
  each: (index: number, reply: Reply<FileAnswer>) => void,
): Promise<void> {
  const replies = new Map<number, Reply<FileAnswer>>();
  let taken = 0;
  let handed = 0;
  let failure: Error | undefined;
  let wake = () => {};
  const take = (): number | undefined => (taken < paths.length ? taken++ : undefined);
  const record = (index: number, reply: Reply<FileAnswer>) => {
    replies.set(index, reply);
    for (let r = replies.get(handed); r !== undefined; r = replies.get(handed)) {
      replies.delete(handed);
      each(handed, r);
      handed += 1;
    }
    if (handed === paths.length) wake();
  };
  const send = (w: Worker) => {
    const index = take();
    if (index === undefined) return;
    const job: FileJob = { index, path: paths[index] as string };
    w.postMessage(job);
  };
  const threads = Math.max(0, Math.min(checkers, paths.length) - 1);
  const workers = Array.from({ length: threads }, (_, t) => {
    const w = new Worker(entry, { workerData: options, name: `check thread ${t + 1}` });
    // null: the thread has loaded, and asks for its first file.
    w.on('message', (message: FileReply | null) => {
      send(w);
      if (message !== null) record(message.index, message.reply);
    });
    w.once('error', (e) => {
      failure = new Error(`a check thread crashed: ${e.message}`);
      wake();
    });
    return w;
  });
  try {
    for (let index = take(); index !== undefined && !failure; index = take()) {
      record(
        index,
        replyOf(() => answerFile(paths[index] as string, options)),
      );
      // The threads' replies come in here, and are handed on in order.
      if (threads > 0) await setImmediate();
    }
    if (handed < paths.length && !failure) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    for (const w of workers) void w.terminate();
  }
  if (failure) throw failure;
}
