// Reading a state the way people see it: where an instruction's memory operand is, and the
// fields of a CPU or a context. The one home of "which word does this instruction touch": the
// interpreter, the narration, Explore's reductions and the charts all ask here. Hot loops in
// explore/ and live/ may still read raw offsets (cpuBase, ctxBase and the field constants).

import { pairValue } from './int64.ts';
import type { Instr } from './isa.ts';
import { Mode, pointerAddress } from './isa.ts';
import { ctxBase, CTX_CPU, CTX_PC, CTX_REGS, cpuBase, type Machine } from './machine.ts';

/**
 * The word address of `ins`'s memory operand when the context whose record starts at `cb` runs
 * it in state s (a per-CPU operand is the element of the CPU the context is on now), or −1 when
 * it has none. Not bounds-checked: the interpreter checks before it touches memory.
 */
export function operandAddress(s: Int32Array, cb: number, ins: Instr): number {
  switch (ins.mode) {
    case Mode.Abs:
      return ins.base;
    case Mode.ThisCpu:
      return ins.base + (s[cb + CTX_CPU] as number) * ins.stride;
    case Mode.Reg:
      return pointerAddress(s[cb + CTX_REGS + 2 * ins.areg] as number);
    case Mode.Indexed:
      return ins.base + (s[cb + CTX_REGS + 2 * ins.areg] as number) * ins.stride;
    default:
      return -1;
  }
}

/** Field `field` (CPU_PREEMPT, CPU_IRQ_ON…) of CPU k in state s. */
export function cpuField(m: Machine, s: Int32Array, k: number, field: number): number {
  return s[cpuBase(m, k) + field] as number;
}

/** Field `field` (CTX_PC, CTX_CPU…) of context c in state s. */
export function ctxField(m: Machine, s: Int32Array, c: number, field: number): number {
  return s[ctxBase(m, c) + field] as number;
}

/** Register r of context c in state s, as a number (or a bigint beyond 2^53). */
export function registerValue(m: Machine, s: Int32Array, c: number, r: number): number | bigint {
  const at = ctxBase(m, c) + CTX_REGS + 2 * r;
  return pairValue(s[at] as number, s[at + 1] as number);
}

/** The instruction context c runs next, or undefined when it has finished. */
export function nextInstr(m: Machine, s: Int32Array, c: number): Instr | undefined {
  return m.code[c]?.[ctxField(m, s, c, CTX_PC)];
}
