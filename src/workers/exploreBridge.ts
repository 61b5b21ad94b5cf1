// The one main-thread owner of explore workers: creates a worker per run, forwards progress,
// and cancels by terminating (a busy worker cannot answer a message).

import { proxy, type Remote, wrap } from 'comlink';
import type { ExploreProgress } from '../explore/explore.ts';
import type { ExploreApi, ExploreRequest, ExploreSummary } from './exploreApi.ts';

export class ExploreBridge {
  private worker: Worker | null = null;
  private reject: ((e: Error) => void) | null = null;

  /** Runs an exploration in a fresh worker. Rejects with an Error named 'Cancelled' on cancel. */
  async run(
    req: ExploreRequest,
    onProgress: (p: ExploreProgress) => void,
  ): Promise<ExploreSummary> {
    this.cancel();
    const worker = new Worker(new URL('./explore.worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    const api: Remote<ExploreApi> = wrap<ExploreApi>(worker);
    const crashed = new Promise<never>((_, reject) => {
      this.reject = reject;
      worker.addEventListener('error', (e) => {
        reject(new Error(`the explore worker crashed: ${e.message || 'unknown error'}`));
      });
    });
    try {
      return await Promise.race([api.run(req, proxy(onProgress)), crashed]);
    } finally {
      if (this.worker === worker) {
        worker.terminate();
        this.worker = null;
        this.reject = null;
      }
    }
  }

  /** Stops the running exploration, if any. */
  cancel(): void {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    const reject = this.reject;
    this.reject = null;
    const e = new Error('the exploration was cancelled');
    e.name = 'Cancelled';
    reject?.(e);
  }
}
