import { describe, expect, it } from 'vitest';
import { noInterference } from './control.ts';
import { loadOf, MAX_SILENCE_MS } from './load.ts';
import { SILENCE_MS } from './watchdog.ts';

describe('a live run’s load on the cores', () => {
  it('is no concern with a worker per core and modest rates', () => {
    const l = loadOf(2, 2, { ...noInterference, irqRate: 1000 });
    expect(l.starved).toBe(false);
    expect(l.warning).toBeNull();
    expect(l.silenceMs).toBe(SILENCE_MS);
  });

  it('calls 64 CPUs at a million migrations a second on 2 cores starved, and waits longer', () => {
    const l = loadOf(64, 2, { ...noInterference, migrationRate: 1_000_000 });
    expect(l.starved).toBe(true);
    // Longer by far than the 2 s of a run with a core per worker, but within half a minute.
    expect(l.silenceMs).toBe(MAX_SILENCE_MS);
    expect(l.warning).toMatch(
      /^64 CPUs on 2 cores take turns, and 64,000,000 interference events a second leave them little time to add: a CPU may go seconds without running\. That is starvation, not a hang\.$/,
    );
  });

  it('counts many CPUs alone, and extreme rates alone', () => {
    expect(loadOf(64, 2, noInterference).warning).toMatch(/^64 CPUs on 2 cores take turns: /);
    expect(loadOf(2, 2, { ...noInterference, irqRate: 1_000_000 }).warning).toMatch(
      /^2,000,000 interference events a second/,
    );
  });
});
