// What a scenario is: a machine configuration plus everything a lesson and a verdict need.

import type { Budget } from '../machine/budget.ts';
import type { LayoutOptions } from '../machine/layout.ts';
import type { Machine, MemoryModel } from '../machine/machine.ts';
import type { CompiledProgram } from '../lang/compiled.ts';

export type ParamValue = number | string | readonly number[];
export type Params = Readonly<Record<string, ParamValue>>;

interface ParamBase {
  readonly name: string;
  readonly description: string;
}

/** An integer within [min, max]. */
export interface IntParam extends ParamBase {
  readonly kind: 'int';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

/** One of a few named choices (a variant, a preset). */
export interface ChoiceParam extends ParamBase {
  readonly kind: 'choice';
  readonly default: string;
  readonly choices: readonly string[];
}

/** A comma-separated list of integers, e.g. initial per-CPU slots "10,31,-5,0". */
export interface ListParam extends ParamBase {
  readonly kind: 'list';
  readonly default: readonly number[];
  readonly min: number;
  readonly max: number;
  readonly maxLength: number;
}

export type ParamSpec = IntParam | ChoiceParam | ListParam;

/** A value an outcome reports: 64-bit values are bigints beyond 2^53. */
export type Value = number | bigint | readonly (number | bigint)[] | null;
export type Observables = Readonly<Record<string, Value>>;

export interface ObservableSpec {
  readonly name: string;
  readonly description: string;
  readonly read: (m: Machine, s: Int32Array, p: Params) => Value;
  /** A cpumask (cpu_online_mask, cpu_dying_mask): shown as the set of CPUs it holds, `{0,2}`. */
  readonly cpuSet?: true;
}

export interface InvariantSpec {
  /** Stable id (appears in the CLI, URLs and tests), e.g. "no-lost-update". */
  readonly id: string;
  /** final: judged on terminal states; always: judged at every state. */
  readonly when: 'final' | 'always';
  readonly description: string;
  /**
   * For final invariants: the reason it is violated, or null. Judged from the observables (and,
   * for a typed program's invariants, the terminal state they were read from).
   */
  readonly final?: (o: Observables, p: Params, m: Machine, s: Int32Array) => string | null;
  /** For always invariants: the reason it is violated in state s, or null. */
  readonly always?: (m: Machine, s: Int32Array, p: Params) => string | null;
  /**
   * For always invariants: 'results' when it reads only the results region (what sums and reads
   * returned). Explore's partial-order reduction may then reorder steps that write memory only
   * one CPU can reach, since no such step can change the verdict (src/explore/por.ts).
   */
  readonly reads?: 'results';
}

/** Interventions Explore allows by default (machine/budget.ts). */
export type ExploreBounds = Budget;

/** A named schedule that reproduces an interleaving a source describes, with the values it must end with. */
export interface Witness {
  readonly name: string;
  readonly description: string;
  /** Parameters it needs (the rest take their defaults). */
  readonly params: Params;
  readonly schedule: string;
  readonly expect: Observables;
  /** Invariants this witness shows broken (empty for a witness of a correct run). */
  readonly violates: readonly string[];
}

export interface Lesson {
  /** What the scenario shows, in a few sentences. */
  readonly summary: string;
  /** The question to ask the class before the reveal. */
  readonly question: string;
  readonly answer: string;
}

/** A pseudo-C listing written for teaching (not kernel code), numbered from 1. */
export interface Listing {
  readonly lines: readonly string[];
  /** Modelling choices and idealisations the reader should know about. */
  readonly notes: readonly string[];
}

/** A named parameter set; it may depend on other parameters (batch = max(32, 2 × cpus)). */
export interface Preset {
  readonly description: string;
  /** The values it sets, given the parameters so far. */
  readonly apply: (p: Params) => Params;
}

/** How to lay out an instance's memory (the model's default is compact), and for whom. */
export type BuildOptions = LayoutOptions & {
  /**
   * For live CPUs: a typed program's loops then run unbounded (a real CPU has no loop bound);
   * the model stops a loop that carries state at its bound (docs/language.md).
   */
  readonly live?: boolean;
  /**
   * The memory model, overriding the `memory` parameter (which a live build ignores: real CPUs
   * bring their own). A lockstep replay sets it to keep the model's store buffers.
   */
  readonly memory?: MemoryModel;
};

export interface ScenarioInstance {
  readonly params: Params;
  readonly machine: Machine;
  readonly listing: Listing;
}

export interface Scenario {
  /** Stable id. */
  readonly id: string;
  readonly title: string;
  /** Era/thread group for the picker. */
  readonly group: string;
  /** Kernel version, commit or Message-ID the scenario follows. */
  readonly source: string;
  readonly summary: string;
  /** True for designs whose code is lost: a teaching model reconstructed from the mails. */
  readonly reconstruction: boolean;
  readonly params: readonly ParamSpec[];
  /** Named parameter sets, e.g. "kernel" with the kernel's values. */
  readonly presets: Readonly<Record<string, Preset>>;
  readonly build: (p: Params, opts?: BuildOptions) => ScenarioInstance;
  /**
   * The program as text for these parameters (docs/language.md): what "Edit a copy" opens and
   * `lab export` prints. A typed program's own source; absent where a scenario is not text yet.
   */
  readonly text?: (p: Params) => string;
  /** The compiled program behind `build` (its counter, clauses and names); text scenarios only. */
  readonly program?: (p: Params, opts?: BuildOptions) => CompiledProgram;
  /** What an outcome reports; may depend on the parameters (e.g. one `slotN` per CPU). */
  readonly observables: (p: Params) => readonly ObservableSpec[];
  readonly invariants: readonly InvariantSpec[];
  /** Handlers the scenario installs, described for people (e.g. "IRQ on CPU0: c += 5"). */
  readonly handlers: readonly string[];
  readonly bounds: ExploreBounds;
  /**
   * Invariants that hold in every schedule within the default bounds, per variant (key: the
   * `variant` parameter's value, or "*" for a scenario without variants). Property tests check
   * each claim over random schedules; a variant not listed guarantees nothing.
   */
  readonly guarantees: Readonly<Record<string, readonly string[]>>;
  /**
   * Per variant (or "*"), the preset Explore proposes when the default parameters show, within
   * the default bounds, none of the violations of an invariant that the variant gives up
   * (src/explore/teach.ts; a test holds every scenario to it).
   */
  readonly explorePresets?: Readonly<Record<string, string>>;
  readonly witnesses: readonly Witness[];
  readonly lesson: Lesson;
}
