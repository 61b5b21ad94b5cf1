// Helpers for tests: what a program's text can end with (every outcome of a complete exploration,
// as `name=value` strings), shared by the language's, the litmus shapes' and the memory models'
// tests; and the catalogue as cases to explore, shared by the tests that compare two ways of
// exploring it.

import { MEMORY_MODELS } from '../machine/machine.ts';
import { catalogue } from '../scenarios/index.ts';
import { programScenario } from '../scenarios/program.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { type Bounds, explore } from './explore.ts';

/** A catalogue entry, parameters to set and bounds to explore it within. */
export interface CatalogueCase {
  readonly sc: Scenario;
  readonly set: Record<string, string>;
  readonly bounds: Bounds;
}

/**
 * Every catalogue entry's every variant (and, with `memories`, each memory model of an entry
 * that offers a choice), once for each of the bounds `boundsOf` gives it.
 */
export function catalogueCases(
  boundsOf: (sc: Scenario) => readonly Bounds[],
  memories = false,
): CatalogueCase[] {
  const cases: CatalogueCase[] = [];
  for (const sc of catalogue) {
    const variant = sc.params.find((p) => p.name === 'variant');
    const memory = memories && sc.params.some((p) => p.name === 'memory');
    for (const v of variant?.kind === 'choice' ? variant.choices : [undefined]) {
      for (const mem of memory ? MEMORY_MODELS : [undefined]) {
        const set: Record<string, string> = {};
        if (v !== undefined) set.variant = v;
        if (mem !== undefined) set.memory = mem;
        for (const bounds of boundsOf(sc)) cases.push({ sc, set, bounds });
      }
    }
  }
  return cases;
}

/**
 * The outcomes of `source` explored with no bound on switches: each one's observables named in
 * `observe` (in that order), or all of them. Throws when the program does not compile or the
 * exploration stops short.
 */
export function programOutcomes(
  source: string,
  observe: readonly string[] | null = null,
  params: Readonly<Record<string, string>> = {},
): Set<string> {
  const r = programScenario(source);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const sc = r.scenario;
  const res = explore(sc, resolveParams(sc, params), { ...sc.bounds, switches: Infinity });
  if (!res.complete) throw new Error(`the exploration stopped short: ${String(res.stopped)}`);
  return new Set(
    res.outcomes.map((o) =>
      (observe ?? Object.keys(o.observables))
        .map((k) => `${k}=${String(o.observables[k])}`)
        .join(' '),
    ),
  );
}
