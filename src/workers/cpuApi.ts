// What a CPU worker exposes: one call that runs one CPU job (src/live/run.ts) until the run
// stops. The call returns only then: the worker is busy for the whole run, so everything else
// (stop, rates, IRQs) goes through the shared memory, never through a message.

import { type CpuJob, runJob } from '../live/run.ts';

export const cpuApi = {
  run(job: CpuJob): void {
    runJob(job, { now: () => performance.now() });
  },
};

export type CpuApi = typeof cpuApi;
