// The bare tier's whole loop (src/live/wasm/loop.ts) races for real: its compiled functions run on
// two worker_threads over one shared WebAssembly memory, started together, each for millions of
// operations in the loop. `nr_files++` (a plain load, add and store, kept in no register from one
// operation to the next) loses updates; `atomic_inc` (a Wasm atomic add) loses none. The workers
// run the module's own function with nothing of the lab's JavaScript around it, so what is
// counted is what the loop stored.

import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/machine/interpreter.ts';
import { liveMachine } from '../../src/live/job.ts';
import { liveParams } from '../../src/live/liveParams.ts';
import { C_STOP } from '../../src/live/memory.ts';
import { compileCpu, Exit, Flag } from '../../src/live/wasm/codegen.ts';
import { bufferOf, sharedWasmMemory, WASM_PAGE } from '../../src/live/wasm/runtime.ts';

/** Operations each worker runs. */
const OPS = 20_000_000;
/** Where the state starts in the memory; the words before it are the control line's. */
const STATE_BYTE = 128;
/** A word of the control line the workers meet at before they start: C_STOP's neighbour. */
const READY = C_STOP + 1;

// Each worker instantiates its CPU's module on the shared memory, waits for the other, then calls
// its context's function (bursts of whole operations restarting in place) until the module's
// own count of restarts says OPS were made. It answers with that count.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, memory, cpu, ops, ready, repeat, budgetExit } = workerData;
const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
const words = new Int32Array(memory.buffer, 0, 32);
Atomics.add(words, ready, 1);
while (Atomics.load(words, ready) < 2) {}
const run = exports['c' + cpu];
while (exports.repeats.value < ops) {
  const r = run(ops - exports.repeats.value, repeat);
  if ((r & 7) !== budgetExit) throw new Error('the burst ended with exit ' + (r & 7));
}
parentPort.postMessage(exports.repeats.value);
`;

function raceTwo(id: string): Promise<{ counted: number; made: number }> {
  const m = liveMachine(id, liveParams(id, 2, {}));
  const wasm = sharedWasmMemory(STATE_BYTE + m.size * 4 + 64);
  if (!wasm) throw new Error('no shared WebAssembly memory');
  const state = new Int32Array(bufferOf(wasm), STATE_BYTE, m.size);
  state.set(initialState(m));
  const cell = m.layout.cells.find((x) => x.name === 'nr_files');
  if (!cell || cell.perCpu) throw new Error(`${id} has no nr_files word`);
  const workers = [0, 1].map((cpu) => {
    const bytes = compileCpu({
      machine: m,
      cpu,
      stateByte: STATE_BYTE,
      memoryPages: wasm.buffer.byteLength / WASM_PAGE,
      tier: 'bare',
      stopByte: 4 * C_STOP,
    });
    const workerData = {
      bytes,
      memory: wasm,
      cpu,
      ops: OPS,
      ready: READY,
      repeat: Flag.Repeat,
      budgetExit: Exit.Budget,
    };
    return new Promise<number>((resolve, reject) => {
      const w = new Worker(WORKER, { eval: true, workerData });
      w.once('message', (n: number) => {
        resolve(n);
        void w.terminate();
      });
      w.once('error', reject);
    });
  });
  return Promise.all(workers).then((made) => ({
    counted: state[cell.addr] as number,
    made: made.reduce((a, b) => a + b, 0),
  }));
}

describe('the whole loop on two threads', () => {
  it('nr_files++ loses updates: plain loads and stores race', async () => {
    // Two cores interleave within microseconds; on a machine busy with other work the two
    // workers may still run one after the other, so a few tries before a missing race fails.
    let r = await raceTwo('global-plain');
    for (let i = 0; i < 5 && r.counted === r.made; i++) r = await raceTwo('global-plain');
    expect(r.made).toBe(2 * OPS);
    expect(r.counted).toBeGreaterThan(0);
    expect(r.counted).toBeLessThan(r.made);
  }, 60_000);

  it('atomic_inc loses none: every add is a Wasm atomic', async () => {
    const r = await raceTwo('global-atomic');
    expect(r.made).toBe(2 * OPS);
    expect(r.counted).toBe(2 * OPS);
  }, 60_000);
});
