// How much machine work one key press costs in Step mode with a challenge active: the challenge
// is judged on the states the timeline already holds, so a step runs the interpreter once.

import { describe, expect, it, vi } from 'vitest';

const steps = vi.hoisted(() => ({ n: 0 }));
vi.mock('../machine/interpreter.ts', async (original) => {
  const real = await original<typeof import('../machine/interpreter.ts')>();
  return {
    ...real,
    step: (...args: Parameters<typeof real.step>) => {
      steps.n++;
      real.step(...args);
    },
  };
});

const { findLesson } = await import('../lessons/index.ts');
const { parseSchedule } = await import('../machine/schedule.ts');
const { findScenario } = await import('../scenarios/index.ts');
const { createChallengeStore } = await import('./challengeStore.ts');
const { createProgressStore } = await import('./progressStore.ts');
const { startSession } = await import('./session.ts');
const { createStepStore } = await import('./stepStore.ts');

/** Step and challenge stores on percpu-classic, its first challenge started. */
function started() {
  const sc = findScenario('percpu-classic');
  if (!sc) throw new Error('no percpu-classic');
  const step = createStepStore(startSession(sc));
  const map = new Map<string, string>();
  const progress = createProgressStore({
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => map.set(k, v),
    removeItem: (k) => map.delete(k),
  });
  const store = createChallengeStore({
    step,
    progress,
    runner: { challengeStats: () => new Promise(() => undefined) },
  });
  const challenge = findLesson('percpu-classic')?.challenges[0];
  if (!challenge) throw new Error('percpu-classic has no challenge');
  store.getState().challengeStarted(challenge.id);
  expect(step.getState().challenge).toBe(challenge.id);
  return { step, store };
}

describe('a key press with a challenge active', () => {
  it('runs one interpreter step, however long the schedule so far', () => {
    const { step, store } = started();
    const events = parseSchedule('0 0 0 0 0 0 0 0 0 0');
    for (const [i, ev] of events.entries()) {
      steps.n = 0;
      step.getState().eventRequested(ev);
      expect(step.getState().session.cursor).toBe(i + 1);
      expect(store.getState().check?.kind).not.toBe('invalid');
      expect(steps.n).toBe(1);
    }
  });

  it('steps back and forward without running the interpreter', () => {
    const { step, store } = started();
    for (const ev of parseSchedule('0 0 0 0 0 0')) step.getState().eventRequested(ev);
    steps.n = 0;
    step.getState().backRequested();
    step.getState().forwardRequested();
    expect(step.getState().session.cursor).toBe(6);
    expect(store.getState().check?.kind).not.toBe('invalid');
    expect(steps.n).toBe(0);
  });
});
