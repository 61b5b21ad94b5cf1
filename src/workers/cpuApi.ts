// What a CPU worker exposes: one call that runs one CPU job (src/live/job.ts) until the run
// stops. The call returns only then: the worker is busy for the whole run, so everything else
// (stop, rates, IRQs) goes through the shared memory, never through a message.

import { type CpuJob, runJob } from '../live/job.ts';
import { type CpuFault, faultyClock } from './faults.ts';

export const cpuApi = {
  /** `fault` is only ever given by the end-to-end tests (faults.ts). */
  run(job: CpuJob, fault?: CpuFault): void {
    runJob(job, faultyClock(fault));
  },
};

export type CpuApi = typeof cpuApi;
