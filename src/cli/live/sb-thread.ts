// One thread of the SB litmus test on a Node worker thread: the same API object the browser's
// worker exposes (src/live/litmus/sb.ts), called through messages (sb-threads.ts).

import { parentPort } from 'node:worker_threads';
import { type SbRunRequest, type SbSetup, sbWorkerApi } from '../../live/litmus/sb.ts';

export type SbCall =
  | { readonly id: number; readonly method: 'prepare'; readonly arg: SbSetup }
  | { readonly id: number; readonly method: 'run'; readonly arg: SbRunRequest };

export type SbReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string };

const api = sbWorkerApi(() => performance.now());
const port = parentPort;
if (!port) throw new Error('sb-thread.ts runs on a worker thread');

port.on('message', (call: SbCall) => {
  let reply: SbReply;
  try {
    if (call.method === 'prepare') {
      api.prepare(call.arg);
      reply = { id: call.id, ok: true, value: undefined };
    } else reply = { id: call.id, ok: true, value: api.run(call.arg) };
  } catch (e) {
    reply = { id: call.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
