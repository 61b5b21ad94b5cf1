// A helper for tests that ask what a program's text can end with: every outcome of a complete
// exploration, as `name=value` strings. Shared by the language's, the litmus shapes' and the
// memory models' tests.

import { programScenario } from '../scenarios/program.ts';
import { resolveParams } from '../scenarios/params.ts';
import { explore } from './explore.ts';

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
