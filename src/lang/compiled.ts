// What the compiler hands on: a compiled program (its machine, threads, counter anatomy, result
// slots) and the clauses it carries (observables, invariants, herd7's condition). A leaf: the
// compiler builds these (compile.ts, clauses.ts), the readers (evaluate.ts, builtins.ts,
// counter.ts) and every layer above take them, and none of them imports another to say so.

import type { ResultSlot } from '../machine/layout.ts';
import type { Machine } from '../machine/machine.ts';
import type { Anatomy } from './anatomy.ts';
import type { Expr, Item, Program } from './ast.ts';
import type { Module } from './module.ts';
import type { LineMap } from './source.ts';

export interface CompiledThread {
  readonly name: string;
  readonly role: 'P' | 'IRQ' | 'NMI' | 'DEAD';
  readonly index: number;
  readonly cpu: number;
  /** The machine context that runs it. */
  readonly ctx: number;
}

export interface CompiledProgram {
  /** The litmus name, or "program". */
  readonly name: string;
  readonly source: string;
  readonly ast: Program;
  readonly module: Module;
  readonly machine: Machine;
  readonly anatomy: Anatomy | null;
  readonly threads: readonly CompiledThread[];
  /** Result slots by name: record() names, `@sum:P1`, `@window:P1`. */
  readonly slots: ReadonlyMap<string, ResultSlot>;
  /** How many values each record() name may take (1: a single value, or null). */
  readonly recordCounts: ReadonlyMap<string, number>;
  /** Notes for listing lines (1-based), such as what a barrier does on this machine. */
  readonly notes: ReadonlyMap<number, readonly string[]>;
  /** The amount of every add of the counter. */
  readonly addAmounts: readonly bigint[];
  /** The final clause items, as written. */
  readonly clauseItems: readonly Item[];
  /** The observables, invariants and condition they make. */
  readonly clauses: ProgramClauses;
  readonly lines: LineMap;
}

/** A value read from a state; null where there is none yet (a record() not made). */
export type Scalar = bigint | null;

/** An observable's value: a number, a list (a record() made several times), or null. */
export type ClauseValue = number | bigint | readonly (number | bigint)[] | null;

export interface LangObservable {
  readonly name: string;
  readonly description: string;
  /** It reads cpu_online_mask or cpu_dying_mask: people read its value as a set of CPUs. */
  readonly cpuSet?: true;
  readonly read: (m: Machine, s: Int32Array) => ClauseValue;
}

/** herd7's final condition: `exists P`, `~exists P` or `forall P`. */
export interface Condition {
  readonly quantifier: 'exists' | '~exists' | 'forall';
  /** As written, e.g. "(0:r0=0 /\ 1:r0=0)". */
  readonly text: string;
  /** The proposition, for printing it as herd7 does. */
  readonly prop: Expr;
  readonly holds: (m: Machine, s: Int32Array) => boolean;
}

export interface ProgramClauses {
  readonly observables: readonly LangObservable[];
  readonly invariants: readonly LangInvariant[];
  readonly condition: Condition | null;
  /** herd7's `filter`: end states that fail it are not counted. */
  readonly filter: ((m: Machine, s: Int32Array) => boolean) | null;
  /** What herd7 prints of an end state: the `locations` and what the condition reads, sorted. */
  readonly herdLocations: readonly {
    readonly text: string;
    /** A register (`1:r0`), printed as it is; else memory, printed `[x]`. */
    readonly register: boolean;
    readonly read: (m: Machine, s: Int32Array) => Scalar;
  }[];
}

export interface LangInvariant {
  readonly id: string;
  readonly when: 'final' | 'always';
  readonly description: string;
  /** Why state s breaks it, or null. */
  readonly check: (m: Machine, s: Int32Array) => string | null;
  /** It reads only what sums and reads returned (Explore's partial-order reduction may use it). */
  readonly reads?: 'results';
}
