// Running the store-buffering litmus test (sbModule.ts) on two real threads, the same wherever
// they run: browser Web Workers (src/workers/sb.worker.ts, through comlink) and Node worker
// threads (src/cli/live/sbThread.ts). A thread only instantiates the module on the shared
// memory and calls it (`sbWorkerApi`); the page's side (`SbLab`) owns the memory, starts both
// threads on the same variant and number of tries, and reads the four outcome counts thread 0
// wrote. Nothing crosses threads per try: each run is one call into WebAssembly per thread.

import { bufferOf, instantiate, sharedWasmMemory, type WasmMemory } from '../wasm/runtime.ts';
import {
  DEFAULT_CHUNK,
  SB_OUTCOMES,
  SbAt,
  sbExport,
  sbLayout,
  type SbLayout,
  sbModule,
  type SbOutcome,
  SB_VARIANTS,
  type SbVariant,
} from './sbModule.ts';
import { AbortError, messageOf } from '../../machine/errors.ts';

export { SB_OUTCOMES, SB_VARIANTS, type SbOutcome, type SbVariant };

/** How many turns a spin may wait for the other thread before the run gives up (~1 s or more). */
export const DEFAULT_SPIN_LIMIT = 1 << 30;
/** The largest jitter (turns of the delay loop before each try's store). */
export const MAX_JITTER = 0xffff;

/** What a thread is given once: the shared memory and where the test's region is. */
export interface SbSetup {
  readonly memory: WasmMemory;
  readonly chunk: number;
  readonly base: number;
}

/** One run of one thread (posted: plain data). */
export interface SbRunRequest {
  readonly variant: SbVariant;
  readonly role: 0 | 1;
  readonly tries: number;
  /** 0: none; otherwise each try waits 0..jitter−1 turns of an empty loop before its store. */
  readonly jitter: number;
  readonly spinLimit: number;
}

/** What a thread answers: the tries it did (−1: it gave up or was cancelled) and its time. */
export interface SbSideResult {
  readonly done: number;
  /** Milliseconds inside the WebAssembly call, on the thread's own clock. */
  readonly ms: number;
}

type RunFn = (role: number, tries: number, jitter: number, spinLimit: number) => number;

/**
 * The worker side, for a worker entry to expose as is: `prepare` compiles and instantiates the
 * module on the memory (once per worker), `run` makes one call and returns when it ends. The
 * worker is busy for the whole run; cancelling goes through the shared memory (`SbLab.cancel`).
 */
export function sbWorkerApi(now: () => number) {
  let fns: Readonly<Record<SbVariant, RunFn>> | null = null;
  return {
    prepare(setup: SbSetup): void {
      const layout = sbLayout(setup.chunk, setup.base);
      const exports = instantiate(sbModule(layout), setup.memory);
      const get = (v: SbVariant): RunFn => {
        const f = exports[sbExport(v)];
        if (typeof f !== 'function') throw new Error(`the SB module has no ${sbExport(v)}`);
        return f as RunFn;
      };
      fns = { plain: get('plain'), 'one-mb': get('one-mb'), mb: get('mb') };
    },
    run(req: SbRunRequest): SbSideResult {
      if (!fns) throw new Error('run before prepare');
      const f = fns[req.variant];
      const start = now();
      const done = f(req.role, req.tries, req.jitter, req.spinLimit);
      return { done, ms: now() - start };
    },
  };
}

export type SbWorkerApi = ReturnType<typeof sbWorkerApi>;

/**
 * One thread of the test as the page sees it: a comlink `Remote<SbApi>` is one, and so is the
 * Node thread of src/cli/live/sbThreads.ts.
 */
export interface SbThread {
  prepare(setup: SbSetup): Promise<void>;
  run(req: SbRunRequest): Promise<SbSideResult>;
}

export type SbCounts = Readonly<Record<SbOutcome, number>>;

export interface SbResult {
  readonly variant: SbVariant;
  readonly tries: number;
  /** By outcome "r0r1": "00" is the store-buffer outcome. */
  readonly counts: SbCounts;
  /** The run's time: the shorter of the two threads' (the other also waited for it to start). */
  readonly elapsedMs: number;
  /** The "00" outcomes per million tries. */
  readonly perMillion: number;
  readonly triesPerSecond: number;
}

export interface SbRunOptions {
  /** See SbRunRequest.jitter (default 0). */
  readonly jitter?: number;
  readonly spinLimit?: number;
}

/** "00" per million tries. */
export function perMillion(counts: SbCounts, tries: number): number {
  return tries === 0 ? 0 : (counts['00'] * 1e6) / tries;
}

/** The outcomes each variant's memory model allows on x86 (TSO): only `mb` forbids "00". */
export function allowedOnTso(v: SbVariant, o: SbOutcome): boolean {
  return o !== '00' || v !== 'mb';
}

function checkTries(tries: number): void {
  if (!Number.isInteger(tries) || tries < 0 || tries > 0x7fffffff) {
    throw new Error(`tries must be an integer from 0 to 2^31 − 1, not ${tries}`);
  }
}

/**
 * The test on two threads: owns the shared memory, runs one variant at a time. Open it once and
 * run as often as wanted; the threads stay the caller's (it never terminates them).
 */
export class SbLab {
  /** The run in progress, if any; `cancelled` once cancel() is called during it. */
  private current: { cancelled: boolean } | null = null;
  /** Why a thread failed (crashed, threw): the lab then refuses to run again. */
  private broken: string | null = null;

  private constructor(
    private readonly threads: readonly [SbThread, SbThread],
    readonly layout: SbLayout,
    readonly memory: WasmMemory,
    private readonly words: Int32Array,
  ) {}

  /** Allocates the memory and prepares both threads; rejects where shared memory is refused. */
  static async open(threads: readonly [SbThread, SbThread], chunk = DEFAULT_CHUNK): Promise<SbLab> {
    const layout = sbLayout(chunk, 0);
    const memory = sharedWasmMemory(layout.bytes);
    if (!memory) {
      throw new Error(
        'no shared WebAssembly memory here (a page must be cross-origin isolated to have it)',
      );
    }
    const setup: SbSetup = { memory, chunk, base: layout.base };
    await Promise.all(threads.map((t) => t.prepare(setup)));
    return new SbLab(threads, layout, memory, new Int32Array(bufferOf(memory)));
  }

  /** Why a thread failed, once one has: then every run rejects (open a lab on new threads). */
  get failure(): string | null {
    return this.broken;
  }

  private word(byte: number): number {
    return (this.layout.base + byte) / 4;
  }

  /** Makes a run in progress give up at its next check (within 65536 spin turns). */
  cancel(): void {
    if (this.current) this.current.cancelled = true;
    Atomics.store(this.words, this.word(SbAt.abort), 1);
  }

  /**
   * Runs `tries` tries of `variant`; rejects if a thread gave up waiting for the other (after
   * `spinLimit` turns of one spin), or with an AbortError if the run was cancelled.
   */
  async run(variant: SbVariant, tries: number, options: SbRunOptions = {}): Promise<SbResult> {
    checkTries(tries);
    const jitter = options.jitter ?? 0;
    if (!Number.isInteger(jitter) || jitter < 0 || jitter > MAX_JITTER) {
      throw new Error(`jitter must be an integer from 0 to ${MAX_JITTER}, not ${jitter}`);
    }
    const spinLimit = options.spinLimit ?? DEFAULT_SPIN_LIMIT;
    if (!Number.isInteger(spinLimit) || spinLimit < 1 || spinLimit > 0x7fffffff) {
      throw new Error(`spinLimit must be an integer from 1 to 2^31 − 1, not ${spinLimit}`);
    }
    if (this.broken !== null) throw new Error(`this SB lab is broken: ${this.broken}`);
    if (this.current) throw new Error('an SB run is already in progress');
    const current = { cancelled: false };
    this.current = current;
    try {
      // Both threads are idle: reset the barrier, x, y, the abort word and the counts.
      const w = this.words;
      for (const at of [SbAt.flag0, SbAt.flag1, SbAt.x, SbAt.y, SbAt.abort]) {
        Atomics.store(w, this.word(at), 0);
      }
      for (let i = 0; i < 4; i++) Atomics.store(w, this.word(SbAt.counts) + i, 0);
      const req = (role: 0 | 1): SbRunRequest => ({ variant, role, tries, jitter, spinLimit });
      let a: SbSideResult;
      let b: SbSideResult;
      try {
        [a, b] = await Promise.all([this.threads[0].run(req(0)), this.threads[1].run(req(1))]);
      } catch (e) {
        // A thread failed: the other gives up at its next check instead of spinning to its limit.
        Atomics.store(w, this.word(SbAt.abort), 1);
        this.broken = messageOf(e);
        throw e;
      }
      if (a.done !== tries || b.done !== tries) {
        const early = `the SB run stopped early (thread 0 did ${a.done}, thread 1 ${b.done} of ${tries} tries)`;
        // Cancelled: an AbortError, as every cancelled call is (src/machine/errors.ts).
        if (current.cancelled) throw new AbortError(`${early}: it was cancelled`);
        throw new Error(
          `${early}: a thread waited too long for the other: does each have a core of its own?`,
        );
      }
      const at = this.word(SbAt.counts);
      const counts = Object.fromEntries(
        SB_OUTCOMES.map((o, i) => [o, Atomics.load(w, at + i)]),
      ) as Record<SbOutcome, number>;
      const sum = SB_OUTCOMES.reduce((s, o) => s + counts[o], 0);
      if (sum !== tries) throw new Error(`the outcomes add up to ${sum}, not ${tries}`);
      const elapsedMs = Math.min(a.ms, b.ms);
      return {
        variant,
        tries,
        counts,
        elapsedMs,
        perMillion: perMillion(counts, tries),
        triesPerSecond: elapsedMs > 0 ? (tries * 1000) / elapsedMs : 0,
      };
    } finally {
      this.current = null;
    }
  }
}

/** A thread its owner starts and ends (a bridge's Web Worker, a Node worker thread). */
export interface SpawnedSbThread extends SbThread {
  terminate(): void;
}
