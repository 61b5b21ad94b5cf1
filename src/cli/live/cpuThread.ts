// A live CPU on a Node worker thread: the same job the browser's CPU workers run, for `lab live`,
// `lab bench` and the tests that race real threads on real shared memory. It replies once, when
// its CPU has finished or failed (src/machine/errors.ts).

import { parentPort, workerData } from 'node:worker_threads';
import { type CpuJob, runJob } from '../../live/job.ts';
import { replyOf } from '../../machine/errors.ts';

parentPort?.postMessage(
  replyOf(() => {
    runJob(workerData as CpuJob, { now: () => performance.now() });
  }),
);
