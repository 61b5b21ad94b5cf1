// A live CPU on a Node worker thread: the same loop the browser's CPU workers run, so the Node
// tests race real threads on a real SharedArrayBuffer.

import { parentPort, workerData } from 'node:worker_threads';
import { runCpu } from '../../src/live/cpu.ts';
import { runLockstep } from '../../src/live/lockstep.ts';
import { mapLive } from '../../src/live/memory.ts';
import { findScenario } from '../../src/scenarios/index.ts';
import type { Params } from '../../src/scenarios/types.ts';

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
  if (job.mode === 'free') runCpu(mem, m, job.cpu, { now: () => performance.now() });
  else runLockstep(mem, m, job.cpu);
  parentPort?.postMessage({ ok: true });
} catch (e) {
  parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}
