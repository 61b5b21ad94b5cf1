import { describe, expect, it } from 'vitest';
import { Ev, makeEvent } from '../../machine/events.ts';
import { parseSchedule } from '../../machine/schedule.ts';
import { findScenario } from '../../scenarios/index.ts';
import type { Scenario } from '../../scenarios/types.ts';
import { currentState, startSession, takeEvents } from '../../store/session.ts';
import { controlsOf, cpuViews, globalCells, invariantViews } from './view.ts';

const step = (k: number) => makeEvent(Ev.Step, k);

describe('what the Step screen shows', () => {
  it('under memory tso, each lane has its store buffer and a flush control; under sc neither', () => {
    const sc = findScenario('percpu-rwsem') as Scenario;
    const plain = startSession(sc, { variant: 'reader-no-mb' });
    expect(cpuViews(plain.instance.machine, currentState(plain))[0]?.buffer).toBeNull();
    expect(controlsOf(plain.instance.machine, currentState(plain))[0]?.flush).toBeNull();

    const s = takeEvents(startSession(sc, { variant: 'reader-no-mb', memory: 'tso' }), [
      step(0),
      step(0),
    ]);
    const m = s.instance.machine;
    expect(cpuViews(m, currentState(s))[0]?.buffer).toEqual([
      { cell: 'read_count[0]', value: '1', memory: '0' },
    ]);
    expect(controlsOf(m, currentState(s))[0]?.flush).toEqual({
      ev: makeEvent(Ev.Flush, 0),
      why: '',
    });
    expect(controlsOf(m, currentState(s))[1]?.flush?.why).toBe("CPU 1's store buffer is empty");
    const flushed = takeEvents(s, [makeEvent(Ev.Flush, 0)]);
    expect(cpuViews(m, currentState(flushed))[0]?.buffer).toEqual([]);
  });

  it('the hotplug masks in memory are sets of CPUs, not numbers', () => {
    const sc = findScenario('percpu-hotplug-sum') as Scenario;
    const cell = (s: ReturnType<typeof startSession>, name: string) =>
      globalCells(s.instance.machine, currentState(s)).find((c) => c.name === name)?.value;
    const start = startSession(sc);
    expect(cell(start, 'cpu_online_mask')).toBe('{0,1,2}');
    expect(cell(start, 'cpu_dying_mask')).toBe('{}');
    // CPU1 goes offline: out of the online mask, in the dying one until its callbacks return.
    const off = takeEvents(start, [makeEvent(Ev.Offline, 1)]);
    expect(cell(off, 'cpu_online_mask')).toBe('{0,2}');
    expect(cell(off, 'cpu_dying_mask')).toBe('{1}');
    // Other words stay numbers.
    expect(cell(off, 'fbc.count')).toBe('0');
  });

  it('the hotplug button sends offline, then online, on a CPU with dead callbacks only', () => {
    const sc = findScenario('percpu-hotplug-sum') as Scenario;
    const start = startSession(sc);
    const m = start.instance.machine;
    const hotplug = (s: ReturnType<typeof startSession>) =>
      controlsOf(m, currentState(s)).map((c) => c.hotplug?.ev ?? null);
    expect(hotplug(start)).toEqual([null, makeEvent(Ev.Offline, 1), null]);
    const off = takeEvents(start, [makeEvent(Ev.Offline, 1)]);
    expect(hotplug(off)).toEqual([null, makeEvent(Ev.Online, 1), null]);
    // Refused while the dead callbacks have not returned, with the reason as its tooltip.
    expect(controlsOf(m, currentState(off))[1]?.hotplug?.why).toMatch(/still going offline/);
  });

  it('a pointer in a lane names what it points to, not a number', () => {
    // lazy-nr-files' `local = &__get_cpu_var(nr_files)`: CPU0's element, as C would write it.
    const sc = findScenario('lazy-nr-files') as Scenario;
    const s = takeEvents(startSession(sc), [step(0), step(0)]);
    const regs = cpuViews(s.instance.machine, currentState(s))[0]?.registers ?? [];
    expect(regs).toContain('local = &per_cpu(nr_files, 0)');
  });

  it('a pointer in memory names what it points to', () => {
    // percpu-ref-switch's smp_store_release(ptr, pc): ptr now points to pc.
    const sc = findScenario('percpu-ref-switch') as Scenario;
    const ptr = (s: ReturnType<typeof startSession>) =>
      globalCells(s.instance.machine, currentState(s)).find((c) => c.name === 'ptr')?.value;
    const start = startSession(sc);
    expect(ptr(start)).toBe('&ac');
    expect(ptr(takeEvents(start, [step(0), step(0)]))).toBe('&pc');
  });

  it('a final invariant is pending until the end, then violated with its reason', () => {
    const sc = findScenario('global-plain') as Scenario;
    let s = startSession(sc, { iterations: '1', initial: '100' });
    expect(invariantViews(s)[0]).toMatchObject({ id: 'no-lost-update', status: 'pending' });
    s = takeEvents(s, [step(0), step(1), step(0), step(1)]);
    expect(invariantViews(s)[0]).toMatchObject({
      status: 'violated',
      reason: 'nr_files = 101, but the exact total is 102: 1 lost',
    });
  });

  it('an always-invariant broken earlier names the step its values are from', () => {
    // percpu-tree's two-in-flight: approx-in-range breaks at step 4 (the root still 0, 32 in
    // flight); by step 8 the carries have reached the root (16) and it holds again.
    const sc = findScenario('percpu-tree') as Scenario;
    const s = takeEvents(startSession(sc), parseSchedule('0 0 1 1 0 0 1 1'));
    const badge = invariantViews(s).find((v) => v.id === 'approx-in-range');
    expect(badge?.status).toBe('violated');
    expect(badge?.reason).toMatch(/^broken at step 4 \(holds again at step 8\): .*t\.approx = 0\b/);
  });

  it('lanes, lock owners and the reasons of refused controls follow the state', () => {
    const sc = findScenario('global-spinlock') as Scenario;
    const s = takeEvents(startSession(sc), [step(0), step(0)]);
    const m = s.instance.machine;
    const state = currentState(s);
    expect(cpuViews(m, state)[0]).toMatchObject({ preemptCount: 1, irqsOn: false, nextLine: 19 });
    expect(globalCells(m, state).find((c) => c.name === 'filp_count_lock')?.value).toBe(
      'held by CPU0',
    );
    expect(controlsOf(m, state)[0]?.migrate[0]?.why).toBe(
      'CPU 0 holds a spinlock: preemption is off (preempt_count 1)',
    );
  });
});
