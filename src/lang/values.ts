// What an expression stands for while a thread is compiled: a value (a constant, a register, or
// a pointer the compiler knows at compile time) or a place (a local variable, a word of memory,
// a per-CPU variable, a global struct). Pointers to globals are resolved at compile time, as the
// kernel's `struct percpu_counter *fbc` always points to the one counter a test uses; a pointer
// the program computes (this_cpu_ptr(), one loaded from memory) lives in a register.

import type { PerCpuCell } from '../machine/layout.ts';
import type { Reg } from './emit.ts';
import type { Storage, StructObject } from './module.ts';
import type { Ty } from './types.ts';

export type Val =
  | { readonly k: 'const'; readonly v: bigint; readonly ty: Ty }
  /** A value in a register; a pointer says what it points into, where that is known. */
  | { readonly k: 'reg'; readonly r: Reg; readonly ty: Ty; readonly points?: Storage }
  /** &x for a word of memory the compiler knows. */
  | { readonly k: 'addr'; readonly place: MemPlace; readonly ty: Ty }
  /** A per-CPU pointer: &v for DEFINE_PER_CPU(T, v), or a struct's `T __percpu *` field. */
  | { readonly k: 'pcpu'; readonly pc: PerCpuCell; readonly elem: Ty; readonly ty: Ty }
  /** per_cpu_ptr(p, cpu): CPU cpu's element of a per-CPU variable. */
  | {
      readonly k: 'elem';
      readonly pc: PerCpuCell;
      readonly elem: Ty;
      readonly idx: Val;
      readonly ty: Ty;
    }
  /** &s for a global struct. */
  | { readonly k: 'obj'; readonly obj: StructObject; readonly ty: Ty }
  | { readonly k: 'void' };

/** A word (or two) of memory: where, its type, and what it belongs to (for kinds and tallies). */
export interface MemPlace {
  readonly k: 'mem';
  readonly mode: number;
  readonly base: number;
  readonly stride: number;
  /** The address (Mode.Reg) or CPU index (Mode.Indexed) register, or null. */
  readonly reg: Reg | null;
  readonly ty: Ty;
  /** The cell or per-CPU variable it is part of, or null when the compiler cannot tell. */
  readonly owner: string | null;
}

export type Place =
  | { readonly k: 'local'; readonly r: Reg; readonly ty: Ty; readonly name: string }
  | MemPlace
  /** A per-CPU variable as a whole, the operand of this_cpu_*() and per_cpu(). */
  | { readonly k: 'pcpuvar'; readonly pc: PerCpuCell; readonly elem: Ty }
  | { readonly k: 'obj'; readonly obj: StructObject };
