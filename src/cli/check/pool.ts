// Files of one `lab check` answered on several threads (checkThread.ts), for a set large enough
// that the threads' start (a tenth of a second each, loading the engine) is repaid. Each thread
// takes the next file when it finishes one, so a slow file holds up one thread, not a share of
// the set; the answers are handed on in the order of the files, each as soon as those before it
// are.

import { Worker } from 'node:worker_threads';
import type { Reply } from '../../machine/errors.ts';
import type { FileAnswer, ManyOptions } from './answer.ts';

// Beside this file: the tsx bootstrap in the sources, the bundled thread in the bundle.
const entry = new URL('./checkThread.mjs', import.meta.url);

/** A file sent to a thread. */
export interface FileJob {
  readonly index: number;
  readonly path: string;
}

/** A thread's reply: the answer (or reason) for file `index`, or what its check threw. */
export interface FileReply {
  readonly index: number;
  readonly reply: Reply<FileAnswer>;
}

/**
 * Answers `paths` on `threads` threads, calling `each` with every file's reply in the order of
 * `paths`; resolves when the last has been handed on. A thread that dies (out of memory) rejects.
 */
export function answerOnThreads(
  paths: readonly string[],
  options: ManyOptions,
  threads: number,
  each: (index: number, reply: Reply<FileAnswer>) => void,
): Promise<void> {
  const replies = new Map<number, Reply<FileAnswer>>();
  let sent = 0;
  let handed = 0;
  const workers: Worker[] = [];
  return new Promise<void>((resolve, reject) => {
    const finish = (error?: Error) => {
      for (const w of workers) void w.terminate();
      if (error) reject(error);
      else resolve();
    };
    const send = (w: Worker) => {
      if (sent < paths.length) {
        const job: FileJob = { index: sent, path: paths[sent] as string };
        sent += 1;
        w.postMessage(job);
      }
    };
    for (let t = 0; t < Math.min(threads, paths.length); t++) {
      const w = new Worker(entry, { workerData: options, name: `check thread ${t}` });
      workers.push(w);
      w.on('message', ({ index, reply }: FileReply) => {
        send(w);
        replies.set(index, reply);
        for (let r = replies.get(handed); r !== undefined; r = replies.get(handed)) {
          replies.delete(handed);
          each(handed, r);
          handed += 1;
        }
        if (handed === paths.length) finish();
      });
      w.once('error', (e) => {
        finish(new Error(`a check thread crashed: ${e.message}`));
      });
      send(w);
    }
    if (paths.length === 0) finish();
  });
}
