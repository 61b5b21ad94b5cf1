// A live CPU on a Node worker thread: the same loop the browser's CPU workers run, for `lab live`
// and the tests that race real threads on a real SharedArrayBuffer.

import { parentPort, workerData } from 'node:worker_threads';
import { callChecks } from '../../live/calls.ts';
import { runCpu } from '../../live/cpu.ts';
import { runLockstep } from '../../live/lockstep.ts';
import { mapLive } from '../../live/memory.ts';
import { findScenario } from '../../scenarios/index.ts';
import type { Params } from '../../scenarios/types.ts';

interface Job {
  readonly buffer: SharedArrayBuffer;
  readonly id: string;
  readonly params: Params;
  readonly cpu: number;
  readonly mode: 'free' | 'lockstep';
}

const job = workerData as Job;
const sc = findScenario(job.id);
if (!sc) throw new Error(`unknown scenario ${job.id}`);
const m = sc.build(job.params, { padded: true }).machine;
const mem = mapLive(job.buffer, m);
try {
  if (job.mode === 'free') {
    runCpu(mem, m, job.cpu, { now: () => performance.now() }, callChecks(sc, m, job.params));
  } else runLockstep(mem, m, job.cpu);
  parentPort?.postMessage({ ok: true });
} catch (e) {
  parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}
