import { describe, expect, it } from 'vitest';
import { type ChallengeStats, challengeStats } from '../lessons/index.ts';
import { AbortError } from '../machine/errors.ts';
import { parseSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import type { Scenario } from '../scenarios/types.ts';
import {
  activeChallengeOf,
  createChallengeStore,
  findChallenge,
  type StatsPort,
} from './challengeStore.ts';
import { createProgressStore, type ProgressStorage } from './progressStore.ts';
import { startSession } from './session.ts';
import { decodeLink, encodeLink } from './link.ts';
import { readPacked } from './packedLink.ts';
import { createStepStore, linkOf } from './stepStore.ts';

function memoryStorage(): ProgressStorage {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => map.set(k, v),
    removeItem: (k) => map.delete(k),
  };
}

/**
 * A runner that answers only when told to, computing the real statistics in Node; a call
 * rejects with an AbortError when its signal aborts, as the bridge's does.
 */
function manualRunner() {
  const calls: {
    scenario: string;
    id: string;
    signal: AbortSignal;
    resolve: () => void;
    fail: (e: Error) => void;
  }[] = [];
  const runner: StatsPort = {
    challengeStats: (scenario, id, signal) =>
      new Promise<ChallengeStats>((resolve, reject) => {
        const sc = findScenario(scenario) as Scenario;
        const ch = findChallenge(scenario, id);
        if (!ch) throw new Error('no such challenge');
        signal.addEventListener('abort', () => {
          reject(new AbortError('the exploration was cancelled'));
        });
        calls.push({
          scenario,
          id,
          signal,
          resolve: () => {
            resolve(challengeStats(sc, ch));
          },
          fail: reject,
        });
      }),
  };
  /** How many calls were cancelled (their signal aborted). */
  const cancels = () => calls.filter((c) => c.signal.aborted).length;
  return { runner, calls, cancels };
}

function setup(scenario = 'global-plain') {
  const step = createStepStore(startSession(findScenario(scenario) as Scenario));
  const progress = createProgressStore(memoryStorage());
  const r = manualRunner();
  const store = createChallengeStore({ step, progress, runner: r.runner });
  /** Takes a schedule's events one by one, as a student steps. */
  const stepThrough = (schedule: string) => {
    for (const ev of parseSchedule(schedule)) step.getState().eventRequested(ev);
  };
  return { step, progress, store, stepThrough, ...r };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the challenge store', () => {
  it('starting a challenge sets the stage to its parameters at the start', () => {
    const { step, store } = setup('percpu-atomic64');
    step.getState().eventRequested(parseSchedule('0')[0] as number);
    store.getState().challengeStarted('miss-the-batch');
    const s = step.getState().session;
    expect(s.cursor).toBe(0);
    expect(s.events).toEqual([]);
    expect(s.params.summer).toBe(1);
    expect(activeChallengeOf(step.getState())).toEqual({
      scenario: 'percpu-atomic64',
      id: 'miss-the-batch',
    });
    expect(store.getState().check?.kind).toBe('unfinished');
  });

  it('judges global-plain/lose-one as the student steps, then records it solved', async () => {
    const { store, progress, stepThrough, calls } = setup();
    store.getState().challengeStarted('lose-one');
    stepThrough('0 1 0 1');
    expect(store.getState().check).toMatchObject({ kind: 'unfinished', score: { steps: 4 } });
    stepThrough('0 0 1 1');
    expect(store.getState().check).toMatchObject({
      kind: 'finished',
      reached: true,
      score: { interventions: 0, steps: 8 },
    });
    expect(progress.getState().progress.challenges['global-plain/lose-one']).toMatchObject({
      kind: 'solved',
      schedule: '0 1 0 1 0 0 1 1',
    });
    // Explore's count is asked for once, and shown as computing until it answers.
    expect(calls.map((c) => c.id)).toEqual(['lose-one']);
    expect(store.getState().stats['global-plain/lose-one']).toEqual({ kind: 'computing' });
    calls[0]?.resolve();
    await flush();
    const entry = store.getState().stats['global-plain/lose-one'];
    expect(entry?.kind === 'done' && entry.stats.reachingEndStates).toBeGreaterThan(0);
  });

  it('a run that ends without the goal is finished, not reached, and not recorded', () => {
    const { store, progress, stepThrough } = setup();
    store.getState().challengeStarted('lose-one');
    stepThrough('0 0 0 0 1 1 1 1');
    expect(store.getState().check).toMatchObject({ kind: 'finished', reached: false });
    expect(progress.getState().progress.challenges).toEqual({});
  });

  it('says when the stage parameters are no longer the challenge’s', () => {
    const { step, store } = setup();
    store.getState().challengeStarted('lose-one');
    step.getState().paramChanged('iterations', '3');
    expect(store.getState().check).toEqual({ kind: 'params-differ' });
  });

  it('another scenario ends the attempt and cancels its computation', () => {
    const { step, store, stepThrough, cancels } = setup();
    store.getState().challengeStarted('lose-one');
    stepThrough('0 1 0 1 0 0 1 1');
    expect(store.getState().stats['global-plain/lose-one']).toEqual({ kind: 'computing' });
    step.getState().scenarioChosen('global-atomic');
    expect(activeChallengeOf(step.getState())).toBeNull();
    expect(store.getState().check).toBeNull();
    expect(cancels()).toBe(1);
    expect(store.getState().stats).toEqual({});
  });

  it('another scenario cancels an exhaustive check of the one left', () => {
    const { step, store, cancels } = setup('global-atomic');
    store.getState().statsRequested('no-loss-atomic');
    step.getState().paramChanged('cpus', '2');
    expect(store.getState().stats['global-atomic/no-loss-atomic']).toEqual({ kind: 'computing' });
    step.getState().scenarioChosen('global-plain');
    expect(cancels()).toBe(1);
    expect(store.getState().stats).toEqual({});
  });

  it('reveals hints one at a time, and refuses past the last', () => {
    const { store } = setup();
    const total = findChallenge('global-plain', 'lose-one')?.hints.length ?? 0;
    for (let i = 1; i <= total; i++) {
      store.getState().hintRevealed('lose-one');
      expect(store.getState().hints['global-plain/lose-one']).toBe(i);
    }
    store.getState().hintRevealed('lose-one');
    expect(store.getState().hints['global-plain/lose-one']).toBe(total);
    expect(store.getState().notice).toBe(`All ${total} hints of this challenge are shown.`);
  });

  it('a hint’s schedule loads at its start; stepping forward through it solves', () => {
    const { step, store, progress } = setup();
    store.getState().hintTried('lose-one', 2);
    expect(store.getState().notice).toMatch(/not shown yet/);
    for (let i = 0; i < 3; i++) store.getState().hintRevealed('lose-one');
    store.getState().hintTried('lose-one', 2);
    expect(step.getState().session.cursor).toBe(0);
    expect(step.getState().session.events).toHaveLength(8);
    for (let i = 0; i < 8; i++) step.getState().forwardRequested();
    expect(store.getState().check).toMatchObject({ kind: 'finished', reached: true });
    // Solved with three hints shown: the record says so.
    expect(progress.getState().progress.challenges['global-plain/lose-one']).toMatchObject({
      kind: 'solved',
      hints: 3,
    });
  });

  it('settles an impossible challenge when Explore finds no end state reaching it', async () => {
    const { store, progress, calls } = setup('global-atomic');
    store.getState().statsRequested('no-loss-atomic');
    expect(store.getState().stats['global-atomic/no-loss-atomic']).toEqual({ kind: 'computing' });
    calls[0]?.resolve();
    await flush();
    expect(progress.getState().progress.challenges['global-atomic/no-loss-atomic']).toEqual({
      kind: 'settled',
    });
    // After a reset, asking again settles it again from the statistics already known.
    progress.getState().reset();
    store.getState().statsRequested('no-loss-atomic');
    expect(calls).toHaveLength(1);
    expect(progress.getState().progress.challenges['global-atomic/no-loss-atomic']?.kind).toBe(
      'settled',
    );
  });

  it('refuses a challenge the scenario does not have, and says why', () => {
    const { store } = setup();
    store.getState().statsRequested('no-such');
    expect(store.getState().notice).toBe("global-plain has no challenge 'no-such'");
  });

  it('a cancelled computation leaves no entry; a failed one says why', async () => {
    const { store, calls, cancels } = setup('global-atomic');
    store.getState().statsRequested('no-loss-atomic');
    store.getState().statsCancelled();
    expect(cancels()).toBe(1);
    expect(store.getState().stats).toEqual({});
    await flush();
    expect(store.getState().stats).toEqual({});
    store.getState().statsRequested('no-loss-atomic');
    calls.at(-1)?.fail(new Error('the explore worker crashed: out of memory'));
    await flush();
    expect(store.getState().stats['global-atomic/no-loss-atomic']).toEqual({
      kind: 'failed',
      error: 'the explore worker crashed: out of memory',
    });
    expect(cancels()).toBe(1);
  });

  it('a computation cancelled elsewhere (an AbortError it did not ask for) leaves no entry', async () => {
    const { store, calls } = setup('global-atomic');
    store.getState().statsRequested('no-loss-atomic');
    expect(store.getState().stats['global-atomic/no-loss-atomic']).toEqual({ kind: 'computing' });
    calls.at(-1)?.fail(new AbortError('the exploration was cancelled'));
    await flush();
    expect(store.getState().stats).toEqual({});
    // And it can be asked again.
    store.getState().statsRequested('no-loss-atomic');
    calls.at(-1)?.resolve();
    await flush();
    expect(store.getState().stats['global-atomic/no-loss-atomic']?.kind).toBe('done');
  });

  // A link carries the attempt: a teacher hands out ?challenge=…, a student shares how far they got.
  describe('in a link', () => {
    it('the attempt is named in the Step link, and leaving it drops the name', () => {
      const { step, store, stepThrough } = setup();
      store.getState().challengeStarted('lose-one');
      stepThrough('0 1');
      const { session, challenge } = step.getState();
      expect(linkOf(session, challenge)).toMatch(/[?&]challenge=lose-one(&|$)/);
      store.getState().challengeLeft();
      expect(step.getState().challenge).toBeNull();
      expect(linkOf(step.getState().session, step.getState().challenge)).not.toContain('challenge');
    });

    it('a link with a schedule goes on from the moment it shows, judged at once', () => {
      const { step, store } = setup();
      step.getState().linkOpened('#/step/global-plain?sched=0+1+0+1&at=4&challenge=lose-one');
      expect(activeChallengeOf(step.getState())).toEqual({
        scenario: 'global-plain',
        id: 'lose-one',
      });
      expect(step.getState().session.cursor).toBe(4);
      expect(store.getState().check).toMatchObject({ kind: 'unfinished', score: { steps: 4 } });
    });

    it('a link written by hand, with no schedule, starts the challenge with its parameters', () => {
      const { step, store } = setup();
      step.getState().linkOpened('#/step/percpu-atomic64?challenge=miss-the-batch');
      expect(activeChallengeOf(step.getState())).toEqual({
        scenario: 'percpu-atomic64',
        id: 'miss-the-batch',
      });
      expect(step.getState().session.params.summer).toBe(1);
      expect(store.getState().check?.kind).toBe('unfinished');
    });

    it('the lessons loading after the link still take up its challenge', () => {
      const step = createStepStore();
      step.getState().linkOpened('#/step/global-plain?sched=0+1&at=2&challenge=lose-one');
      const store = createChallengeStore({
        step,
        progress: createProgressStore(memoryStorage()),
        runner: manualRunner().runner,
      });
      expect(activeChallengeOf(step.getState())).toEqual({
        scenario: 'global-plain',
        id: 'lose-one',
      });
      expect(store.getState().check).toMatchObject({ kind: 'unfinished', score: { steps: 2 } });
    });

    it('a challenge the scenario does not have is named, and dropped from the link', () => {
      const { step, store } = setup();
      step.getState().linkOpened('#/step/global-plain?challenge=lose-all');
      expect(store.getState().notice).toBe("global-plain has no challenge 'lose-all'");
      expect(activeChallengeOf(step.getState())).toBeNull();
      expect(step.getState().challenge).toBeNull();
    });

    it('a link to another moment without a challenge ends the attempt', () => {
      const { step, store } = setup();
      store.getState().challengeStarted('lose-one');
      step.getState().linkOpened('#/step/global-plain?sched=0&at=1');
      expect(activeChallengeOf(step.getState())).toBeNull();
      step.getState().linkOpened('#/step/global-plain?challenge=lose-one');
      step.getState().scenarioChosen('global-atomic');
      expect(activeChallengeOf(step.getState())).toBeNull();
      expect(step.getState().challenge).toBeNull();
    });

    it('a challenge name that cannot be one refuses the link', () => {
      const { step } = setup();
      step.getState().linkOpened('#/step/global-plain?challenge=%3Cscript%3E');
      expect(step.getState().notice).toContain(
        "the link's challenge '<script>' is not a challenge's name",
      );
    });

    it('an empty challenge name is no challenge: the scenario the link names is shown', () => {
      const { step, store } = setup();
      step.getState().linkOpened('#/step/percpu-classic?challenge=');
      expect(step.getState().session.scenario.id).toBe('percpu-classic');
      expect(step.getState().notice).toBeNull();
      expect(store.getState().notice).toBeNull();
      expect(activeChallengeOf(step.getState())).toBeNull();
    });

    it('survives the compressed form of a long link', () => {
      const link = {
        scenario: 'percpu-classic',
        params: { cpus: '4' },
        schedule: '0 '.repeat(120).trim(),
        cursor: 7,
        challenge: 'miss-a-batch',
      };
      const hash = encodeLink(link);
      expect(hash).toContain('?z=');
      expect(decodeLink(hash, readPacked)).toEqual({ ok: true, link });
    });
  });
});
