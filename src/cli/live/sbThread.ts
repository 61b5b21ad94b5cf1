// One thread of the SB litmus test on a Node worker thread: the same API object the browser's
// worker exposes (src/live/litmus/sb.ts), called through messages (sbThreads.ts).

import { parentPort } from 'node:worker_threads';
import { type SbRunRequest, type SbSetup, sbWorkerApi } from '../../live/litmus/sb.ts';
import { type Reply, replyOf } from '../../machine/errors.ts';

export type SbCall =
  | { readonly id: number; readonly method: 'prepare'; readonly arg: SbSetup }
  | { readonly id: number; readonly method: 'run'; readonly arg: SbRunRequest };

/** A reply to call `id` (src/machine/errors.ts). */
export type SbReply = Reply<unknown> & { readonly id: number };

const api = sbWorkerApi(() => performance.now());
const port = parentPort;
if (!port) throw new Error('sbThread.ts runs on a worker thread');

port.on('message', (call: SbCall) => {
  const reply = replyOf((): unknown => {
    if (call.method === 'prepare') api.prepare(call.arg);
    else return api.run(call.arg);
  });
  port.postMessage({ ...reply, id: call.id } satisfies SbReply);
});
