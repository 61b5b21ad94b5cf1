// The SB litmus test's threads as Node worker threads (`bench/sb.ts` and test/live/sb.test.ts):
// each a SpawnedSbThread for the runner in src/live/litmus/sb.ts.

import { Worker } from 'node:worker_threads';
import type { SbRunRequest, SbSetup, SbSideResult, SpawnedSbThread } from '../../live/litmus/sb.ts';
import type { SbCall, SbReply } from './sbThread.ts';

// A .mjs bootstrap registers tsx inside the thread (see threads.ts).
const entry = new URL('./sbThread.mjs', import.meta.url);

/** Starts one thread of the test. */
export function nodeSbThread(role: 0 | 1): SpawnedSbThread {
  const worker = new Worker(entry, { name: `SB thread ${role}` });
  let next = 0;
  const waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  const failAll = (e: Error) => {
    for (const w of waiting.values()) w.fail(e);
    waiting.clear();
  };
  worker.on('message', (r: SbReply) => {
    const w = waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (r.ok) w.ok(r.result);
    else w.fail(new Error(`SB thread ${role}: ${r.message}`));
  });
  worker.on('error', (e) => {
    failAll(new Error(`SB thread ${role} crashed: ${e.message}`));
  });
  worker.on('exit', (code) => {
    failAll(new Error(`SB thread ${role} exited (code ${code})`));
  });
  const call = <T>(c: Omit<SbCall, 'id'>): Promise<T> =>
    new Promise<T>((ok, fail) => {
      const id = next++;
      waiting.set(id, { ok: ok as (v: unknown) => void, fail });
      worker.postMessage({ ...c, id });
    });
  return {
    prepare: (setup: SbSetup) => call<undefined>({ method: 'prepare', arg: setup }),
    run: (req: SbRunRequest) => call<SbSideResult>({ method: 'run', arg: req }),
    terminate: () => void worker.terminate(),
  };
}
