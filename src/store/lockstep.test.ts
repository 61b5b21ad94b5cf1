// The Live store's lockstep slice on a store of its own, over a fake port that answers each
// replay at once (the real workers' replays are covered end to end). How the slice and the run's
// life cycle keep out of each other's way is liveStore.test.ts's.

import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { LockstepReport } from '../live/lockstep.ts';
import { parseSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import {
  createLockstepSlice,
  type LockstepHost,
  type LockstepPort,
  type LockstepSlice,
  NO_LOCKSTEP,
} from './lockstep.ts';

const AGREE: LockstepReport = { result: { kind: 'done', events: 4 }, difference: null, words: 90 };

/** A store holding the slice and the one field it reads of its host. */
function lockstepStore(
  answer: () => Promise<LockstepReport> = () => Promise.resolve(AGREE),
  free: () => boolean = () => true,
) {
  const asked: { scenario: string; events: readonly number[] }[] = [];
  const port: LockstepPort = {
    lockstep(scenario, _params, events) {
      asked.push({ scenario, events });
      return answer();
    },
  };
  const store = createStore<LockstepHost & LockstepSlice>()((...a) => ({
    scenario: 'global-plain',
    ...createLockstepSlice(port, free)(...a),
  }));
  return { store, asked };
}

describe('the lockstep slice', () => {
  it('starts with no verdict', () => {
    expect(lockstepStore().store.getState().lockstep).toEqual(NO_LOCKSTEP);
    expect(NO_LOCKSTEP).toEqual({ busy: false, verdict: null, agreed: null });
  });

  it('tells the lockstep verdict in words', async () => {
    const { store: agree, asked } = lockstepStore();
    const replay = agree
      .getState()
      .lockstepRequested({ iterations: '1', initial: '100' }, '0 1 0 1', 'Witness lost-update');
    expect(agree.getState().lockstep).toEqual({
      busy: true,
      verdict: 'Replaying Witness lost-update on the workers…',
      agreed: null,
    });
    await replay;
    expect(asked).toEqual([{ scenario: 'global-plain', events: parseSchedule('0 1 0 1') }]);
    expect(agree.getState().lockstep).toEqual({
      busy: false,
      agreed: true,
      verdict:
        "Witness lost-update: model and hardware agree. 4 events, each run by its CPU's worker; all 90 words of the final state match the model's. Both end with nr = 101, exact = 102; broken: no-lost-update (at the end).",
    });

    const { store: differ } = lockstepStore(() =>
      Promise.resolve({ ...AGREE, difference: 'nr_files: the model has 101, the workers 102' }),
    );
    await differ.getState().lockstepRequested({}, '0 1', 'X');
    expect(differ.getState().lockstep).toEqual({
      busy: false,
      agreed: false,
      verdict:
        'X: model and hardware differ. First difference: nr_files: the model has 101, the workers 102.',
    });

    const { store: bad, asked: none } = lockstepStore();
    await bad.getState().lockstepRequested({}, '0 (1', 'Y');
    expect(bad.getState().lockstep.verdict).toMatch(/^Cannot replay Y: /);
    expect(bad.getState().lockstep.agreed).toBe(false);
    expect(none).toEqual([]);
  });

  it('says where a replay stopped short, and when it failed', async () => {
    const { store: illegal } = lockstepStore(() =>
      Promise.resolve({
        result: { kind: 'illegal', index: 2, event: 'CPU1 steps', reason: 'CPU1 has finished' },
        difference: null,
        words: 90,
      }),
    );
    await illegal.getState().lockstepRequested({}, '0 1 1', 'Z');
    expect(illegal.getState().lockstep).toEqual({
      busy: false,
      agreed: false,
      verdict: 'Z: event 3 (CPU1 steps) is not possible there: CPU1 has finished.',
    });

    const { store: fault } = lockstepStore(() =>
      Promise.resolve({ result: { kind: 'fault', index: 0, cpu: 1 }, difference: null, words: 9 }),
    );
    await fault.getState().lockstepRequested({}, '1', 'Z');
    expect(fault.getState().lockstep.verdict).toBe('Z: CPU1 failed at event 1.');

    const { store: failed } = lockstepStore(() => Promise.reject(new Error('no workers')));
    await failed.getState().lockstepRequested({}, '0', 'Z');
    expect(failed.getState().lockstep).toEqual({
      busy: false,
      agreed: false,
      verdict: 'Z: the replay failed: no workers',
    });
  });

  it('starts nothing while its store is not free', async () => {
    const { store, asked } = lockstepStore(undefined, () => false);
    await store.getState().lockstepRequested({}, '0 1', 'X');
    await store.getState().allWitnessesRequested();
    expect(asked).toEqual([]);
    expect(store.getState().lockstep).toEqual(NO_LOCKSTEP);
  });
});

describe('the lockstep slice, every witness', () => {
  it('replays each witness and names the ones that differ', async () => {
    let n = 0;
    const { store, asked } = lockstepStore(() => {
      n++;
      return Promise.resolve({
        ...AGREE,
        difference: n === 2 ? 'nr_files: the model has 1, the workers 2' : null,
      });
    });
    await store.getState().allWitnessesRequested();
    const sc = findScenario('global-plain');
    expect(sc?.witnesses.length).toBe(2);
    expect(asked.map((a) => a.scenario)).toEqual(['global-plain', 'global-plain']);
    expect(store.getState().lockstep.agreed).toBe(false);
    expect(store.getState().lockstep.verdict).toBe(
      `1 of 2 witnesses agree. Witness ${sc?.witnesses[1]?.name ?? ''}: model and hardware differ. First difference: nr_files: the model has 1, the workers 2.`,
    );
  });

  it('says so when every witness agrees', async () => {
    const { store } = lockstepStore();
    await store.getState().allWitnessesRequested();
    expect(store.getState().lockstep).toEqual({
      busy: false,
      agreed: true,
      verdict:
        'All 2 witnesses of global-plain: model and hardware agree on every word of every final state.',
    });
  });
});
