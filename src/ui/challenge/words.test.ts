import { describe, expect, it } from 'vitest';
import { findLesson } from '../../lessons/index.ts';
import { boundsText, checkText, distanceText, reachText, scoreText, settleText } from './words.ts';

const plain = findLesson('global-plain')?.challenges.find((c) => c.id === 'lose-two');
const atomic = findLesson('global-atomic')?.challenges[0];
if (!plain || !atomic) throw new Error('the catalogue lost a challenge these tests use');

const score = (interventions: number, switches: number, steps: number) => ({
  interventions,
  switches,
  steps,
});

/** An exhaustive check's figures: `endStates` end states, `reaching` of them reach the goal. */
const stats = (
  endStates: number,
  reaching: number,
  outcomes: number,
  reachingOutcomes: number,
) => ({
  complete: true,
  endStates,
  reachingEndStates: reaching,
  outcomes,
  reachingOutcomes,
  simplest: null,
});

describe('the challenge panel’s words', () => {
  it('boundsText lists only the interventions allowed', () => {
    expect(boundsText({ irqs: 0, nmis: 0, preemptions: 0, migrations: 0 })).toBe(
      'none: CPU steps only',
    );
    expect(boundsText({ irqs: 1, nmis: 0, preemptions: 2, migrations: 1 })).toBe(
      'at most 1 IRQ, 2 preemptions and 1 migration',
    );
  });

  it('scoreText counts in the singular and plural', () => {
    expect(scoreText(score(1, 0, 8))).toBe('1 intervention, 0 switches, 8 steps');
  });

  it('distanceText names the first measure that differs', () => {
    expect(distanceText(score(2, 0, 9), score(1, 3, 5))).toBe(
      'You used 2 interventions; the simplest uses 1.',
    );
    expect(distanceText(score(0, 3, 8), score(0, 1, 8))).toBe(
      'Same interventions as the simplest; you switched CPUs 3 times, the simplest 1 time.',
    );
    expect(distanceText(score(0, 1, 10), score(0, 1, 8))).toBe(
      'Same interventions and switches as the simplest; you took 10 steps, the simplest 8 steps.',
    );
    expect(distanceText(score(0, 1, 8), score(0, 1, 8))).toBe(
      'As simple as the simplest solution Explore found.',
    );
  });

  it('reachText counts end states, not schedules', () => {
    expect(reachText(stats(12, 4, 3, 1))).toBe(
      'Explore ran every schedule within the bounds: 4 end states of 12 reach the goal (end states, not schedules: many schedules end in the same state).',
    );
  });

  it('settleText settles only a complete search that found nothing', () => {
    const s = stats(3, 0, 1, 0);
    expect(settleText(atomic, s)).toBe(
      'Settled: Explore followed every schedule within the bounds (none: CPU steps only) to its end. Of 3 end states, none reaches the goal (breaks no-lost-update).',
    );
    expect(settleText(atomic, { ...s, complete: false })).toMatch(/^Not settled: /);
  });

  it('checkText says what a finished run ends with', () => {
    expect(
      checkText(plain, {
        kind: 'finished',
        reached: false,
        observables: { nr: 3, exact: 4 },
        broken: ['no-lost-update'],
        score: score(0, 1, 8),
      }),
    ).toBe(
      'Finished without reaching the goal: exact = 4, nr = 3. Step back and try another order.',
    );
    expect(checkText(plain, { kind: 'unfinished', score: score(0, 0, 3) })).toBe(
      'In progress: 3 steps, no interventions allowed. The goal is judged when every CPU has finished.',
    );
  });

  it('does not say "in progress" under a challenge already settled', () => {
    const impossible = findLesson('global-atomic')?.challenges.find(
      (c) => c.id === 'no-loss-atomic',
    );
    if (!impossible) throw new Error('no impossible challenge');
    const start = { kind: 'unfinished', score: score(0, 0, 0) } as const;
    expect(checkText(impossible, start, true)).toBe(
      'Settled: you can still step a schedule to see for yourself why none reaches the goal.',
    );
    expect(checkText(impossible, { kind: 'unfinished', score: score(0, 0, 3) }, true)).toMatch(
      /^Looking at one schedule \(3 steps so far\): the challenge is settled/,
    );
    expect(checkText(impossible, start, false)).toMatch(/^In progress/);
  });
});
