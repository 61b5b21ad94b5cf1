// The one main-thread owner of explore workers: creates a worker per call, forwards progress,
// and cancels by terminating (a busy worker cannot answer a message). One call at a time per
// bridge: a new call cancels the one running, so each panel that explores owns its own bridge.

import { proxy, type Remote, wrap } from 'comlink';
import type { ExploreProgress } from '../explore/explore.ts';
import type { ChallengeStats } from '../lessons/index.ts';
import type { ExploreApi, ExploreRequest, ExploreSummary } from './exploreApi.ts';

export class ExploreBridge {
  private worker: Worker | null = null;
  private reject: ((e: Error) => void) | null = null;

  /** Runs an exploration in a fresh worker. Rejects with an Error named 'Cancelled' on cancel. */
  run(req: ExploreRequest, onProgress: (p: ExploreProgress) => void): Promise<ExploreSummary> {
    return this.call((api) => api.run(req, proxy(onProgress)));
  }

  /**
   * A challenge's statistics (src/lessons/stats.ts), computed in a fresh worker. Rejects with
   * an Error named 'Cancelled' on cancel.
   */
  challengeStats(scenario: string, challengeId: string): Promise<ChallengeStats> {
    return this.call((api) => api.challengeStats(scenario, challengeId));
  }

  /** Makes one call in a fresh worker, ended when the call settles, crashes or is cancelled. */
  private async call<T>(f: (api: Remote<ExploreApi>) => Promise<T>): Promise<T> {
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
      return await Promise.race([f(api), crashed]);
    } finally {
      if (this.worker === worker) {
        worker.terminate();
        this.worker = null;
        this.reject = null;
      }
    }
  }

  /** Stops the running call, if any. */
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
