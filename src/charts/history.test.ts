import { describe, expect, it } from 'vitest';
import { counterCells, globalPart } from './history.ts';
import { witnessRun } from './testRun.ts';

describe('the global part the counter chart draws', () => {
  it('is the tagged word while the upgraded counter is atomic, fbc->count once per-CPU', () => {
    const run = witnessRun('percpu-upgrade', 'loser-retries-per-cpu');
    const cells = counterCells(run.m);
    if (!cells) throw new Error('percpu-upgrade has no counter cells');
    const first = globalPart(run.m, run.states[0] as Int32Array, cells.global);
    // The counter starts in atomic mode holding 100: the chart must not say fbc->count 0.
    expect(first).toEqual({ label: 'fbc->remote', value: 100n, atomic: true });
    const last = globalPart(run.m, run.states[run.events.length] as Int32Array, cells.global);
    expect(last.label).toBe(cells.global.label);
  });
});
