// A program's counter, read from a state the way every screen needs it: its value in memory, the
// exact total it should hold, its cheap read and that read's bound, its per-CPU deltas and batch,
// and the slots where each summer's sum() and its window are recorded. The built-in invariants,
// Live's readout and Scaling read the counter through this, whatever the program calls its parts.

import { unwrap32 } from '../machine/int64.ts';
import type { Machine } from '../machine/machine.ts';
import type { CompiledProgram } from './compiled.ts';
import { counterReading, exactValue, readerOf } from './evaluate.ts';

export interface CounterRead {
  /** The function, as the program names it: `percpu_counter_read`, `get_nr_files`. */
  readonly name: string;
  /** Its value in a state (null where it cannot be read yet), wrapped as its type wraps. */
  readonly value: (m: Machine, s: Int32Array) => bigint | null;
  /** How far it may be from the exact total at rest, or null where the program does not say. */
  readonly bound: bigint | null;
  /** The bound as written: `(BATCH - 1) * NR_CPUS`. */
  readonly boundText: string | null;
}

/** Where one summer thread records what its sum() returned, and the exact totals around it. */
export interface SummerSlots {
  readonly thread: string;
  readonly sum: string;
  readonly window: string;
}

export interface CounterReaders {
  /** count + deltas + parts in a state (an int counter read the way it wraps). */
  readonly value: (m: Machine, s: Int32Array) => bigint;
  /** The initial value plus everything the adds added. */
  readonly exact: (m: Machine, s: Int32Array) => bigint;
  readonly read: CounterRead | null;
  /** The per-CPU deltas' variable, or null. */
  readonly deltas: string | null;
  readonly batch: number | null;
  readonly summers: readonly SummerSlots[];
  /** The functions that add, as declared. */
  readonly adds: readonly string[];
  /** The sum function, or null. */
  readonly sum: string | null;
}

/** The readers of a program's counter, or null when it declares none. */
export function counterReaders(p: CompiledProgram): CounterReaders | null {
  const a = p.anatomy;
  if (!a) return null;
  let read: CounterRead | null = null;
  if (a.read) {
    const call = a.read;
    const reader = readerOf(p, call);
    // A read of 32 bits (get_nr_files()'s int) wraps after 2^32 adds; read it the way it wraps.
    const fn = p.module.functions.get(call.callee);
    const narrow = fn?.ret.k === 'int' && fn.ret.bits === 32;
    read = {
      name: p.source.slice(call.calleeSpan.start, call.calleeSpan.end),
      value: (m, s) => {
        const v = reader(m, s);
        return v === null || !narrow ? v : BigInt(unwrap32(v, exactValue(p, m, s)));
      },
      bound: a.error ? p.module.constant(a.error) : null,
      boundText: a.error ? p.source.slice(a.error.span.start, a.error.span.end) : null,
    };
  }
  return {
    value: (m, s) => counterReading(p, m, s),
    exact: (m, s) => exactValue(p, m, s),
    read,
    deltas: a.deltas?.name ?? null,
    batch: a.batch ? Number(p.module.constant(a.batch)) : null,
    summers: p.threads
      .filter((t) => p.slots.has(`@sum:${t.name}`))
      .map((t) => ({ thread: t.name, sum: `@sum:${t.name}`, window: `@window:${t.name}` })),
    adds: [...a.adds.keys()],
    sum: a.sum,
  };
}
