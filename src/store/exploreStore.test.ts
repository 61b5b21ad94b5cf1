import { describe, expect, it } from 'vitest';
import type { ExploreRequest, ExploreSummary } from '../explore/json.ts';
import { AbortError } from '../machine/errors.ts';
import { createExploreStore, type ExplorePort } from './exploreStore.ts';

const summary: ExploreSummary = {
  complete: true,
  stopped: null,
  stats: { states: 3, transitions: 2, ms: 1, depth: 2, bytes: 1024 },
  reductions: {},
  outcomes: [],
  always: [],
  livelocks: [],
  herd: null,
  onlyUnderTso: null,
  workers: 1,
};

/**
 * A runner we resolve or fail by hand, on a page that can run `maxWorkers` workers; a run
 * rejects with an AbortError when its signal aborts, as the bridge's does.
 */
function fakeRunner(maxWorkers = 1) {
  let finish: (r: ExploreSummary) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const requests: ExploreRequest[] = [];
  const signals: AbortSignal[] = [];
  const runner: ExplorePort = {
    run: (req, onProgress, signal) => {
      requests.push(req);
      signals.push(signal);
      onProgress({ states: 7, transitions: 9, depth: 3, bytes: 4096, ms: 5 });
      return new Promise((resolve, reject) => {
        finish = resolve;
        fail = reject;
        signal.addEventListener('abort', () => {
          reject(new AbortError('the exploration was cancelled'));
        });
      });
    },
    maxWorkers,
  };
  return {
    runner,
    requests,
    /** Whether each run's signal has aborted, in the order they were asked for. */
    aborted: () => signals.map((x) => x.aborted),
    finish: (r: ExploreSummary) => {
      finish(r);
    },
    fail: (e: Error) => {
      fail(e);
    },
  };
}

describe('the Explore store', () => {
  it('runs with the current bounds, shows progress, then the result', async () => {
    const f = fakeRunner();
    const store = createExploreStore(f.runner);
    store.getState().boundsChanged({ irqs: 1 });
    store.getState().runRequested('irq-local-rmw', { variant: 'none' });
    expect(store.getState().running).toBe(true);
    expect(store.getState().progress).toMatchObject({ states: 7, transitions: 9, depth: 3 });
    expect(f.requests[0]?.bounds.irqs).toBe(1);
    // No state limit, the default memory budget, no reductions unless asked for.
    expect(f.requests[0]).toMatchObject({
      maxStates: null,
      maxMemoryMB: 1024,
      symmetry: false,
      por: false,
    });
    store.getState().optionsChanged({ symmetry: true, maxMemoryMB: 256 });
    store.getState().runRequested('irq-local-rmw', { variant: 'none' });
    expect(f.requests[1]).toMatchObject({ maxMemoryMB: 256, symmetry: true, por: false });
    f.finish(summary);
    await Promise.resolve();
    expect(store.getState()).toMatchObject({ running: false, result: summary });
  });

  it('searches on one worker below four cores, on the cores from four, on as many as asked', () => {
    for (const [cores, first] of [
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 4],
      [8, 8],
    ] as const) {
      const f = fakeRunner(cores);
      const store = createExploreStore(f.runner);
      store.getState().runRequested('global-plain', {});
      expect(f.requests[0]?.workers).toBe(first);
      // Asked for: within 1 and what the page can run.
      store.getState().optionsChanged({ workers: 2 });
      store.getState().runRequested('global-plain', {});
      expect(f.requests[1]?.workers).toBe(Math.min(2, cores));
      store.getState().optionsChanged({ workers: 99 });
      expect(store.getState().options.workers).toBe(cores);
      store.getState().optionsChanged({ workers: 0 });
      expect(store.getState().options.workers).toBe(1);
    }
  });

  it('keeps its result when the panel opens the same scenario again, not for another one', async () => {
    const f = fakeRunner();
    const store = createExploreStore(f.runner);
    const bounds = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null };
    store.getState().subjectOpened('global-plain?{}', bounds);
    store.getState().runRequested('global-plain', {});
    f.finish(summary);
    await Promise.resolve();
    // Results panel opened, then Explore again: the same subject.
    store.getState().subjectOpened('global-plain?{}', bounds);
    expect(store.getState().result).toBe(summary);
    store.getState().subjectOpened('global-plain?{"iterations":"3"}', { ...bounds, irqs: 1 });
    expect(store.getState()).toMatchObject({ result: null, bounds: { irqs: 1 } });
  });

  it('says Cancelled when cancelled, and a crash message when the worker fails', async () => {
    const f = fakeRunner();
    const store = createExploreStore(f.runner);
    store.getState().runRequested('global-plain', {});
    store.getState().cancelRequested();
    expect(f.aborted()).toEqual([true]);
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState()).toMatchObject({ running: false, error: 'Cancelled.' });
    store.getState().runRequested('global-plain', {});
    f.fail(new Error('the explore worker crashed: out of memory'));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().error).toBe('the explore worker crashed: out of memory');
  });

  it('a new run, or bounds changed while one runs, aborts the run in progress', async () => {
    const f = fakeRunner();
    const store = createExploreStore(f.runner);
    store.getState().runRequested('global-plain', {});
    store.getState().runRequested('global-plain', {});
    expect(f.aborted()).toEqual([true, false]);
    // The first run's AbortError answers a request no longer shown: it changes nothing.
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState()).toMatchObject({ running: true, error: null });
    store
      .getState()
      .boundsReset({ irqs: 1, nmis: 0, preemptions: 0, migrations: 0, switches: null });
    expect(f.aborted()).toEqual([true, true]);
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState()).toMatchObject({
      running: false,
      error: 'Cancelled: the scenario or its parameters changed.',
    });
    // Bounds reset with nothing running abort nothing new.
    store.getState().runRequested('global-plain', {});
    f.finish(summary);
    await Promise.resolve();
    store
      .getState()
      .boundsReset({ irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null });
    expect(f.aborted()).toEqual([true, true, false]);
  });

  it('says Cancelled for any AbortError, a DOMException too, not for an error merely named so', async () => {
    const f = fakeRunner();
    const store = createExploreStore(f.runner);
    store.getState().runRequested('global-plain', {});
    f.fail(new DOMException('signal is aborted without reason', 'AbortError'));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().error).toBe('Cancelled.');
    store.getState().runRequested('global-plain', {});
    f.fail(Object.assign(new Error('the exploration was cancelled'), { name: 'Cancelled' }));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().error).toBe('the exploration was cancelled');
  });
});
