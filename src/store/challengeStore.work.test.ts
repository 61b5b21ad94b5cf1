// How much machine work one key press costs with a challenge active. The interpreter's `step` is
// wrapped to count its calls: judging the attempt must read the states the timeline holds, not
// rebuild the machine and replay the schedule (which made every key press cost the whole run).

import { describe, expect, it, vi } from 'vitest';
import { parseSchedule } from '../machine/schedule.ts';
import { findScenario } from '../scenarios/index.ts';
import type { Scenario } from '../scenarios/types.ts';
import { createChallengeStore, type StatsPort } from './challengeStore.ts';
import { createProgressStore } from './progressStore.ts';
import { startSession } from './session.ts';
import { createStepStore } from './stepStore.ts';

const work = vi.hoisted(() => ({ steps: 0 }));

vi.mock('../machine/interpreter.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../machine/interpreter.ts')>();
  return {
    ...real,
    step: (...args: Parameters<typeof real.step>) => {
      work.steps++;
      real.step(...args);
    },
  };
});

const noStats: StatsPort = {
  challengeStats: () => new Promise(() => undefined),
  cancel: () => undefined,
};

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => map.set(k, v),
    removeItem: (k: string) => map.delete(k),
  };
}

describe('a key press in Step mode with a challenge active', () => {
  it('runs the interpreter once, however long the schedule already is', () => {
    const step = createStepStore(startSession(findScenario('global-plain') as Scenario));
    const progress = createProgressStore(memoryStorage());
    const challenge = createChallengeStore({ step, progress, runner: noStats });
    challenge.getState().challengeStarted('lose-one');
    const events = parseSchedule('0 1 0 1 0 0 1 1');
    const perPress: number[] = [];
    for (const ev of events) {
      work.steps = 0;
      step.getState().eventRequested(ev);
      perPress.push(work.steps);
    }
    expect(perPress).toEqual(events.map(() => 1));
    // The attempt was judged at every press, on the states already taken.
    expect(challenge.getState().check).not.toBeNull();
  });

  it('steps back and forward without running the interpreter at all', () => {
    const step = createStepStore(startSession(findScenario('global-plain') as Scenario));
    const progress = createProgressStore(memoryStorage());
    const challenge = createChallengeStore({ step, progress, runner: noStats });
    challenge.getState().challengeStarted('lose-one');
    for (const ev of parseSchedule('0 1 0 1 0 0')) step.getState().eventRequested(ev);
    work.steps = 0;
    step.getState().backRequested();
    step.getState().forwardRequested();
    expect(work.steps).toBe(0);
  });
});
