// The parameters a live run of a scenario uses, and the scenarios that run live: specs.ts's
// loops applied to the catalogue's entries.

import { catalogue, findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Params, ParamValue, Scenario } from '../scenarios/types.ts';
import { liveSpecOf } from './specs.ts';

/** The scenarios that run live, in catalogue order. */
export function liveScenarios(): Scenario[] {
  return catalogue.filter((sc) => liveSpecOf(sc.id) !== undefined);
}

export interface LiveShape {
  /** The last CPU calls sum() where the scenario has one (default); false: every CPU adds. */
  readonly summer?: boolean;
  /** A named parameter set applied under the choices (e.g. "kernel": batch max(32, 2 × CPUs)). */
  readonly preset?: string;
}

/** The parameters a live run of `id` uses: the user's choices, then the loop's. */
export function liveParams(
  id: string,
  cpus: number,
  choices: Readonly<Record<string, ParamValue>> = {},
  shape: LiveShape = {},
): Params {
  const sc = findScenario(id);
  const spec = liveSpecOf(id);
  if (!sc || !spec) throw new Error(`${id} does not run live`);
  const n = spec.fixedCpus ?? cpus;
  const known = Object.fromEntries(
    Object.entries(choices).filter(([name]) => sc.params.some((q) => q.name === name)),
  );
  const preset =
    shape.preset !== undefined && shape.preset in sc.presets ? shape.preset : undefined;
  return resolveParams(sc, { ...known, ...spec.loop(n, shape.summer ?? true) }, preset);
}
