// The interpreted engine: the model's own `step`, one instruction at a time, on the shared state.
// Slower by an order of magnitude than the compiled engine, and the reference it is tested
// against; lockstep replay and `--engine interpreted` use it.

import {
  cpuBase,
  ctxBase,
  CPU_IRQS,
  CTX_PC,
  CTX_RETRIES,
  type Machine,
} from '../../machine/machine.ts';
import { step, topContext } from '../../machine/interpreter.ts';
import { type Instr, Kind, Op } from '../../machine/isa.ts';
import { resultSlots } from '../memory.ts';
import { Burst, type Counters, type Engine, restartTask, zeroCounters } from './engine.ts';

export function interpretedEngine(
  m: Machine,
  s: Int32Array,
  k: number,
  /** The 64-bit view of `s` that makes single-step 64-bit accesses atomic (see `step`). */
  wide: BigInt64Array | null,
): Engine {
  const counters: Counters = zeroCounters();
  const slots = m.code.map((code) => resultSlots(m, code));
  const irqCount = cpuBase(m, k) + CPU_IRQS;
  const engine = {
    kind: 'interpreted' as const,
    tier: 'exact' as const,
    steps: 0,
    counters,
    run(c: number, budget: number, repeat: boolean): number {
      const code = m.code[c] as readonly Instr[];
      const cb = ctxBase(m, c);
      let left = budget;
      let exit: number = Burst.Budget;
      for (;;) {
        const pc = s[cb + CTX_PC] as number;
        const ins = code[pc] as Instr;
        // Nothing comes between the two halves of a local-atomic instruction.
        if (left <= 0 && !ins.tail) break;
        left--;
        if (ins.kind === Kind.Fold) counters.folds++;
        else if (ins.kind === Kind.SeqBump) counters.bumps++;
        const irqs = s[irqCount] as number;
        step(m, s, k, null, wide);
        const next = s[cb + CTX_PC] as number;
        if (next === pc && ins.op === Op.SpinLock) counters.spins++;
        if (next >= code.length) {
          // Finished by `step`; an adder alone on its CPU starts its next operation at once.
          if (repeat && c < m.tasks && topContext(m, s, k) < 0) {
            const took = s[cb + CTX_RETRIES] as number;
            counters.repeats++;
            counters.retried += took;
            if (took > counters.maxRetries) counters.maxRetries = took;
            restartTask(m, s, k, c, slots[c] as number[]);
            continue;
          }
          exit = Burst.Stopped;
          break;
        }
        if (s[irqCount] !== irqs) {
          exit = Burst.Stopped; // an IRQ came in as interrupts came back on
          break;
        }
      }
      engine.steps = budget - left;
      return exit;
    },
  };
  return engine;
}
