import { describe, expect, it } from 'vitest';
import { exactWords, lostSentence, spinSentence } from './verdict.ts';

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
    expect(lostSentence({ lost: 0, added: 12345, exact: 12345 })).toBe(
      'No update lost: the counter holds all 12,345 added.',
    );
    expect(lostSentence({ lost: 2694841, added: 10532726, exact: 10532726 })).toBe(
      '2,694,841 updates lost out of 10,532,726 added (25.59 %).',
    );
    expect(lostSentence({ lost: 1n, added: 4n, exact: 4n })).toBe(
      '1 update lost out of 4 added (25.00 %).',
    );
    expect(lostSentence({ lost: -3, added: 10, exact: 10 })).toBe(
      'The counter holds 3 more than the 10 added: updates counted twice.',
    );
  });

  it('names the value a counter started at beside what was added, so the exact total adds up', () => {
    // percpu-upgrade starts at 100.
    expect(lostSentence({ lost: 0, added: 12_089_945, exact: 12_090_045 })).toBe(
      'No update lost: the counter holds its exact total, 12,090,045: the 100 it started at plus all 12,089,945 added.',
    );
    expect(lostSentence({ lost: 5, added: 1000, exact: 1100 })).toBe(
      '5 updates lost out of 1,000 added (0.50 %): the counter holds 1,095, not its exact total 1,100 (the 100 it started at plus every add).',
    );
    expect(lostSentence({ lost: -2, added: 1000, exact: 1100 })).toBe(
      'The counter holds 2 more than its exact total 1,100 (the 100 it started at plus the 1,000 added): updates counted twice.',
    );
    expect(exactWords({ added: 12_089_945, exact: 12_090_045 })).toBe(
      'exact total 12,090,045 (the 100 it started at + 12,089,945 added)',
    );
    expect(exactWords({ added: 4, exact: 4 })).toBe('exact total 4');
  });

  it('says so when nothing was added, rather than "all 0 added"', () => {
    // percpu-hotplug-sum: no CPU adds; the slots start at +MAPPED and -MAPPED, the counter at 0.
    expect(lostSentence({ lost: 0, added: 0, exact: 0 })).toBe(
      'No update lost: nothing was added, and the counter holds the 0 it started at.',
    );
    expect(exactWords({ added: 0, exact: 0 })).toBe('exact total 0 (nothing added)');
  });

  it('explains lock spins when a CPU spent a fifth of its instructions on them', () => {
    expect(spinSentence({ cpus: [cpu(1000, 10), cpu(1000, 100)] })).toBeNull();
    expect(spinSentence({ cpus: [cpu(1000, 10), cpu(1000, 920)] })).toMatch(
      /^CPU1 spent 92 % of its instructions spinning on a held lock/,
    );
  });
});
