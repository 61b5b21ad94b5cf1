// A program's answer in herd7's words, from the end states an engine found: the states (over the
// locations the condition and `locations` name), Ok or No, the witnesses, the flags, the
// condition as herd7 prints it, and `Observation <name> Never|Sometimes|Always`. Both engines
// answer through here: the axiomatic one (memory lkmm) counts consistent executions, as herd7
// does; the explorer (sc, tso) counts each outcome once, and says so. Every answer names its model on
// a line of its own (`Model lkmm`), which herd7's readers skip.

import { pointee } from '../machine/read.ts';
import type { Machine } from '../machine/machine.ts';
import type { Expr } from './ast.ts';
import type { CompiledProgram } from './compiled.ts';

/** An end state and how many executions (or explored end states: 1 each) reach it. */
export interface EndState {
  readonly state: Int32Array;
  readonly count: number;
}

export type ModelName = 'sc' | 'tso' | 'lkmm';

export interface HerdAnswer {
  readonly model: ModelName;
  /** herd7's words: Allowed for exists, Forbidden for ~exists, Required for forall. */
  readonly kind: 'Allowed' | 'Forbidden' | 'Required';
  /** Each end state over the herd locations, as herd7 prints it: "1:r0=0; [x]=1;". */
  readonly states: readonly string[];
  /** Whether the condition is validated (exists: some state has it; ~exists: none; forall: all). */
  readonly ok: boolean;
  /** Some runs went past a loop bound and were left out (herd7 prints `Loop Ok`). */
  readonly loop: boolean;
  /** As herd7 prints them: executions where the proposition holds and not (swapped for ~exists). */
  readonly positive: number;
  readonly negative: number;
  /**
   * What Positive and Negative count: consistent executions (lkmm, and sc or tso where the
   * axiomatic engine can count them), or `states`: each outcome once (the explorer's own count).
   */
  readonly counts: 'executions' | 'states';
  readonly observation: 'Never' | 'Sometimes' | 'Always';
  readonly flags: readonly string[];
  /** The condition as herd7 prints it: `exists ([x]=1 /\ 1:r0=0)`. */
  readonly condition: string;
  /** herd7's text, with a `Model` line. */
  readonly text: string;
}

export interface HerdOptions {
  readonly model: ModelName;
  readonly flags?: readonly string[];
  readonly loop?: boolean;
  readonly seconds?: number;
  /** The Hash= line's value, where it is known. */
  readonly hash?: string;
}

/**
 * herd7's unresolved values (`S8`: a value only copies justify) as an end state holds them: a
 * word no program computes, SYMBOL_BASE less the number herd7 prints.
 */
const SYMBOL_BASE = -0x7000_0000;
const SYMBOL_COUNT = 0x10_0000;

/** The state word for herd7's unresolved value S`n`. */
export function symbolWord(n: number): number {
  return SYMBOL_BASE - Math.min(Math.max(n, 0), SYMBOL_COUNT - 1);
}

/** The number of herd7's unresolved value a word stands for, or null for any other value. */
export function symbolNumber(v: bigint | number): number | null {
  const d = SYMBOL_BASE - Number(v);
  return Number.isInteger(d) && d >= 0 && d < SYMBOL_COUNT ? d : null;
}

/** A value as herd7 prints it: a pointer as the name of what it points to, else the number. */
export function herdValue(m: Machine, v: bigint | null): string {
  if (v === null) return '?';
  const s = symbolNumber(v);
  if (s !== null) return `S${String(s)}`;
  const p = pointee(m, v);
  if (p) return p.cpu >= 0 ? `${p.name}[${String(p.cpu)}]` : p.name;
  return String(v);
}

/** An end state as herd7 prints it (`1:r0=0; [x]=1;`), and its column values for sorting. */
export function herdLine(
  p: CompiledProgram,
  state: Int32Array,
): { line: string; values: string[] } {
  const m = p.machine;
  const locations = p.clauses.herdLocations;
  const values = locations.map((l) => herdValue(m, l.read(m, state)));
  const line = locations
    .map((l, i) => `${l.register ? l.text : `[${l.text}]`}=${values[i] as string};`)
    .join(' ');
  return { line, values };
}

/**
 * herd7's order of values in a column: unresolved values (by number), then numbers (by value),
 * then names (by name).
 */
function compareValues(a: string, b: string): number {
  const sa = /^S(\d+)$/.exec(a);
  const sb = /^S(\d+)$/.exec(b);
  if (sa && sb) return Number(sa[1]) - Number(sb[1]);
  if (sa || sb) return sa ? -1 : 1;
  const na = /^-?\d+$/.test(a);
  const nb = /^-?\d+$/.test(b);
  if (na && nb) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A location in a condition, as herd7 prints it: `1:r0`, or `[x]` for memory. */
function printLocation(e: Expr): string {
  switch (e.kind) {
    case 'regref':
      return `${e.thread}:${e.name}`;
    case 'name':
      return `[${e.name}]`;
    case 'index':
      return printLocation(e.object);
    default:
      return `[?]`;
  }
}

function printValue(e: Expr): string {
  switch (e.kind) {
    case 'num':
      return String(e.value);
    case 'name':
      return e.name;
    case 'regref':
      return `${e.thread}:${e.name}`;
    case 'unary':
      if (e.op === '-' && e.arg.kind === 'num') return String(-e.arg.value);
      if (e.op === '&') return printValue(e.arg);
      return '?';
    default:
      return '?';
  }
}

/**
 * A proposition as herd7 prints it: atoms `loc=v`, `/\` and `\/` with parentheses only where
 * needed (an `\/` inside an `/\`), `not (…)` for `~`, `not`, `!` and `!=`.
 */
export function herdProposition(e: Expr): string {
  const conj = (x: Expr): boolean => x.kind === 'binary' && (x.op === '/\\' || x.op === '&&');
  const disj = (x: Expr): boolean => x.kind === 'binary' && (x.op === '\\/' || x.op === '||');
  const go = (x: Expr, inConj: boolean): string => {
    if (x.kind === 'binary') {
      if (conj(x)) return `${go(x.left, true)} /\\ ${go(x.right, true)}`;
      if (disj(x)) {
        const s = `${go(x.left, false)} \\/ ${go(x.right, false)}`;
        return inConj ? `(${s})` : s;
      }
      if (x.op === '=' || x.op === '==') return `${printLocation(x.left)}=${printValue(x.right)}`;
      if (x.op === '!=') return `not (${printLocation(x.left)}=${printValue(x.right)})`;
    }
    if (x.kind === 'unary' && (x.op === '!' || x.op === '~')) return `not (${go(x.arg, false)})`;
    if (x.kind === 'name' && (x.name === 'true' || x.name === 'false')) return x.name;
    if (x.kind === 'regref' || x.kind === 'name') return `${printLocation(x)}=0`;
    return '?';
  };
  return go(e, false);
}

/** herd7's answer for a program's end states, or null when the program has no condition. */
export function herdAnswer(
  p: CompiledProgram,
  ends: Iterable<EndState>,
  counts: 'executions' | 'states',
  o: HerdOptions,
): HerdAnswer | null {
  const cond = p.clauses.condition;
  if (!cond) return null;
  const m = p.machine;
  const filter = p.clauses.filter;
  const lines = new Map<string, string[]>();
  let pos = 0;
  let neg = 0;
  for (const { state, count } of ends) {
    if (filter && !filter(m, state)) continue;
    const { line, values } = herdLine(p, state);
    if (!lines.has(line)) lines.set(line, values);
    if (cond.holds(m, state)) pos += count;
    else neg += count;
  }
  const states = [...lines.entries()]
    .sort(([, a], [, b]) => {
      for (let i = 0; i < a.length; i++) {
        const c = compareValues(a[i] as string, b[i] as string);
        if (c !== 0) return c;
      }
      return 0;
    })
    .map(([line]) => line);
  const q = cond.quantifier;
  const ok = q === 'exists' ? pos > 0 : q === '~exists' ? pos === 0 : neg === 0;
  const observation = pos === 0 ? 'Never' : neg === 0 ? 'Always' : 'Sometimes';
  const kind = q === 'forall' ? 'Required' : q === '~exists' ? 'Forbidden' : 'Allowed';
  const [positive, negative] = q === '~exists' ? [neg, pos] : [pos, neg];
  const condition = `${q} (${herdProposition(cond.prop)})`;
  const flags = [...(o.flags ?? [])].sort();
  const loop = o.loop === true;
  // herd7 names a test by its `C name` line less a `.litmus` ending (herdtools7's clean_name).
  const name = p.name.endsWith('.litmus') ? p.name.slice(0, -'.litmus'.length) : p.name;
  const text = [
    `Test ${name} ${kind}`,
    `States ${states.length}`,
    ...states,
    `${loop ? 'Loop ' : ''}${ok ? 'Ok' : 'No'}`,
    'Witnesses',
    `Positive: ${positive} Negative: ${negative}`,
    ...flags.map((f) => `Flag ${f}`),
    `Condition ${condition}`,
    `Observation ${name} ${observation} ${pos} ${neg}`,
    ...(o.seconds === undefined ? [] : [`Time ${name} ${o.seconds.toFixed(2)}`]),
    `Model ${o.model}${counts === 'states' ? ' (Positive and Negative count outcomes, each once, not executions)' : ''}`,
    ...(o.hash === undefined ? [] : [`Hash=${o.hash}`]),
  ].join('\n');
  return {
    model: o.model,
    kind,
    states,
    ok,
    loop,
    positive,
    negative,
    counts,
    observation,
    flags,
    condition,
    text,
  };
}
