// The SB litmus module and its runner, in one thread: the module validates, a lone thread gives
// up instead of hanging, and the runner reads and checks what the threads report. The race itself
// runs on real worker threads in test/live/sb.test.ts.

import { describe, expect, it } from 'vitest';
import { bufferOf, instantiate, sharedWasmMemory, validWasm } from '../wasm/runtime.ts';
import {
  resultsOf,
  SB_VARIANTS,
  SbAt,
  sbExport,
  sbLayout,
  type SbLayout,
  sbModule,
} from './sbModule.ts';
import {
  allowedOnTso,
  perMillion,
  SbLab,
  type SbRunRequest,
  type SbSetup,
  type SbThread,
  sbWorkerApi,
} from './sb.ts';

type RunFn = (role: number, tries: number, jitter: number, spinLimit: number) => number;

function open(layout: SbLayout) {
  const memory = sharedWasmMemory(layout.base + layout.bytes);
  if (!memory) throw new Error('no shared WebAssembly memory');
  const exports = instantiate(sbModule(layout), memory);
  const fn = (v: (typeof SB_VARIANTS)[number]) => exports[sbExport(v)] as RunFn;
  return { words: new Int32Array(bufferOf(memory)), fn, memory };
}

describe('the SB module', () => {
  it('validates, for several chunk sizes and offsets', () => {
    for (const [chunk, base] of [
      [16384, 0],
      [1, 0],
      [100, 640],
      [1 << 20, 65536],
    ] as const) {
      const l = sbLayout(chunk, base);
      expect(validWasm(sbModule(l))).toBe(true);
      expect(l.memoryPages * 65536).toBeGreaterThanOrEqual(base + l.bytes);
    }
  });

  it('puts every word two threads touch on a line of its own, before the result arrays', () => {
    const l = sbLayout(100, 0);
    const words = [SbAt.flag0, SbAt.flag1, SbAt.x, SbAt.y, SbAt.abort, SbAt.counts];
    expect(new Set(words.map((w) => Math.floor(w / 64))).size).toBe(words.length);
    expect(resultsOf(l, 0)).toBeGreaterThanOrEqual(SbAt.counts + 16);
    expect(resultsOf(l, 1)).toBeGreaterThanOrEqual(resultsOf(l, 0) + 100);
    expect(resultsOf(l, 1) % 64).toBe(0);
    expect(resultsOf(l, 1) + 100).toBeLessThanOrEqual(l.bytes);
  });

  it('refuses a chunk or base it cannot lay out', () => {
    expect(() => sbLayout(0)).toThrow(/chunk/);
    expect(() => sbLayout(10, 4)).toThrow(/base/);
  });

  it('does nothing for 0 tries, on either side', () => {
    const { fn } = open(sbLayout(64));
    for (const v of SB_VARIANTS) {
      expect(fn(v)(0, 0, 0, 1 << 20)).toBe(0);
      expect(fn(v)(1, 0, 0, 1 << 20)).toBe(0);
    }
  });

  it('a lone thread gives up after its spin limit and tells the other through the abort word', () => {
    const l = sbLayout(64);
    const { fn, words } = open(l);
    expect(fn('plain')(0, 10, 0, 1 << 17)).toBe(-1);
    expect(words[SbAt.abort / 4]).toBe(1);
    // The other side, arriving late, gives up at its first check instead of waiting.
    expect(fn('mb')(1, 10, 7, 0x7fffffff)).toBe(-1);
  });
});

describe('the SB runner', () => {
  /** Threads that do no test: thread 0 writes the counts it is told to, as the module would. */
  function fakeThreads(counts: readonly number[], done = (tries: number) => tries) {
    let words: Int32Array | null = null;
    const thread = (role: 0 | 1): SbThread => ({
      prepare(setup: SbSetup) {
        words = new Int32Array(bufferOf(setup.memory));
        return Promise.resolve();
      },
      run(req: SbRunRequest) {
        const w = words;
        if (role === 0 && w) counts.forEach((c, i) => Atomics.store(w, SbAt.counts / 4 + i, c));
        return Promise.resolve({ done: done(req.tries), ms: 10 + role });
      },
    });
    return [thread(0), thread(1)] as const;
  }

  it('reports the outcomes by name, the 00 rate and the rate of tries', async () => {
    const lab = await SbLab.open(fakeThreads([3, 500, 490, 7]), 64);
    const r = await lab.run('plain', 1000);
    expect(r.counts).toEqual({ '00': 3, '10': 500, '01': 490, '11': 7 });
    expect(r.perMillion).toBe(3000);
    expect(r.elapsedMs).toBe(10);
    expect(r.triesPerSecond).toBe(100_000);
  });

  it('rejects counts that do not add up, a run that stopped early, and bad arguments', async () => {
    const short = await SbLab.open(fakeThreads([0, 1, 1, 1]), 64);
    await expect(short.run('mb', 4)).rejects.toThrow(/add up to 3, not 4/);
    const early = await SbLab.open(
      fakeThreads([0, 0, 0, 0], () => -1),
      64,
    );
    await expect(early.run('mb', 4)).rejects.toThrow(/stopped early/);
    await expect(early.run('mb', 1.5)).rejects.toThrow(/tries/);
    await expect(early.run('mb', 4, { jitter: -1 })).rejects.toThrow(/jitter/);
    await expect(early.run('mb', 4, { spinLimit: 0 })).rejects.toThrow(/spinLimit/);
  });

  it('after a thread fails, tells the other to give up and refuses to run again', async () => {
    let words: Int32Array | null = null;
    const ok: SbThread = {
      prepare(setup) {
        words = new Int32Array(bufferOf(setup.memory));
        return Promise.resolve();
      },
      run: () => Promise.resolve({ done: 4, ms: 1 }),
    };
    const crashing: SbThread = {
      prepare: () => Promise.resolve(),
      run: () => Promise.reject(new Error('thread 1 crashed')),
    };
    const lab = await SbLab.open([ok, crashing], 64);
    await expect(lab.run('plain', 4)).rejects.toThrow(/crashed/);
    expect(words?.[SbAt.abort / 4]).toBe(1);
    expect(lab.failure).toBe('thread 1 crashed');
    await expect(lab.run('plain', 4)).rejects.toThrow(/broken: thread 1 crashed/);
  });

  it('says which outcomes each model allows', () => {
    expect(allowedOnTso('plain', '00')).toBe(true);
    expect(allowedOnTso('one-mb', '00')).toBe(true);
    expect(allowedOnTso('mb', '00')).toBe(false);
    expect(allowedOnTso('mb', '10')).toBe(true);
    expect(perMillion({ '00': 1, '01': 0, '10': 0, '11': 0 }, 0)).toBe(0);
  });

  it('the worker side refuses to run before it is prepared', () => {
    const api = sbWorkerApi(() => 0);
    expect(() => api.run({ variant: 'plain', role: 0, tries: 1, jitter: 0, spinLimit: 1 })).toThrow(
      /before prepare/,
    );
  });
});
