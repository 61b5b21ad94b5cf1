// The Explore panel's store: bounds, one run at a time in a worker (through the bridge), its
// progress and result. Created without React; the bridge is passed in so tests can fake it. A
// run is cancelled by aborting the AbortSignal it was handed (a new one per run).

import { createStore } from 'zustand/vanilla';
import type { ExploreProgress } from '../explore/result.ts';
import { DEFAULT_MAX_MEMORY_MB, defaultWorkers } from '../explore/limits.ts';
import type { BoundsJson, ExploreRequest, ExploreSummary } from '../explore/json.ts';
import { scenarioRequest } from '../scenarios/index.ts';
import { isAbortError, messageOf } from '../machine/errors.ts';

/** The Explore store's port: explorations in a worker (an ExploreBridge; tests fake it). */
export interface ExplorePort {
  /** Rejects with an AbortError (isAbortError) once `signal` aborts, its worker ended. */
  run(
    req: ExploreRequest,
    onProgress: (p: ExploreProgress) => void,
    signal: AbortSignal,
  ): Promise<ExploreSummary>;
  /** The most workers a run can search on here (1 where the page cannot share memory). */
  readonly maxWorkers: number;
}

/** How a run is limited and reduced (the panel's options). */
export interface RunOptions {
  /** MB of memory the visited set may hold. */
  readonly maxMemoryMB: number;
  readonly symmetry: boolean;
  readonly por: boolean;
  /** Workers that search together: 1 to maxWorkers. */
  readonly workers: number;
}

export interface ExploreState {
  readonly bounds: BoundsJson;
  readonly running: boolean;
  readonly options: RunOptions;
  /** The most workers the panel offers (the port's). */
  readonly maxWorkers: number;
  readonly progress: ExploreProgress | null;
  readonly result: ExploreSummary | null;
  /** The request the result answers (scenario and parameters), to replay its witnesses. */
  readonly request: ExploreRequest | null;
  readonly error: string | null;
  /** What the panel has open (scenario and parameters), as a key; '' before anything is. */
  readonly subject: string;
  boundsChanged(b: Partial<BoundsJson>): void;
  /**
   * The panel shows `subject`: a new one starts from its own bounds with no stale result; the
   * same one (the panel closed and opened again) keeps its result.
   */
  subjectOpened(subject: string, b: BoundsJson): void;
  boundsReset(b: BoundsJson): void;
  optionsChanged(o: Partial<RunOptions>): void;
  runRequested(scenario: string, params: Readonly<Record<string, string>>): void;
  cancelRequested(): void;
}

/** The memory budget a tab can afford by default: the explorer's own default. */
export const DEFAULT_MEMORY_MB = DEFAULT_MAX_MEMORY_MB;

export function createExploreStore(runner: ExplorePort) {
  // The run in progress stops when this aborts (Cancel, other bounds, a new run).
  let abort = new AbortController();
  return createStore<ExploreState>()((set, get) => ({
    bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null },
    options: {
      maxMemoryMB: DEFAULT_MEMORY_MB,
      symmetry: false,
      por: false,
      workers: defaultWorkers(runner.maxWorkers),
    },
    maxWorkers: runner.maxWorkers,
    running: false,
    progress: null,
    result: null,
    request: null,
    error: null,
    boundsChanged: (b) => {
      set({ bounds: { ...get().bounds, ...b } });
    },
    optionsChanged: (o) => {
      const next = { ...get().options, ...o };
      const workers = Math.max(1, Math.min(get().maxWorkers, Math.floor(next.workers) || 1));
      set({ options: { ...next, workers } });
    },
    subject: '',
    subjectOpened: (subject, b) => {
      if (get().subject === subject) return;
      get().boundsReset(b);
      set({ subject });
    },
    boundsReset: (b) => {
      const wasRunning = get().running;
      set({
        bounds: b,
        result: null,
        request: null,
        error: wasRunning ? 'Cancelled: the scenario or its parameters changed.' : null,
        progress: null,
        running: false,
      });
      if (wasRunning) abort.abort();
    },
    runRequested: (scenario, params) => {
      const req: ExploreRequest = {
        ...scenarioRequest(scenario),
        params,
        bounds: get().bounds,
        maxStates: null,
        ...get().options,
      };
      abort.abort();
      abort = new AbortController();
      set({
        running: true,
        progress: { states: 0, transitions: 0, depth: 0, bytes: 0, ms: 0 },
        error: null,
        result: null,
        request: req,
      });
      runner
        .run(
          req,
          (progress) => {
            if (get().request === req) set({ progress });
          },
          abort.signal,
        )
        .then(
          (result) => {
            if (get().request === req) set({ result, running: false });
          },
          (e: unknown) => {
            if (get().request !== req) return;
            set({
              running: false,
              error: isAbortError(e) ? 'Cancelled.' : messageOf(e),
            });
          },
        );
    },
    cancelRequested: () => {
      abort.abort();
    },
  }));
}
