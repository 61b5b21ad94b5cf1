// The one main-thread owner of explore workers: creates a worker per call, forwards progress,
// and ends it when the call settles, crashes or is cancelled: the caller aborts the AbortSignal
// it handed the call, which then rejects with an AbortError (src/workers/abort.ts), and the
// worker is terminated (a busy worker cannot answer a message). One call at a time per bridge: a
// new call cancels the one running, so each panel that explores owns its own bridge.
// Where the page may share memory, a run asked to search on several workers (up to the cores, at
// most 8) also gets that many shard workers, started here beside the explore worker and reached
// by it through message ports: the explore worker begins the search alone and hands it to them
// once they are ready (src/explore/shards/coordinator.ts).

import { proxy, type Remote, transfer, wrap } from 'comlink';
import type { ExploreProgress } from '../explore/result.ts';
import { MAX_SHARDS } from '../explore/limits.ts';
import type { ChallengeStats } from '../lessons/index.ts';
import type { ExploreRequest, ExploreSummary } from '../explore/json.ts';
import type { ExploreApi } from './exploreApi.ts';
import type { ShardPorts } from './shardsApi.ts';
import { abortable, assertSignal } from './abort.ts';
import { AbortError } from '../machine/errors.ts';

/** What a cancelled call of this bridge rejects with (the stores say 'Cancelled.' for any). */
const CANCELLED = 'the exploration was cancelled';

export class ExploreBridge {
  /** The workers of the call running: the explore worker first, then its shard workers. */
  private workers: Worker[] = [];
  private reject: ((e: Error) => void) | null = null;

  /** The most workers a search can have here: the cores (up to 8) where memory can be shared. */
  readonly maxWorkers: number;

  /** `cores`: the cores the page plans for (src/ui/cores.ts, the one reading of them). */
  constructor(cores: number) {
    this.maxWorkers = crossOriginIsolated ? Math.max(1, Math.min(MAX_SHARDS, cores)) : 1;
  }

  /** Runs an exploration in a fresh worker; rejects with an AbortError once `signal` aborts. */
  run(
    req: ExploreRequest,
    onProgress: (p: ExploreProgress) => void,
    signal: AbortSignal,
  ): Promise<ExploreSummary> {
    const count = Math.min(this.maxWorkers, Math.floor(req.workers ?? 1));
    return this.call(signal, (api) => {
      if (count < 2) return api.run(req, proxy(onProgress));
      const shards = this.startShards(count);
      return api.run(req, proxy(onProgress), transfer(shards, [...shards.ports]));
    });
  }

  /**
   * A challenge's statistics (src/lessons/stats.ts), computed in a fresh worker. Rejects with
   * an AbortError once `signal` aborts.
   */
  challengeStats(
    scenario: string,
    challengeId: string,
    signal: AbortSignal,
  ): Promise<ChallengeStats> {
    return this.call(signal, (api) => api.challengeStats(scenario, challengeId));
  }

  /** Starts `count` shard workers; the ports the explore worker reaches them on. */
  private startShards(count: number): ShardPorts {
    const ready = new Int32Array(new SharedArrayBuffer(4));
    const ports = Array.from({ length: count }, () => {
      const w = new Worker(new URL('./shard.worker.ts', import.meta.url), { type: 'module' });
      this.workers.push(w);
      const channel = new MessageChannel();
      w.postMessage({ ready, port: channel.port1 }, [channel.port1]);
      return channel.port2;
    });
    return { ready, ports };
  }

  /**
   * Makes one call in a fresh worker, ended when the call settles, crashes, or `signal` aborts
   * (or another call takes the bridge).
   */
  private async call<T>(
    signal: AbortSignal,
    f: (api: Remote<ExploreApi>) => Promise<T>,
  ): Promise<T> {
    this.supersede();
    assertSignal(signal, CANCELLED);
    const worker = new Worker(new URL('./explore.worker.ts', import.meta.url), { type: 'module' });
    const mine = [worker];
    this.workers = mine;
    const api: Remote<ExploreApi> = wrap<ExploreApi>(worker);
    const crashed = new Promise<never>((_, reject) => {
      this.reject = reject;
      worker.addEventListener('error', (e) => {
        reject(new Error(`the explore worker crashed: ${e.message || 'unknown error'}`));
      });
    });
    try {
      const call = f(api);
      // A shard worker that fails to load fails the run too.
      for (const w of mine.slice(1)) {
        w.addEventListener('error', (e) => {
          this.reject?.(new Error(`a shard worker crashed: ${e.message || 'unknown error'}`));
        });
      }
      return await abortable(signal, Promise.race([call, crashed]), CANCELLED);
    } finally {
      if (this.workers === mine) {
        for (const w of mine) w.terminate();
        this.workers = [];
        this.reject = null;
      }
    }
  }

  /** Ends the call running, if any, for a new one: it rejects with an AbortError. */
  private supersede(): void {
    if (this.workers.length === 0) return;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    const reject = this.reject;
    this.reject = null;
    reject?.(new AbortError(CANCELLED));
  }
}
