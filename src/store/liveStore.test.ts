// The Live-mode store over a fake bridge whose single CPU runs on this thread (the real bridge's
// workers are covered end to end).

import { describe, expect, it } from 'vitest';
import { runCpu } from '../live/cpu/cpu.ts';
import { allocateLive, C_GO, C_QUIESCED, C_STOP, Stat } from '../live/memory.ts';
import { initialState } from '../machine/interpreter.ts';
import { findScenario } from '../scenarios/index.ts';
import type { LiveRun } from '../live/run.ts';
import { defaultCpus } from '../live/specs.ts';
import { createLiveStore, type LivePort, type WatchTimer } from './liveStore.ts';

/** A watchdog timer the test drives: `tick(t)` runs the watch at time t. */
function manualTimer(): WatchTimer & { tick(t: number): void } {
  let f: (() => void) | null = null;
  let t = 0;
  return {
    every(_ms, g) {
      f = g;
      return () => {
        f = null;
      };
    },
    now: () => t,
    tick(at) {
      t = at;
      f?.();
    },
  };
}

function fakeBridge(over: Partial<LivePort> = {}): LivePort {
  return {
    start({ scenario, params }) {
      const sc = findScenario(scenario);
      if (!sc) throw new Error(scenario);
      const machine = sc.build(params, { padded: true }).machine;
      const mem = allocateLive(machine, initialState(machine));
      return Promise.resolve({ scenario, params, machine, mem });
    },
    stop(run: LiveRun) {
      // Every CPU runs here, one after the other, with the stop flag already up; each finds the
      // others already quiesced (there are no migrations to wait for).
      run.mem.words[C_GO] = 1;
      run.mem.words[C_STOP] = 1;
      for (let k = 0; k < run.mem.cpus; k++) {
        run.mem.words[C_QUIESCED] = run.mem.cpus - 1;
        runCpu(run.mem, run.machine, k, { now: () => 0 });
      }
      return Promise.resolve({ kind: 'stopped' });
    },
    lockstep: () =>
      Promise.resolve({ result: { kind: 'done', events: 4 }, difference: null, words: 90 }),
    terminate: () => undefined,
    ...over,
  };
}

describe('live store', () => {
  it('leaves the page a core by default, but opens with two CPUs so that something races', () => {
    expect(defaultCpus(2)).toBe(2);
    expect(defaultCpus(8)).toBe(7);
    expect(defaultCpus(1)).toBe(2);
    expect(defaultCpus(256)).toBe(64);
  });

  it('runs, stops and judges the state the CPUs stopped in', async () => {
    const store = createLiveStore(fakeBridge(), 2, 'global-atomic');
    await store.getState().runRequested();
    expect(store.getState().phase).toBe('running');
    await store.getState().stopRequested();
    const st = store.getState();
    expect(st.phase).toBe('stopped');
    expect(st.final?.terminal).toBe(true);
    expect(st.final?.violations).toEqual([]);
    expect(st.final?.reading.lost).toBe(0);
    // The verdict is in the status line, where the eye lands after Stop.
    expect(st.message).toMatch(
      /^Stopped: every task finished its operation\. No update lost: the counter holds all [\d,]+ added\.$/,
    );
  });

  it('refuses parameters out of range with the reason, and keeps the rest', async () => {
    const store = createLiveStore(fakeBridge(), 4, 'percpu-classic');
    store.getState().choiceChanged('batch', '0');
    expect(store.getState().paramError).toMatch(/batch/);
    await store.getState().runRequested();
    expect(store.getState().phase).toBe('idle');
    expect(store.getState().message).toMatch(/Cannot run/);
    store.getState().choiceChanged('batch', '8');
    expect(store.getState().paramError).toBeNull();
    store.getState().cpusChanged(65);
    expect(store.getState().paramError).toMatch(/1 to 64/);
    expect(store.getState().cpus).toBe(3);
  });

  it('reports a worker that fails while running', async () => {
    let fail: (m: string) => void = () => undefined;
    const bridge = fakeBridge({
      start(setup, failed) {
        fail = failed;
        return fakeBridge().start(setup, failed);
      },
      stop: () => Promise.resolve({ kind: 'failed', message: 'CPU1 stopped the run: boom' }),
    });
    const store = createLiveStore(bridge, 3, 'global-plain');
    await store.getState().runRequested();
    fail('CPU1 stopped the run: boom');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().phase).toBe('failed');
    expect(store.getState().message).toMatch(/boom/);
  });

  it('stops a run whose CPU stopped responding, without waiting for it, and says which', async () => {
    let given: readonly number[] | undefined;
    const bridge = fakeBridge({
      stop(_run, unresponsive) {
        given = unresponsive;
        return Promise.resolve({ kind: 'unresponsive', cpus: unresponsive ?? [] });
      },
    });
    const timer = manualTimer();
    const store = createLiveStore(bridge, 3, 'global-atomic', timer);
    store.getState().cpusChanged(2);
    await store.getState().runRequested();
    const run = store.getState().run;
    if (!run) throw new Error('no run');
    // CPU 0 stamps its line as it polls; CPU 1 went silent at 100 ms.
    const stamp = (k: number, ms: number) => {
      run.mem.stats[run.mem.statLine(k) + Stat.Time] = ms;
    };
    for (let t = 0; t <= 2000; t += 250) {
      stamp(0, t);
      stamp(1, Math.min(t, 100));
      timer.tick(t);
    }
    expect(store.getState().phase).toBe('running');
    stamp(0, 2500);
    timer.tick(2500);
    await new Promise((r) => setTimeout(r, 0));
    expect(given).toEqual([1]);
    expect(store.getState().phase).toBe('failed');
    expect(store.getState().message).toMatch(/^CPU1 stopped responding .*Press Run to start again/);
  });

  it('waits longer for a starved CPU, and calls it starved rather than hung', async () => {
    const bridge = fakeBridge({
      stop: (_run, unresponsive) =>
        Promise.resolve({ kind: 'unresponsive', cpus: unresponsive ?? [] }),
    });
    const timer = manualTimer();
    // 8 CPU workers on 2 cores at a million migrations a second each.
    const store = createLiveStore(bridge, 2, 'global-atomic', timer);
    store.getState().cpusChanged(8);
    store.getState().settingChanged('migrationRate', 1_000_000);
    await store.getState().runRequested();
    const run = store.getState().run;
    if (!run) throw new Error('no run');
    const stamp = (k: number, ms: number) => {
      run.mem.stats[run.mem.statLine(k) + Stat.Time] = ms;
    };
    // CPU1 is quiet from 100 ms on; the others stamp. 2.5 s is not enough to call it hung.
    let t = 0;
    for (; t <= 2500; t += 250) {
      for (let k = 0; k < 8; k++) stamp(k, k === 1 ? Math.min(t, 100) : t);
      timer.tick(t);
    }
    expect(store.getState().phase).toBe('running');
    for (; store.getState().phase === 'running' && t <= 120_000; t += 250) {
      for (let k = 0; k < 8; k++) stamp(k, k === 1 ? 100 : t);
      timer.tick(t);
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(store.getState().phase).toBe('failed');
    expect(store.getState().message).toMatch(
      /^CPU1 stopped responding \(no sign of life for \d+ s; it was most likely starved rather than hung: 8 CPUs on 2 cores take turns/,
    );
  });

  it('opens links, saying what it left out', () => {
    const store = createLiveStore(fakeBridge(), 4);
    store.getState().linkOpened('#/live/percpu-seq?cpus=2&batch=16&nope=1&irq=x&sched=0%201');
    const st = store.getState();
    expect(st.scenario).toBe('percpu-seq');
    expect(st.cpus).toBe(2);
    expect(st.choices).toEqual({ batch: '16' });
    expect(st.offered?.schedule).toBe('0 1');
    expect(st.message).toMatch(/nope/);
    expect(st.message).toMatch(/irq/);
    store.getState().linkOpened('#/live/no-such-thing');
    expect(store.getState().scenario).toBe('percpu-seq');
    expect(store.getState().message).toMatch(/no scenario 'no-such-thing'/);
  });
});

describe('live store, overlapping events', () => {
  it('a failure during a stop waits for the stop; a reset during a stop wins', async () => {
    let fail: (m: string) => void = () => undefined;
    let finishStop: (o: { kind: 'failed'; message: string }) => void = () => undefined;
    const bridge = fakeBridge({
      start(setup, failed) {
        fail = failed;
        return fakeBridge().start(setup, failed);
      },
      stop: () =>
        new Promise((resolve) => {
          finishStop = resolve;
        }),
    });
    const store = createLiveStore(bridge, 3, 'global-plain');
    await store.getState().runRequested();
    const stopping = store.getState().stopRequested();
    expect(store.getState().phase).toBe('stopping');
    fail('CPU0 stopped the run: boom');
    expect(store.getState().phase).toBe('stopping'); // Run stays disabled
    finishStop({ kind: 'failed', message: 'CPU0 stopped the run: boom' });
    await stopping;
    expect(store.getState().phase).toBe('failed');
    expect(store.getState().message).toMatch(/boom/);

    await store.getState().runRequested();
    const again = store.getState().stopRequested();
    store.getState().resetRequested();
    finishStop({ kind: 'failed', message: 'late' });
    await again;
    expect(store.getState().phase).toBe('idle');
    expect(store.getState().final).toBeNull();
  });

  it('refuses a run while a lockstep replay is under way', async () => {
    let finish: () => void = () => undefined;
    const store = createLiveStore(
      fakeBridge({
        lockstep: () =>
          new Promise((resolve) => {
            finish = () => {
              resolve({ result: { kind: 'done', events: 4 }, difference: null, words: 9 });
            };
          }),
      }),
      3,
      'global-plain',
    );
    const replay = store.getState().lockstepRequested({}, '0 1', 'X');
    await store.getState().runRequested();
    expect(store.getState().phase).toBe('idle');
    store.getState().scenarioChosen('global-atomic');
    expect(store.getState().scenario).toBe('global-plain');
    finish();
    await replay;
    expect(store.getState().lockstep.agreed).toBe(true);
  });
});
