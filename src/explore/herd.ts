// Explore's answer for a program with a final condition, in herd7's words, so a kernel developer
// reads it as herd7's: the states (over the locations the condition and `locations` name), Ok or
// No, the witnesses, and `Observation <name> Never|Sometimes|Always`. One difference, said in
// docs/language.md: Positive and Negative count end states here, where herd7 counts executions.

import type { CompiledProgram } from '../lang/compiled.ts';
import { apply } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import type { ExploreResult } from './explore.ts';

export interface HerdVerdict {
  /** "Allowed" for exists and ~exists, "Required" for forall (herd7's words). */
  readonly kind: 'Allowed' | 'Required';
  /** Each end state over the herd locations, as herd7 prints it: "0:r0=0; 1:r0=1;". */
  readonly states: readonly string[];
  /** Whether the condition is validated (exists: some state has it; ~exists: none; forall: all). */
  readonly ok: boolean;
  /** End states where the condition's proposition holds, and where it does not. */
  readonly positive: number;
  readonly negative: number;
  readonly observation: 'Never' | 'Sometimes' | 'Always';
  /** herd7's text. */
  readonly text: string;
}

/** The end state an explorer witness leads to. */
function endState(m: Machine, events: readonly number[]): Int32Array {
  const s = initialState(m);
  for (const ev of events) apply(m, s, ev);
  return s;
}

/** herd7's verdict on a program's exploration, or null when the program has no condition. */
export function herdVerdict(
  p: CompiledProgram,
  machine: Machine,
  r: ExploreResult,
): HerdVerdict | null {
  const cond = p.clauses.condition;
  if (!cond) return null;
  const filter = p.clauses.filter;
  const locations = p.clauses.herdLocations;
  const seen = new Map<string, boolean>();
  for (const o of r.outcomes) {
    if (!o.terminal) continue;
    const s = endState(machine, o.witness.events);
    if (filter && !filter(machine, s)) continue;
    const line = locations
      .map((l) => {
        const v = l.read(machine, s);
        return `${l.text}=${v === null ? '?' : String(v)};`;
      })
      .join(' ');
    if (!seen.has(line)) seen.set(line, cond.holds(machine, s));
  }
  const states = [...seen.keys()].sort();
  const positive = [...seen.values()].filter(Boolean).length;
  const negative = seen.size - positive;
  const ok =
    cond.quantifier === 'exists'
      ? positive > 0
      : cond.quantifier === '~exists'
        ? positive === 0
        : negative === 0;
  const observation = positive === 0 ? 'Never' : negative === 0 ? 'Always' : 'Sometimes';
  const kind = cond.quantifier === 'forall' ? 'Required' : 'Allowed';
  const name = p.name;
  const text = [
    `Test ${name} ${kind}`,
    `States ${states.length}`,
    ...states,
    ok ? 'Ok' : 'No',
    'Witnesses',
    `Positive: ${positive} Negative: ${negative}`,
    `Condition ${cond.quantifier} ${cond.text.startsWith('(') ? cond.text : `(${cond.text})`}`,
    `Observation ${name} ${observation} ${positive} ${negative}`,
    `Time ${name} ${(r.stats.ms / 1000).toFixed(2)}`,
  ].join('\n');
  return { kind, states, ok, positive, negative, observation, text };
}
