import { describe, expect, it } from 'vitest';
import { raceWord, raceWordText } from './raceWord.ts';
import { findScenario } from '../scenarios/index.ts';
import { witnessRun } from './testRun.ts';

function firstWitness(id: string): string {
  const w = findScenario(id)?.witnesses[0];
  if (!w) throw new Error(`no witness in ${id}`);
  return w.name;
}

describe('the race word', () => {
  it("global-plain's lost update: both CPUs hold 100, the second store wipes out the first", () => {
    // lost-update is "0 1 0 1": load, load, store, store.
    const loaded = raceWord(witnessRun('global-plain', 'lost-update', 2));
    expect(loaded?.words).toEqual([expect.objectContaining({ label: 'nr_files', value: 100 })]);
    expect(loaded?.holders.map((h) => [h.who, h.value, h.stale])).toEqual([
      ['CPU0', 100, false],
      ['CPU1', 100, false],
    ]);
    // CPU0 has stored 101, so CPU1's copy is stale.
    const one = raceWord(witnessRun('global-plain', 'lost-update', 3));
    expect(one?.holders.map((h) => [h.who, h.value, h.stale])).toEqual([['CPU1', 100, true]]);
    expect(one?.last).toMatchObject({ kind: 'store', who: 'CPU0', before: 100, after: 101 });
    expect(one?.last?.overwrote).toBe(false);
    // CPU1 stores 101 over 101, an update it never saw: one add is lost.
    const lost = raceWord(witnessRun('global-plain', 'lost-update'));
    if (!lost) throw new Error('no view');
    expect(lost.last).toMatchObject({ kind: 'store', who: 'CPU1', overwrote: true });
    expect(lost.lostAt).toEqual([3]);
    expect([lost.made, lost.counted]).toEqual([2, 1]);
    expect(raceWordText(lost)).toContain('2 adds made, 1 counted: 1 lost');
  });

  it('one CPU after the other loses nothing', () => {
    const v = raceWord(witnessRun('global-plain', 'one-after-the-other'));
    expect(v?.lostAt).toEqual([]);
    expect([v?.made, v?.counted]).toEqual([2, 2]);
    expect(v?.holders).toEqual([]);
  });

  it('global-atomic adds in one step: no copy is ever held, nothing is lost', () => {
    const sc = 'global-atomic';
    const v = raceWord(witnessRun(sc, firstWitness(sc)));
    expect(v?.holders).toEqual([]);
    expect(v?.lostAt).toEqual([]);
    expect(v?.made).toBe(v?.counted);
  });

  it("irq-local-rmw: the interrupt's add is lost on the CPU's own word", () => {
    const sc = 'irq-local-rmw';
    const v = raceWord(witnessRun(sc, firstWitness(sc)));
    expect(v?.words[0]?.label).toMatch(/^CPU0's /);
    expect(v?.lostAt.length).toBeGreaterThan(0);
    expect((v?.made ?? 0) - (v?.counted ?? 0)).toBeGreaterThan(0);
  });

  it('draws nothing for a counter with per-CPU batches (that is the counter chart)', () => {
    expect(raceWord(witnessRun('percpu-classic', firstWitness('percpu-classic')))).toBeNull();
  });
});
