import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abs, thisCpu } from './builder.ts';
import {
  apply,
  enabledEvents,
  Ev,
  formatEvent,
  isTerminal,
  LegalMasks,
  makeEvent,
  whyIllegal,
} from './events.ts';
import { initialState } from './interpreter.ts';
import { CPU_CUR, CPU_FIELDS, CTX_CPU } from './machine.ts';
import { catalogue } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { kit } from './testkit.ts';
import { ReplayError } from './timeline.ts';

function legal(k: ReturnType<typeof kit>): string[] {
  const out: number[] = [];
  const n = enabledEvents(k.m, k.s, out);
  return out.slice(0, n).map(formatEvent);
}

/** Two CPUs; CPU0 runs two tasks; CPU0 has an IRQ and an NMI handler. */
const machine = () =>
  kit(2, (L) => {
    const lock = L.cell('lock', 'fbc->lock', 'lock');
    const x = L.cell('x', 'x', 's32');
    const slot = L.perCpu('slot', 'slot', 's32');
    return {
      taskCpus: [0, 0, 1],
      tasks: [
        // T0: preempt off around a store, then a locked store, then irq off around a store.
        (b) => {
          const r = b.reg('r');
          const f = b.reg('f');
          b.preemptDisable().store(abs(x), r).preemptEnable();
          b.spinLock(lock).store(abs(x), r).spinUnlock(lock);
          b.irqSave(f).store(abs(x), r).irqRestore(f);
          b.store(thisCpu(slot), r);
        },
        (b) => void b.store(abs(x), b.reg('r')),
        (b) => void b.store(abs(x), b.reg('r')),
      ],
      irq: [(b) => void b.store(abs(x), b.reg('r'))],
      nmi: [(b) => void b.store(abs(x), b.reg('r'))],
    };
  });

describe('enabledEvents and the legality rules of docs/machine.md', () => {
  it('at the start: steps, interrupts, preemption and migration of preemptible tasks', () => {
    const k = machine();
    expect(legal(k)).toEqual(['0', 'irq0', 'nmi0', 'pre0', 'mig0>1', '1', 'mig1>0']);
  });

  it('preempt_disable stops preemption and migration, not interrupts', () => {
    const k = machine();
    k.run('0');
    expect(legal(k)).toEqual(['0', 'irq0', 'nmi0', '1', 'mig1>0']);
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Preempt, 0))).toBe(
      'CPU 0 has preemption disabled (preempt_count 1)',
    );
  });

  it('a held spinlock says so in the reason', () => {
    const k = machine();
    k.run('0 0 0 0');
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Migrate, 0, 1))).toBe(
      'CPU 0 holds a spinlock: preemption is off (preempt_count 1)',
    );
  });

  it('interrupts off stop preemption and turn an IRQ into a pending one', () => {
    const k = machine();
    k.run('0*6 0');
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Preempt, 0))).toBe('CPU 0 has interrupts off');
    expect(legal(k)).toContain('irq0');
    k.run('irq0');
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Irq, 0))).toBe('an IRQ is already pending on CPU 0');
  });

  it('inside a handler the task cannot be preempted, and no NMI nests in an NMI', () => {
    const k = machine();
    k.run('irq0');
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Preempt, 0))).toBe('CPU 0 is in its IRQ handler');
    k.run('nmi0');
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Nmi, 0))).toBe('CPU 0 is already in its NMI handler');
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Migrate, 0, 1))).toBe('CPU 0 is in its NMI handler');
  });

  it('events on CPUs without handlers or beyond the machine are refused with a reason', () => {
    const k = machine();
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Irq, 1))).toBe(
      'this scenario has no IRQ handler on CPU 1',
    );
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Step, 7))).toBe(
      'CPU 7 does not exist (this machine has 2)',
    );
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Migrate, 0, 0))).toBe(
      'a task cannot migrate from CPU 0 to itself',
    );
    expect(() => k.run('irq1')).toThrow(ReplayError);
  });

  it('preempt switches to the next waiting task; the preempted one resumes later', () => {
    const k = machine();
    expect(k.run('pre0 0')).toEqual([
      'CPU0 preempts T0 and runs T1',
      'CPU0 (T1) writes x = 0; T1 finishes; CPU0 runs T0',
    ]);
    expect(whyIllegal(k.m, k.s, makeEvent(Ev.Preempt, 0))).toBe(
      'no other task is waiting on CPU 0',
    );
  });

  it('a task migrated to a busy CPU waits there until that CPU is free', () => {
    const k = machine();
    expect(k.run('mig0>1')).toEqual([
      'T0 is preempted on CPU0 and migrated to CPU1: it waits there behind T2; CPU0 runs T1',
    ]);
    k.run('1');
    expect(k.s[k.m.cpuOff + CPU_FIELDS + CPU_CUR]).toBe(0);
    expect(k.s[k.m.ctxOff + CTX_CPU]).toBe(1);
  });

  it('a state with a pending IRQ is not terminal', () => {
    const k = kit(1, (L) => {
      const x = L.cell('x', 'x', 's32');
      return {
        tasks: [(b) => void b.irqDisable().irqEnable()],
        irq: [(b) => void b.store(abs(x), b.reg('r'))],
      };
    });
    k.run('0 irq0');
    expect(isTerminal(k.m, k.s)).toBe(false);
    k.run('0');
    expect(isTerminal(k.m, k.s)).toBe(false);
    k.run('0');
    expect(isTerminal(k.m, k.s)).toBe(true);
    expect(legal(k)).toEqual(['irq0']);
  });

  it('property: enabledEvents lists exactly the events whyIllegal accepts, in every reachable state', () => {
    const k0 = machine();
    const candidates: number[] = [];
    for (let a = 0; a < 3; a++) {
      for (const t of [Ev.Step, Ev.Irq, Ev.Nmi, Ev.Preempt]) candidates.push(makeEvent(t, a));
      for (let j = 0; j < 3; j++) candidates.push(makeEvent(Ev.Migrate, a, j));
    }
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), (choices) => {
        const s = initialState(k0.m);
        const out: number[] = [];
        for (const c of choices) {
          const n = enabledEvents(k0.m, s, out);
          const listed = new Set(out.slice(0, n));
          for (const ev of candidates) {
            expect(listed.has(ev)).toBe(whyIllegal(k0.m, s, ev) === '');
          }
          if (n === 0) break;
          apply(k0.m, s, out[c % n] as number);
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('property: LegalMasks kept across events equals the legal events rebuilt at every state', () => {
    // Every scenario at its defaults and with 3 CPUs, where handlers, preemption and migration
    // all occur: after each event, the one or two masks `after` recomputes must leave every
    // mask, count and event as a full rebuild gives them.
    const machines = [machine().m];
    for (const sc of catalogue) {
      machines.push(sc.build(resolveParams(sc, {})).machine);
      if (sc.params.some((p) => p.name === 'cpus'))
        machines.push(sc.build(resolveParams(sc, { cpus: '3' })).machine);
    }
    for (const m of machines) {
      const legal = new LegalMasks(m);
      const full = new LegalMasks(m);
      const out: number[] = [];
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 80 }), (choices) => {
          const s = initialState(m);
          legal.reset(s);
          for (const c of choices) {
            full.reset(s);
            expect(legal.masks).toEqual(full.masks);
            expect(legal.counts).toEqual(full.counts);
            const n = enabledEvents(m, s, out);
            expect(legal.total).toBe(n);
            for (let i = 0; i < n; i++) expect(legal.event(i)).toBe(out[i]);
            if (n === 0) break;
            const ev = legal.event(c % n);
            apply(m, s, ev);
            legal.after(s, ev);
          }
        }),
        { seed: 11, numRuns: 40 },
      );
    }
  });
});
