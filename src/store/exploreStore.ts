// The Explore panel's store: bounds, one run at a time in a worker (through the bridge), its
// progress and result. Created without React; the bridge is passed in so tests can fake it.

import { createStore } from 'zustand/vanilla';
import type { ExploreRequest, ExploreSummary } from '../workers/exploreApi.ts';

export interface Runner {
  run(
    req: ExploreRequest,
    onProgress: (states: number, transitions: number) => void,
  ): Promise<ExploreSummary>;
  cancel(): void;
}

export type Bounds = ExploreRequest['bounds'];

export interface ExploreState {
  readonly bounds: Bounds;
  readonly running: boolean;
  readonly progress: { states: number; transitions: number } | null;
  readonly result: ExploreSummary | null;
  /** The request the result answers (scenario and parameters), to replay its witnesses. */
  readonly request: ExploreRequest | null;
  readonly error: string | null;
  boundsChanged(b: Partial<Bounds>): void;
  boundsReset(b: Bounds): void;
  runRequested(scenario: string, params: Readonly<Record<string, string>>): void;
  cancelRequested(): void;
}

export const MAX_STATES = 2_000_000;

export function createExploreStore(runner: Runner) {
  return createStore<ExploreState>()((set, get) => ({
    bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null },
    running: false,
    progress: null,
    result: null,
    request: null,
    error: null,
    boundsChanged: (b) => {
      set({ bounds: { ...get().bounds, ...b } });
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
      if (wasRunning) runner.cancel();
    },
    runRequested: (scenario, params) => {
      const req: ExploreRequest = { scenario, params, bounds: get().bounds, maxStates: MAX_STATES };
      set({
        running: true,
        progress: { states: 0, transitions: 0 },
        error: null,
        result: null,
        request: req,
      });
      runner
        .run(req, (states, transitions) => {
          set({ progress: { states, transitions } });
        })
        .then(
          (result) => {
            if (get().request === req) set({ result, running: false });
          },
          (e: unknown) => {
            if (get().request !== req) return;
            const cancelled = e instanceof Error && e.name === 'Cancelled';
            set({
              running: false,
              error: cancelled ? 'Cancelled.' : e instanceof Error ? e.message : String(e),
            });
          },
        );
    },
    cancelRequested: () => {
      runner.cancel();
    },
  }));
}
