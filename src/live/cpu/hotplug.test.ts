// CPU hotplug as live CPUs take it, on one thread: the offline's steps split between the CPU going
// down and the control CPU that adopts its dead callbacks end in the model's own state, the lock
// keeps hotplug one CPU at a time, and a CPU with work left stays online. (On real threads, racing
// a sum: test/live/live.test.ts.)

import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../lang/compile.ts';
import { apply } from '../../machine/events.ts';
import { dying, online } from '../../machine/hotplug.ts';
import { initialState, step } from '../../machine/interpreter.ts';
import {
  cpuBase,
  CPU_CUR,
  ctxBase,
  CTX_CPU,
  CTX_DONE,
  type Machine,
} from '../../machine/machine.ts';
import { parseSchedule } from '../../machine/schedule.ts';
import { liveMachine } from '../job.ts';
import { liveParams } from '../liveParams.ts';
import { allocateLive, C_HOTPLUG, K_INBOX, type LiveMemory } from '../memory.ts';
import { xoroshiro128plus } from 'pure-rand';
import { applySettings, noInterference } from '../control.ts';
import { Requests } from './requests.ts';
import { adoptDead, hotplugCount, inFlightTo, releaseHotplug, takeHotplug } from './hotplug.ts';

function hotplugSum(variant: string): { m: Machine; mem: LiveMemory } {
  const m = liveMachine('percpu-hotplug-sum', liveParams('percpu-hotplug-sum', 3, { variant }));
  return { m, mem: allocateLive(m, initialState(m)) };
}

/** Runs CPU k's top context to its end with the model's step, as its worker's engine would. */
function runToEnd(m: Machine, s: Int32Array, k: number, t: number): void {
  for (let i = 0; i < 1000 && s[ctxBase(m, t) + CTX_DONE] === 0; i++) step(m, s, k, null);
  expect(s[ctxBase(m, t) + CTX_DONE]).toBe(1);
}

describe('live CPU hotplug', () => {
  it('an offline split over two workers ends in the state the model reaches with off1', () => {
    const { m, mem } = hotplugSum('online-or-dying');
    const s = mem.state;
    const t = m.deadCtx[1] as number;
    const inbox0 = mem.words[mem.cpuLine(0) + K_INBOX] as number;
    // CPU1's worker: idle, nothing of its own, so the offline is taken.
    expect(takeHotplug(mem, m, 1, false)).toBe('offline');
    expect(online(m, s, 1)).toBe(false);
    expect(dying(m, s, 1)).toBe(true);
    expect(hotplugCount(m, s)).toBe(1);
    // The callbacks travel to CPU0, the lowest online CPU but 1, through its inbox.
    expect(s[ctxBase(m, t) + CTX_CPU]).toBe(inFlightTo(0));
    expect(mem.words[mem.cpuLine(0) + K_INBOX]).toBe(inbox0 + 1);
    expect(mem.words[C_HOTPLUG]).toBe(2);
    // While the offline is in progress no other hotplug starts, CPU1's online included.
    expect(takeHotplug(mem, m, 1, false)).toBeNull();
    // CPU0's worker adopts them and runs them to the end; the loop then frees the lock.
    expect(adoptDead(mem, m, 0, t)).toBe(true);
    expect(s[cpuBase(m, 0) + CPU_CUR]).toBe(t);
    runToEnd(m, s, 0, t);
    expect(dying(m, s, 1)).toBe(false);
    releaseHotplug(mem);

    // The model, one thread: off1, then CPU0 runs the callbacks.
    const model = initialState(m);
    for (const ev of parseSchedule('off1')) apply(m, model, ev);
    runToEnd(m, model, 0, t);
    expect(Array.from(s.subarray(0, m.size))).toEqual(Array.from(model));

    // CPU1's next hotplug event brings it back.
    expect(takeHotplug(mem, m, 1, false)).toBe('online');
    expect(online(m, s, 1)).toBe(true);
    expect(hotplugCount(m, s)).toBe(2);
    expect(mem.words[C_HOTPLUG]).toBe(0);
  });

  it('a CPU with work the state does not show, or without dead callbacks, stays online', () => {
    const { m, mem } = hotplugSum('online-only');
    // CPU1 with a summer asleep between calls, say: the kernel would have to move it first.
    expect(takeHotplug(mem, m, 1, true)).toBeNull();
    // CPU2 runs check_mm() and has no DEAD2(); CPU0 has no dead callbacks either.
    expect(takeHotplug(mem, m, 2, false)).toBeNull();
    expect(takeHotplug(mem, m, 0, false)).toBeNull();
    expect(online(m, mem.state, 1)).toBe(true);
    expect(hotplugCount(m, mem.state)).toBe(0);
  });

  it('the hotplug lock held by another CPU defers an offline until it is free', () => {
    const { m, mem } = hotplugSum('online-only');
    mem.words[C_HOTPLUG] = 1; // CPU0's hotplug in progress
    expect(takeHotplug(mem, m, 1, false)).toBeNull();
    releaseHotplug(mem);
    expect(takeHotplug(mem, m, 1, false)).toBe('offline');
  });

  it('dead callbacks with no visible step return as they are adopted: the offline is over', () => {
    const r = compileProgram(
      '#define NR_CPUS 2\nint x;\nP0() { x = 1; }\nDEAD1() { int y; y = 2; }',
    );
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    const m = r.program.machine;
    const mem = allocateLive(m, initialState(m));
    expect(takeHotplug(mem, m, 1, false)).toBe('offline');
    expect(adoptDead(mem, m, 0, m.deadCtx[1] as number)).toBe(false);
    expect(dying(m, mem.state, 1)).toBe(false);
    expect(online(m, mem.state, 1)).toBe(false);
    expect(mem.words[C_HOTPLUG]).toBe(0);
  });

  it('the hotplug rate reaches only CPUs with dead callbacks: the others stay quiet (bare)', () => {
    const { mem } = hotplugSum('online-only');
    applySettings(mem, { ...noInterference, hotplugRate: 1000 });
    const rng = xoroshiro128plus(1);
    const cpu1 = new Requests(mem, mem.cpuLine(1), rng, true);
    const cpu2 = new Requests(mem, mem.cpuLine(2), rng, false);
    cpu1.poll(0);
    cpu2.poll(0);
    expect(cpu1.quiet).toBe(false);
    expect(cpu2.quiet).toBe(true);
    // A second later hundreds fell due; they count once, not as a burst to take later.
    cpu1.poll(1000);
    cpu2.poll(1000);
    expect(cpu1.hotplugs).toBe(1);
    expect(cpu2.hotplugs).toBe(0);
    cpu1.clear();
    expect(cpu1.hotplugs).toBe(0);
  });
});
