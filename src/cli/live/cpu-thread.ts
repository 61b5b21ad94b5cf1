// A live CPU on a Node worker thread: the same job the browser's CPU workers run, for `lab live`,
// `lab bench` and the tests that race real threads on real shared memory.

import { parentPort, workerData } from 'node:worker_threads';
import { type CpuJob, runJob } from '../../live/run.ts';

try {
  runJob(workerData as CpuJob, { now: () => performance.now() });
  parentPort?.postMessage({ ok: true });
} catch (e) {
  parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}
