// Small helpers for the machine's own tests: build a machine from a few lines of builder code and
// drive it with schedule strings.

import { ProgramBuilder } from './builder.ts';
import { initialState } from './interpreter.ts';
import { LayoutBuilder } from './layout.ts';
import { compile, type Machine } from './machine.ts';
import { parseSchedule } from './schedule.ts';
import { currentState, startTimeline, takeEvents } from './timeline.ts';
import type { Program } from './isa.ts';

export interface Kit {
  readonly m: Machine;
  s: Int32Array;
  /** Applies a schedule string; returns the narration of each step (ReplayError if illegal). */
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
      const t = takeEvents(startTimeline(m, k.s), parseSchedule(schedule));
      k.s = currentState(t).slice();
      return t.steps.map((st) => st.text);
    },
    word: (addr) => k.s[addr] as number,
  };
  return k;
}
