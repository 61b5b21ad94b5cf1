// CPU hotplug as the machine runs it: offline's order (dying, not online, the dead callbacks on a
// surviving CPU, dying cleared when they return), what it refuses, and the masks a walk reads.

import { describe, expect, it } from 'vitest';
import { compileProgram } from '../lang/compile.ts';
import { whyNotLive } from '../live/specs.ts';
import {
  apply,
  applyChecked,
  Ev,
  formatEvent,
  IllegalEventError,
  makeEvent,
  whyIllegal,
} from './events.ts';
import { dying, hotplugEvent, online } from './hotplug.ts';
import { initialState } from './interpreter.ts';
import { CPU_CUR, CPU_FIELDS } from './machine.ts';
import { replay } from './replay.ts';
import { parseSchedule } from './schedule.ts';

const TEXT = (walk: string) => `
#define NR_CPUS 3
DEFINE_PER_CPU(int, c);
{ per_cpu(c, 1) = 5; }
int folded;

P2()
{
	int cpu;
	int seen = 0;

	${walk}
		seen += per_cpu(c, cpu);
	record(seen, seen);
}

DEAD1()
{
	folded = folded + per_cpu(c, 1);
	per_cpu(c, 1) = 0;
}
`;

function machineOf(walk: string) {
  const r = compileProgram(TEXT(walk));
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program.machine;
}

describe('CPU hotplug', () => {
  it('offline takes the kernel’s order: dying, out of the online mask, callbacks on CPU0', () => {
    const m = machineOf('for_each_online_cpu(cpu)');
    const s = initialState(m);
    expect([0, 1, 2].map((k) => online(m, s, k))).toEqual([true, true, true]);
    applyChecked(m, s, makeEvent(Ev.Offline, 1));
    expect(online(m, s, 1)).toBe(false);
    expect(dying(m, s, 1)).toBe(true);
    // The dead callbacks run as a task on the lowest online CPU, idle until now.
    expect(s[m.cpuOff + 0 * CPU_FIELDS + CPU_CUR]).toBe(m.deadCtx[1]);
    // When they return, CPU1 leaves the dying mask.
    while (dying(m, s, 1)) apply(m, s, makeEvent(Ev.Step, 0));
    expect(s[m.cpuOff + 0 * CPU_FIELDS + CPU_CUR]).toBe(-1);
    expect(whyIllegal(m, s, makeEvent(Ev.Step, 0))).toMatch(/nothing left to run/);
  });

  it('refuses what the kernel would not do, saying why', () => {
    const m = machineOf('for_each_online_cpu(cpu)');
    const s = initialState(m);
    expect(whyIllegal(m, s, makeEvent(Ev.Offline, 2))).toMatch(/no dead callbacks \(DEAD2\(\)\)/);
    expect(whyIllegal(m, s, makeEvent(Ev.Online, 1))).toMatch(/already online/);
    apply(m, s, makeEvent(Ev.Offline, 1));
    expect(whyIllegal(m, s, makeEvent(Ev.Offline, 1))).toMatch(/still going offline/);
    expect(whyIllegal(m, s, makeEvent(Ev.Migrate, 2, 1))).toMatch(/CPU 1 is offline/);
    expect(() => {
      applyChecked(m, s, makeEvent(Ev.Online, 1));
    }).toThrow(IllegalEventError);
    // Once the callbacks returned, CPU1 may come back, and migrations there are legal again.
    while (dying(m, s, 1)) apply(m, s, makeEvent(Ev.Step, 0));
    expect(whyIllegal(m, s, makeEvent(Ev.Online, 1))).toBe('');
    apply(m, s, makeEvent(Ev.Online, 1));
    expect(online(m, s, 1)).toBe(true);
    expect(whyIllegal(m, s, makeEvent(Ev.Migrate, 2, 1))).toBe('');
  });

  it('the hotplug toggle: off while online, on once offline, none for a CPU without DEADk()', () => {
    const m = machineOf('for_each_online_cpu(cpu)');
    const s = initialState(m);
    expect(hotplugEvent(m, s, 1)).toBe(makeEvent(Ev.Offline, 1));
    expect(hotplugEvent(m, s, 0)).toBeNull();
    expect(hotplugEvent(m, s, 2)).toBeNull();
    apply(m, s, makeEvent(Ev.Offline, 1));
    // Offline, even while still dying (whyIllegal refuses the online until the callbacks return).
    expect(hotplugEvent(m, s, 1)).toBe(makeEvent(Ev.Online, 1));
    while (dying(m, s, 1)) apply(m, s, makeEvent(Ev.Step, 0));
    expect(hotplugEvent(m, s, 1)).toBe(makeEvent(Ev.Online, 1));
    apply(m, s, makeEvent(Ev.Online, 1));
    expect(hotplugEvent(m, s, 1)).toBe(makeEvent(Ev.Offline, 1));
    // A machine without hotplug has no toggle on any CPU.
    const plain = compileProgram('#define NR_CPUS 2\nint x;\nP0() { x = 1; }');
    if (!plain.ok) throw new Error('compile');
    const pm = plain.program.machine;
    expect([0, 1].map((k) => hotplugEvent(pm, initialState(pm), k))).toEqual([null, null]);
  });

  it('a CPU with a task on it does not go offline', () => {
    const r = compileProgram('#define NR_CPUS 2\nint x;\nP1() { x = 1; }\nDEAD1() { x = 2; }');
    if (!r.ok) throw new Error('compile');
    const m = r.program.machine;
    const s = initialState(m);
    expect(whyIllegal(m, s, makeEvent(Ev.Offline, 1))).toMatch(/still has tasks/);
    apply(m, s, makeEvent(Ev.Step, 1));
    expect(whyIllegal(m, s, makeEvent(Ev.Offline, 1))).toBe('');
  });

  it('for_each_online_cpu skips an offline CPU; for_each_cpu_or with the dying mask does not', () => {
    const seen = (walk: string) => {
      const m = machineOf(walk);
      const r = compileProgram(TEXT(walk));
      if (!r.ok) throw new Error('compile');
      const s = initialState(m);
      apply(m, s, makeEvent(Ev.Offline, 1));
      // Run CPU2's walk to the end before the callbacks fold CPU1's 5.
      while (whyIllegal(m, s, makeEvent(Ev.Step, 2)) === '') apply(m, s, makeEvent(Ev.Step, 2));
      const obs = r.program.clauses.observables.find((o) => o.name === 'seen');
      return obs?.read(m, s);
    };
    expect(seen('for_each_online_cpu(cpu)')).toBe(0);
    expect(seen('for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)')).toBe(5);
    expect(seen('for_each_possible_cpu(cpu)')).toBe(5);
  });

  it('names what a walk reads of a mask as a set of CPUs, and so does an observable of it', () => {
    const text = `${TEXT('for_each_online_cpu(cpu)')}\nobserve online = cpu_online_mask;\nobserve seen;\n`;
    const r = compileProgram(text);
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    const m = r.program.machine;
    const { steps, states } = replay(m, parseSchedule('off1 2*3'));
    // CPU2's walk reads cpu_online_mask after CPU1 left it: CPUs 0 and 2, not "5".
    expect(steps.map((s) => s.text).find((t) => t.includes('reads cpu_online_mask'))).toMatch(
      /reads cpu_online_mask: \{0,2\}$/,
    );
    const online = r.program.clauses.observables.find((o) => o.name === 'online');
    expect(online?.cpuSet).toBe(true);
    expect(online?.read(m, states.at(-1) as Int32Array)).toBe(5);
    expect(r.program.clauses.observables.find((o) => o.name === 'seen')?.cpuSet).toBeUndefined();
  });

  it('writes off and on in schedules', () => {
    expect(parseSchedule('off1 on1').map(formatEvent)).toEqual(['off1', 'on1']);
  });

  it('a program without dead callbacks has no masks to name', () => {
    const r = compileProgram(
      'int x;\nP0() { int cpu; for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) x = cpu; }',
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.message).toMatch(/CPU hotplug/);
  });

  it('Live runs a hotplug program free: CPU hotplug is no reason to refuse it', () => {
    const r = compileProgram(
      '#define NR_CPUS 2\nint x;\nvoid add(void) { x = x + 1; }\nP0() { add(); }\nDEAD1() { x = 0; }\ncounter { count x; add add; }',
    );
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    expect(whyNotLive(r.program)).toBeNull();
  });
});
