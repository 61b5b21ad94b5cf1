// What a live CPU runs its contexts with: the model's interpreter, or the same programs compiled
// to WebAssembly. Both run bursts with one meaning, so the CPU loop (cpu.ts) does not care which:
//
//   run(c, budget, repeat) runs context c, the top of this CPU, for at most `budget` steps, and
//   stops after the step in which c's program ended or an IRQ was delivered on this CPU. The
//   state afterwards is exactly what the model's `step` would make of it, step after step; with
//   `repeat`, a task that ends instead restarts at once, as the loop would restart it (counted in
//   `repeats`), so a one-instruction add does not come back to JavaScript after every add.

import {
  cpuBase,
  ctxBase,
  CPU_CUR,
  CPU_TASKS,
  CTX_DONE,
  CTX_PC,
  CTX_REGS,
  CTX_RETRIES,
  type Machine,
} from '../../machine/machine.ts';
import { runLocals } from '../../machine/interpreter.ts';
import type { Instr } from '../../machine/isa.ts';

/** How a burst ended. */
export const Burst = {
  /** The budget ran out at an instruction boundary. */
  Budget: 0,
  /** Context c's program ended, or an IRQ was delivered on this CPU. */
  Stopped: 1,
} as const;

export type EngineKind = 'compiled' | 'interpreted';
export const ENGINES: readonly EngineKind[] = ['compiled', 'interpreted'];

/**
 * Which code a compiled CPU runs: exact (every event may land anywhere) or bare (no event can
 * fall due: no budget kept, nothing checked between instructions; wasm/codegen.ts). choose.ts
 * picks one for a run.
 */
export type Tier = 'exact' | 'bare';
export const TIERS: readonly Tier[] = ['bare', 'exact'];

/** Cumulative counts of what the bursts did (the loop turns them into statistics and notes). */
export interface Counters {
  /** Batch overflows folded into the global count. */
  folds: number;
  /** Sequence counter bumps. */
  bumps: number;
  /** Steps spent spinning on a held lock. */
  spins: number;
  /** Operations that ended and restarted in place. */
  repeats: number;
  /** Sum retries taken by those operations, and the most one of them took. */
  retried: number;
  maxRetries: number;
}

export function zeroCounters(): Counters {
  return { folds: 0, bumps: 0, spins: 0, repeats: 0, retried: 0, maxRetries: 0 };
}

export interface Engine {
  readonly kind: EngineKind;
  /**
   * exact: every burst ends at the step its budget says, where an event may land; bare (compiled
   * only): the budget counts operations, and no event may come (see wasm/codegen.ts).
   */
  readonly tier: Tier;
  /** Runs a burst (see above); returns how it ended (a `Burst`), with `steps` set. */
  run(c: number, budget: number, repeat: boolean): number;
  /** Steps the last burst executed (spins included); 0 in the bare tier, which counts none. */
  readonly steps: number;
  readonly counters: Readonly<Counters>;
}

/**
 * Puts finished task t back on CPU k's runqueue, fresh, for its next operation: registers and
 * result counts cleared, leading local instructions run, retries restarted (per call).
 */
export function restartTask(
  m: Machine,
  s: Int32Array,
  k: number,
  t: number,
  slots: readonly number[],
): void {
  const b = cpuBase(m, k);
  const cb = ctxBase(m, t);
  s.fill(0, cb + CTX_REGS, ctxBase(m, t + 1));
  for (const at of slots) s[at] = 0;
  s[cb + CTX_PC] = runLocals(m, s, cb, m.code[t] as readonly Instr[], 0, null);
  s[cb + CTX_DONE] = 0;
  s[cb + CTX_RETRIES] = 0;
  s[b + CPU_TASKS] = (s[b + CPU_TASKS] as number) + 1;
  if (s[b + CPU_CUR] === -1) s[b + CPU_CUR] = t;
}
