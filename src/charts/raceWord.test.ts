import { describe, expect, it } from 'vitest';
import { raceWord, raceWordText } from './raceWord.ts';
import { accessLabel } from './raceWordLayout.ts';
import { findScenario } from '../scenarios/index.ts';
import { scheduleRun, witnessRun } from './testRun.ts';
import { scenarioNamed } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { examples } from '../scenarios/examples.ts';
import { programScenario } from '../scenarios/program.ts';

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
    expect([lost.made, lost.counted, lost.lost]).toEqual([2, 1, 1]);
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

  // The store-buffer lesson: reader-no-mb's witness, 0 0 0 1 1 1 1 1 flush0, step by step.
  const rwsem = (at: number) => {
    const v = raceWord(witnessRun('percpu-rwsem', 'increment-in-the-buffer', at));
    if (!v) throw new Error('no view');
    return v;
  };

  it("percpu-rwsem under tso: the reader's increment waits in CPU0's buffer, memory holds 0", () => {
    const v = rwsem(2);
    expect(v.tso).toBe(true);
    expect(v.last).toMatchObject({ kind: 'store', via: 'buffer', who: 'CPU0', word: 0, after: 1 });
    expect(v.words.map((w) => w.value)).toEqual([0, 0]);
    expect(v.buffers).toEqual([{ cpu: 0, word: 0, value: 1, shown: '1' }]);
    expect(raceWordText(v)).toContain("CPU0's read_count = 1 waits in CPU0's store buffer");
  });

  it("percpu-rwsem: the writer's sum reads CPU0's read_count, then its own", () => {
    // Step 6 is "sum += per_cpu(read_count, cpu)" with cpu = 0; step 7 with cpu = 1.
    expect(rwsem(6).last).toMatchObject({ kind: 'load', who: 'CPU1', word: 0, before: 0 });
    expect(rwsem(6).last?.via).toBe('memory');
    expect(rwsem(7).last).toMatchObject({ kind: 'load', who: 'CPU1', word: 1, before: 0 });
  });

  it('percpu-rwsem: the bars say where the count is, and the flush moves it to memory', () => {
    // The counter declares no add: no "adds made" bar that could read 0 beside a count of 1.
    const bars = (at: number) => rwsem(at).tally.map((r) => [r.label, r.value]);
    expect(bars(2)).toEqual([
      ['in memory', 0],
      ['in store buffers', 1],
    ]);
    expect(bars(8)).toEqual([
      ['in memory', 0],
      ['in store buffers', 1],
    ]);
    const flushed = rwsem(9);
    expect(flushed.last).toMatchObject({ kind: 'flush', cpu: 0, word: 0, before: 0, after: 1 });
    expect(flushed.tally.map((r) => [r.label, r.value])).toEqual([
      ['in memory', 1],
      ['in store buffers', 0],
    ]);
    expect(flushed.made).toBeNull();
  });

  it('an add whose store waits in the buffer is made, not yet in memory, and not lost', () => {
    // global-plain under tso: CPU0 loads nr_files and stores it plus one (buffered).
    const sc = scenarioNamed('global-plain');
    const run = scheduleRun(sc, resolveParams(sc, { memory: 'tso' }), '0 0');
    const v = raceWord(run);
    const start = v?.words[0]?.value ?? NaN;
    expect(v?.last).toMatchObject({ kind: 'store', via: 'buffer', after: start + 1 });
    // One add made, none in memory, one in CPU0's buffer: nothing is lost.
    expect(v?.tally.map((r) => [r.label, r.value])).toEqual([
      ['adds made', 1],
      ['in memory', 0],
      ['in store buffers', 1],
    ]);
    expect(v?.lost).toBe(0);
  });

  it('a litmus test draws its shared variables by name, a buffered store in its buffer', () => {
    const ex = examples.find((e) => e.id === 'SB');
    const r = programScenario(ex?.text() ?? '');
    if (!r.ok) throw new Error('SB does not compile');
    const sc = raceWord(scheduleRun(r.scenario, resolveParams(r.scenario, {}), '0 1 0 1'));
    expect(sc?.shared).toBe(true);
    expect(sc?.words.map((w) => [w.label, w.shown])).toEqual([
      ['x', '1'],
      ['y', '1'],
    ]);
    // No count to keep: no tally, nothing lost.
    expect(sc?.tally).toEqual([]);
    expect(sc?.lost).toBe(0);
    expect(sc?.last).toMatchObject({ kind: 'load', cpu: 1, before: 1 });
    const tso = raceWord(
      scheduleRun(r.scenario, resolveParams(r.scenario, { memory: 'tso' }), '0'),
    );
    // WRITE_ONCE(*x, 1) waits in CPU0's store buffer: memory still holds 0.
    expect(tso?.last).toMatchObject({ kind: 'store', via: 'buffer', after: 1 });
    expect(tso?.words.map((w) => w.value)).toEqual([0, 0]);
    expect(tso?.buffers).toEqual([{ cpu: 0, word: 0, value: 1, shown: '1' }]);
    expect(raceWordText(tso as NonNullable<typeof tso>)).toBe(
      "x = 0, y = 0. x = 1 waits in CPU0's store buffer.",
    );
  });

  it('a pointer is named, not numbered: percpu-ref-switch publishes &pc', () => {
    const v = raceWord(witnessRun('percpu-ref-switch', 'get-before-switch', 5));
    expect(v?.shared).toBe(true);
    expect(v?.words.map((w) => [w.label, w.shown])).toEqual([
      ['ac', '2'],
      ['pc', '0'],
      ['ptr', '&pc'],
    ]);
    expect(v?.last ? accessLabel(v.last) : null).toBe('store &pc');
  });
});
