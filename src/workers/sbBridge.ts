// The one main-thread owner of the SB litmus test's two workers (src/live/litmus/sb.ts): two
// module workers, one per side of the test, opened once and run as often as the page asks. A run
// is cancelled as every bridge call is, by aborting the AbortSignal it was handed; it then
// rejects with an AbortError. A worker is busy for a whole run, so the cancel itself goes
// through the shared memory, never a message, and the workers stay for the next run.

import { type Remote, releaseProxy, wrap } from 'comlink';
import {
  SbLab,
  type SbResult,
  type SbRunOptions,
  type SbVariant,
  type SpawnedSbThread,
} from '../live/litmus/sb.ts';
import type { SbApi } from './sbApi.ts';
import { assertSignal } from './abort.ts';

/** One side of the test as a module Web Worker; its calls reject if the worker crashes. */
export function webSbThread(role: 0 | 1): SpawnedSbThread {
  const worker = new Worker(new URL('./sb.worker.ts', import.meta.url), {
    type: 'module',
    name: `SB thread ${role}`,
  });
  const crashed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => {
      reject(new Error(`SB thread ${role}'s worker crashed: ${e.message || 'unknown error'}`));
    });
  });
  crashed.catch(() => undefined); // heard through the calls that race it
  const api: Remote<SbApi> = wrap<SbApi>(worker);
  return {
    prepare: (setup) => Promise.race([api.prepare(setup), crashed]),
    run: (req) => Promise.race([api.run(req), crashed]),
    terminate() {
      api[releaseProxy]();
      worker.terminate();
    },
  };
}

export class SbBridge {
  private threads: readonly [SpawnedSbThread, SpawnedSbThread] | null = null;
  private lab: Promise<SbLab> | null = null;

  /** Starts the two workers and prepares them (once; later calls reuse them). */
  open(): Promise<SbLab> {
    if (!this.lab) {
      const threads = [webSbThread(0), webSbThread(1)] as const;
      this.threads = threads;
      this.lab = SbLab.open(threads);
      this.lab.catch(() => {
        this.terminate();
      });
    }
    return this.lab;
  }

  /**
   * Runs `tries` tries of `variant` (one run at a time; see SbLab.run). Once `signal` aborts,
   * the run rejects soon with an AbortError (its threads give up at their next check).
   */
  async run(
    variant: SbVariant,
    tries: number,
    signal: AbortSignal,
    options: SbRunOptions = {},
  ): Promise<SbResult> {
    const lab = await this.open();
    // Aborted while the workers were being prepared: the run never starts.
    assertSignal(signal, 'the SB run was cancelled before it started');
    const cancel = () => {
      lab.cancel();
    };
    // Listened to from the moment the run has started (it clears the shared abort word first).
    const running = lab.run(variant, tries, options);
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await running;
    } finally {
      signal.removeEventListener('abort', cancel);
      // A worker failed: the next run starts two new ones.
      if (lab.failure !== null) this.terminate();
    }
  }

  terminate(): void {
    for (const t of this.threads ?? []) t.terminate();
    this.threads = null;
    this.lab = null;
  }
}
