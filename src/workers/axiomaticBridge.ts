// The one main-thread owner of the axiomatic worker (memory lkmm). Unlike the explore worker, it
// keeps its worker between calls: `answer` opens a program in a fresh worker, and the graphs,
// "Why not?" and "Be the memory system" that follow ask the same worker, which holds the
// program and its candidate executions. So the signal `answer` is handed governs the worker's
// life, not one call's: when it aborts, or a new answer opens another program, the worker is
// terminated (a busy worker cannot answer a message) and every call in flight on it rejects
// with an AbortError (src/workers/abort.ts).

import { type Remote, wrap } from 'comlink';
import type { ExecutionGraph } from '../axiomatic/explain.ts';
import { AbortError } from '../machine/errors.ts';
import type {
  AxiomaticAnswer,
  AxiomaticApi,
  AxiomaticRequest,
  MemoryView,
} from './axiomaticApi.ts';
import { assertSignal } from './abort.ts';

export type { AxiomaticAnswer, AxiomaticRequest, MemoryView } from './axiomaticApi.ts';

const CANCELLED = 'the answer was cancelled';

export class AxiomaticBridge {
  private worker: Worker | null = null;
  private api: Remote<AxiomaticApi> | null = null;
  /** Rejects every call in flight on the current worker (crash or cancel). */
  private readonly pending = new Set<(e: Error) => void>();
  /** Stops listening to the signal of the current worker's answer. */
  private unlisten: () => void = () => undefined;

  /**
   * Answers a program in a fresh worker, which stays open for the calls below until `signal`
   * aborts (or the next answer); then this and every call in flight reject with an AbortError.
   */
  async answer(req: AxiomaticRequest, signal: AbortSignal): Promise<AxiomaticAnswer> {
    this.stop(new AbortError(CANCELLED));
    assertSignal(signal, CANCELLED);
    const worker = new Worker(new URL('./axiomatic.worker.ts', import.meta.url), {
      type: 'module',
    });
    worker.addEventListener('error', (e) => {
      if (this.worker !== worker) return;
      this.stop(new Error(`the axiomatic worker crashed: ${e.message || 'unknown error'}`));
    });
    const onAbort = () => {
      if (this.worker === worker) this.stop(new AbortError(CANCELLED));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.unlisten = () => {
      signal.removeEventListener('abort', onAbort);
    };
    this.worker = worker;
    this.api = wrap<AxiomaticApi>(worker);
    // comlink types a union reply as a union of promises: it is one promise of the union.
    return await this.call((api) => api.answer(req) as Promise<AxiomaticAnswer>);
  }

  execution(index: number): Promise<ExecutionGraph> {
    return this.call((api) => api.execution(index));
  }

  whyNot(): Promise<ExecutionGraph[]> {
    return this.call((api) => api.whyNot());
  }

  memoryView(): Promise<MemoryView> {
    return this.call((api) => api.memoryView());
  }

  memoryChoose(read: string, write: string | null): Promise<MemoryView> {
    return this.call((api) => api.memoryChoose(read, write));
  }

  memoryReset(): Promise<MemoryView> {
    return this.call((api) => api.memoryReset());
  }

  /** Ends the worker and whatever it was doing; the next call needs a new answer. */
  private stop(reason: Error): void {
    this.unlisten();
    this.unlisten = () => undefined;
    this.worker?.terminate();
    this.worker = null;
    this.api = null;
    const rejects = [...this.pending];
    this.pending.clear();
    for (const r of rejects) r(reason);
  }

  private async call<T>(f: (api: Remote<AxiomaticApi>) => Promise<T>): Promise<T> {
    const api = this.api;
    if (!api) throw new Error('no program is open: answer one first');
    let reject: (e: Error) => void = () => undefined;
    const stopped = new Promise<never>((_, r) => {
      reject = r;
    });
    this.pending.add(reject);
    try {
      return await Promise.race([f(api), stopped]);
    } finally {
      this.pending.delete(reject);
    }
  }
}
