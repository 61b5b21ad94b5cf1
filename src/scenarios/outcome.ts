// Outcomes: a scenario's observables read from a state, and its invariants judged on them.

import type { Machine } from '../machine/machine.ts';
import { cpuSetText } from '../machine/read.ts';
import type { Observables, Params, Scenario, Value } from './types.ts';

export interface Violation {
  readonly id: string;
  readonly reason: string;
}

/** Every observable of the scenario, read from state s. */
export function observe(sc: Scenario, m: Machine, s: Int32Array, p: Params): Observables {
  const out: Record<string, Value> = {};
  for (const o of sc.observables(p)) out[o.name] = o.read(m, s, p);
  return out;
}

/** The final invariants that a terminal outcome (observables o of state s) violates. */
export function finalViolations(
  sc: Scenario,
  o: Observables,
  p: Params,
  m: Machine,
  s: Int32Array,
): Violation[] {
  const out: Violation[] = [];
  for (const inv of sc.invariants) {
    if (inv.when !== 'final' || !inv.final) continue;
    const reason = inv.final(o, p, m, s);
    if (reason !== null) out.push({ id: inv.id, reason });
  }
  return out;
}

/** The always invariants that state s violates. */
export function alwaysViolations(sc: Scenario, m: Machine, s: Int32Array, p: Params): Violation[] {
  const out: Violation[] = [];
  for (const inv of sc.invariants) {
    if (inv.when !== 'always' || !inv.always) continue;
    const reason = inv.always(m, s, p);
    if (reason !== null) out.push({ id: inv.id, reason });
  }
  return out;
}

/** An observable value as JSON (a 64-bit value as a decimal string): plain data, for any thread. */
export type JsonValue = number | string | readonly (number | string)[] | null;

/** Observable values as JSON: 64-bit values beyond 2^53 − 1 become decimal strings. */
export function jsonValue(v: Value): JsonValue {
  if (v === null || typeof v === 'number') return v;
  if (typeof v === 'bigint') return v.toString();
  return v.map((x) => (typeof x === 'bigint' ? x.toString() : x));
}

export function jsonObservables(o: Observables): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, jsonValue(v)]));
}

/**
 * An observable as people read it: a number, a list `a,b`, or "not recorded" for a record() the
 * run never made (a reader that an IRQ never ran).
 */
export function observableText(v: unknown): string {
  if (v === null || v === undefined) return 'not recorded';
  if (Array.isArray(v)) return v.map((x: unknown) => observableText(x)).join(',');
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') return String(v);
  return JSON.stringify(v);
}

/**
 * Observables as people read them: a cpumask observable (cpu_online_mask) as its set of CPUs,
 * `{0,2}`, the rest as they are. For text only: outcomes compare and export the numbers.
 */
export function shownObservables(
  sc: Scenario,
  p: Params,
  o: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const sets = sc.observables(p).filter((x) => x.cpuSet === true);
  if (sets.length === 0) return o;
  const out: Record<string, unknown> = { ...o };
  for (const x of sets) {
    const v = o[x.name];
    if (typeof v === 'number' || typeof v === 'bigint') out[x.name] = cpuSetText(v);
  }
  return out;
}

/** A run's observables on one line: `nr=1 exact=2 read=not recorded`. */
export function observablesLine(o: Readonly<Record<string, unknown>>): string {
  return Object.entries(o)
    .map(([k, v]) => `${k}=${observableText(v)}`)
    .join(' ');
}

/** Two observable sets are the same outcome (bigints and numbers compared by value). */
export function outcomeKey(o: Observables): string {
  return JSON.stringify(jsonObservables(o));
}
