import { describe, expect, it } from 'vitest';
import { lostSentence, spinSentence } from './verdict.ts';

const cpu = (steps: number, spins: number) => ({
  steps,
  spins,
  adds: 0,
  calls: 0,
  folds: 0,
  bumps: 0,
  migrations: 0,
  irqs: 0,
  nmis: 0,
});

describe('the verdict in words', () => {
  it('says how much of what was added the counter lost, or that it lost nothing', () => {
    expect(lostSentence({ lost: 0, added: 12345 })).toBe(
      'No update lost: the counter holds all 12,345 added.',
    );
    expect(lostSentence({ lost: 2694841, added: 10532726 })).toBe(
      '2,694,841 updates lost out of 10,532,726 added (25.59 %).',
    );
    expect(lostSentence({ lost: 1n, added: 4n })).toBe('1 update lost out of 4 added (25.00 %).');
    expect(lostSentence({ lost: -3, added: 10 })).toBe(
      'The counter holds 3 more than the 10 added: updates counted twice.',
    );
  });

  it('explains lock spins when a CPU spent a fifth of its instructions on them', () => {
    expect(spinSentence({ cpus: [cpu(1000, 10), cpu(1000, 100)] })).toBeNull();
    expect(spinSentence({ cpus: [cpu(1000, 10), cpu(1000, 920)] })).toMatch(
      /^CPU1 spent 92 % of its instructions spinning on a held lock/,
    );
  });
});
