// Defaults that teach: an exploration should show every invariant the chosen variant gives up
// broken at least once. Where the scenario's defaults cannot (too few adds to reach a batch, an
// IRQ that only reads), the scenario names a preset that can, and Explore proposes it.

import { paramsText, resolveParams } from '../scenarios/params.ts';
import { PROGRAM_GROUP } from '../scenarios/program.ts';
import type { Params, Scenario } from '../scenarios/types.ts';

/** The variant a parameter set chose, or "*" for a scenario without variants. */
export function variantOf(sc: Scenario, p: Params): string {
  return sc.params.some((q) => q.name === 'variant') ? String(p.variant) : '*';
}

/**
 * The invariants the variant does not guarantee. A typed program claims neither: each invariant
 * it declares is a question it asks, which the exploration answers, so it gives up none.
 */
export function givenUp(sc: Scenario, p: Params): string[] {
  if (sc.group === PROGRAM_GROUP) return [];
  const kept = sc.guarantees[variantOf(sc, p)] ?? [];
  return sc.invariants.map((i) => i.id).filter((id) => !kept.includes(id));
}

export interface Unshown {
  /** Invariants the variant gives up that the exploration never saw broken. */
  readonly invariants: readonly string[];
  /** The preset that shows them, if the scenario names one. */
  readonly preset?: { readonly name: string; readonly description: string };
}

/** What an exploration that broke `broken` failed to show, and the preset to try. */
export function unshown(sc: Scenario, p: Params, broken: Iterable<string>): Unshown {
  const seen = new Set(broken);
  const invariants = givenUp(sc, p).filter((id) => !seen.has(id));
  const name = invariants.length > 0 ? sc.explorePresets?.[variantOf(sc, p)] : undefined;
  const preset = name === undefined ? undefined : sc.presets[name];
  return preset && name !== undefined && !inEffect(sc, p, name)
    ? { invariants, preset: { name, description: preset.description } }
    : { invariants };
}

/**
 * Before exploring: the preset to explore with, when this variant's catalogue entry says its
 * parameters are too small to show what it gives up (and the preset is not applied yet).
 */
export function presetToExplore(
  sc: Scenario,
  p: Params,
): {
  readonly name: string;
  readonly description: string;
  /** What the variant gives up, which these parameters cannot show. */
  readonly invariants: readonly string[];
} | null {
  const invariants = givenUp(sc, p);
  if (invariants.length === 0) return null;
  const name = sc.explorePresets?.[variantOf(sc, p)];
  const preset = name === undefined ? undefined : sc.presets[name];
  if (!preset || name === undefined || inEffect(sc, p, name)) return null;
  return { name, description: preset.description, invariants };
}

/** Every invariant id an exploration's answer shows broken. */
export function brokenIn(r: {
  readonly outcomes: readonly { readonly violations: readonly { readonly id: string }[] }[];
  readonly always: readonly { readonly id: string }[];
}): string[] {
  return [
    ...r.outcomes.flatMap((o) => o.violations.map((v) => v.id)),
    ...r.always.map((a) => a.id),
  ];
}

/** Whether preset `name` would change nothing in p (it is already applied). */
function inEffect(sc: Scenario, p: Params, name: string): boolean {
  // Overrides beat a preset, so pass only what differs from the defaults.
  const after = resolveParams(sc, paramsText(p, sc), name);
  return JSON.stringify(paramsText(after)) === JSON.stringify(paramsText(p));
}
