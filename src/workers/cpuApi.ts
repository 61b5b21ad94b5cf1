// What a CPU worker exposes: one call that maps the run's shared memory, rebuilds the machine
// from the scenario id and parameters (the same deterministic build as the page's), and runs one
// CPU until the run stops. The call returns only then: the worker is busy for the whole run, so
// everything else (stop, rates, IRQs) goes through the shared memory, never through a message.

import { callChecks } from '../live/calls.ts';
import { runCpu } from '../live/cpu.ts';
import { runLockstep } from '../live/lockstep.ts';
import { mapLive } from '../live/memory.ts';
import { findScenario } from '../scenarios/index.ts';
import type { Params } from '../scenarios/types.ts';

export interface CpuJob {
  readonly buffer: SharedArrayBuffer;
  readonly scenario: string;
  readonly params: Params;
  readonly cpu: number;
  /** free: run at full speed; lockstep: apply the events the page hands this CPU. */
  readonly mode: 'free' | 'lockstep';
}

export const cpuApi = {
  run(job: CpuJob): void {
    const sc = findScenario(job.scenario);
    if (!sc) throw new Error(`unknown scenario ${job.scenario}`);
    const m = sc.build(job.params, { padded: true }).machine;
    const mem = mapLive(job.buffer, m);
    const checks = callChecks(sc, m, job.params);
    if (job.mode === 'free') runCpu(mem, m, job.cpu, { now: () => performance.now() }, checks);
    else runLockstep(mem, m, job.cpu);
  },
};

export type CpuApi = typeof cpuApi;
