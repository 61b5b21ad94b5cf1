// Small helpers for the machine's own tests: build a machine from a few lines of builder code and
// drive it with schedule strings.

import { ProgramBuilder } from './builder.ts';
import { applyChecked } from './events.ts';
import { initialState, newTrace } from './interpreter.ts';
import { LayoutBuilder } from './layout.ts';
import { compile, type Machine } from './machine.ts';
import { describeStep } from './narrate.ts';
import { parseSchedule } from './schedule.ts';
import type { Program } from './isa.ts';

export interface Kit {
  readonly m: Machine;
  s: Int32Array;
  /** Applies a schedule string; returns the narration of each step. */
  run(schedule: string): string[];
  word(addr: number): number;
}

/**
 * A machine with `cpus` CPUs; `setup` declares cells on the layout and returns, per CPU, a
 * function that writes that CPU's task (and optionally IRQ / NMI handlers).
 */
export function kit(
  cpus: number,
  setup: (L: LayoutBuilder) => {
    tasks: ((b: ProgramBuilder) => void)[];
    irq?: ((b: ProgramBuilder) => void)[];
    nmi?: ((b: ProgramBuilder) => void)[];
    wordBits?: 32 | 64;
    loadOrder?: 'lo-hi' | 'hi-lo';
    taskCpus?: number[];
  },
): Kit {
  const L = new LayoutBuilder(cpus);
  const def = setup(L);
  const wordBits = def.wordBits ?? 64;
  const prog = (name: string, f: (b: ProgramBuilder) => void): Program => {
    const b = new ProgramBuilder(name, { wordBits, loadOrder: def.loadOrder ?? 'lo-hi' });
    f(b);
    return b.build();
  };
  const m = compile({
    cpus,
    wordBits,
    layout: L.build(),
    tasks: def.tasks.map((f, i) => ({
      name: `T${i}`,
      cpu: def.taskCpus?.[i] ?? i,
      program: prog(`T${i}`, f),
    })),
    irq: def.irq?.map((f, k) => prog(`irq${k}`, f)),
    nmi: def.nmi?.map((f, k) => prog(`nmi${k}`, f)),
  });
  const k: Kit = {
    m,
    s: initialState(m),
    run(schedule) {
      const out: string[] = [];
      const trace = newTrace();
      for (const ev of parseSchedule(schedule)) {
        const before = k.s.slice();
        applyChecked(m, k.s, ev, trace);
        out.push(describeStep(m, before, k.s, ev, trace).text);
      }
      return out;
    },
    word: (addr) => k.s[addr] as number,
  };
  return k;
}
