// A thread of `lab check` over a large set of files: once loaded, asks for a file; answers each
// file it is sent with the command's options (its workerData) and replies with the answer's text or why there is none (or,
// for a bug, what was thrown), so that the command prints them in order as they come.

import { parentPort, workerData } from 'node:worker_threads';
import { replyOf } from '../../machine/errors.ts';
import { answerFile, type ManyOptions } from './answer.ts';
import type { FileJob, FileReply } from './pool.ts';

const options = workerData as ManyOptions;

parentPort?.on('message', ({ index, path }: FileJob) => {
  const reply: FileReply = { index, reply: replyOf(() => answerFile(path, options)) };
  parentPort?.postMessage(reply);
});

// Loaded: ask for a first file (until now the command's thread has checked the ones in hand).
parentPort?.postMessage(null);
