// What the CPU-local scenarios share (this-cpu-migrate, this-cpu-ops, irq-local-rmw,
// cmpxchg-local-generic, torn-read-32): listings whose line numbers are looked up by key, tallies
// per context, per-CPU slot observables and the "nothing lost" verdicts.

import { intParam, intSpec, listParam } from './params.ts';
import { ctxBase, CTX_TALLY, type Machine } from '../machine/machine.ts';
import { pairValue, plus } from '../machine/int64.ts';
import { readPerCpu } from './observe.ts';
import type { InvariantSpec, ObservableSpec, Params, Value } from './types.ts';

export const KH_2009 =
  'KAMEZAWA Hiroyuki, "[PATCH 2/2] memcg : rewrite percpu countings with new interfaces", linux-mm, v1 6 Nov 2009 <20091106175545.b97ee867.kamezawa.hiroyu@jp.fujitsu.com>, Christoph Lameter\'s review the same day, v2 9 Nov 2009 <20091109154446.181b0e1f.kamezawa.hiroyu@jp.fujitsu.com>';
export const MD_2007 =
  'Mathieu Desnoyers, "[patch 01/28] Add cmpxchg_local to asm-generic for per cpu atomic operations", 30 Oct 2007 <20071030192101.749932864@polymtl.ca>';

/**
 * A listing written as lines, some tagged with a key, so instructions can ask for `at('store')`
 * instead of hard-coding a number that drifts when a comment line is added.
 */
export class KeyedListing {
  readonly lines: string[] = [];
  private readonly keys = new Map<string, number>();

  constructor(rows: readonly (string | readonly [string, string])[]) {
    for (const row of rows) {
      if (typeof row === 'string') {
        this.lines.push(row);
        continue;
      }
      const [key, text] = row;
      if (this.keys.has(key)) throw new Error(`listing key ${key} used twice`);
      this.lines.push(text);
      this.keys.set(key, this.lines.length);
    }
  }

  /** The 1-based line of `key`. */
  at(key: string): number {
    const n = this.keys.get(key);
    if (n === undefined) throw new Error(`listing has no line ${key}`);
    return n;
  }
}

/** What context `c` has added so far (its tally). */
export function contextTally(m: Machine, s: Int32Array, c: number): number | bigint {
  const t = ctxBase(m, c) + CTX_TALLY;
  return pairValue(s[t] as number, s[t + 1] as number);
}

/** Σ of a list of values that may be bigints. */
export function total(values: readonly (number | bigint)[]): number | bigint {
  return values.reduce<number | bigint>((a, b) => plus(a, b), 0);
}

/** `slot0`, `slot1`, …: each CPU's element of per-CPU variable `cell`. */
export function slotObservables(cpus: number, cell: string, label: string): ObservableSpec[] {
  return Array.from({ length: cpus }, (_, k) => ({
    name: `slot${k}`,
    description: `CPU${k}'s ${label}`,
    read: (m: Machine, s: Int32Array) => readPerCpu(m, s, cell)[k] ?? null,
  }));
}

/** The `slots` parameter stretched to one initial value per CPU (missing ones 0). */
export function initialSlots(p: Params): number[] {
  const slots = listParam(p, 'slots');
  return Array.from({ length: intParam(p, 'cpus') }, (_, k) => slots[k] ?? 0);
}

/** The `cpus` parameter of the scenarios where a task migrates: at least a second CPU. */
export const migrationCpusParam = intSpec(
  'cpus',
  2,
  [2, 8],
  'Number of CPUs; the tasks start on CPU0 and the other CPUs are idle, so a migrated task runs there at once',
);

/** Values compare equal whether they came as numbers or bigints. */
export function same(a: Value, b: Value): boolean {
  return String(a) === String(b);
}

/** `no-lost-update` of the CPU-local scenarios: the cell observable `name` equals `exact`. */
export function cellHoldsEveryAdd(name: string, what: string): InvariantSpec {
  return {
    id: 'no-lost-update',
    when: 'final',
    description: `Every add is counted: ${what} = exact`,
    final: (o) => {
      if (same(o[name] ?? null, o.exact ?? null)) return null;
      const lost = BigInt(String(o.exact)) - BigInt(String(o[name]));
      return `${what} is ${String(o[name])} but the adds total ${String(o.exact)}: ${String(lost)} lost`;
    },
  };
}
