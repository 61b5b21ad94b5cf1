// Writing a catalogue entry: `defineScenario()` fills what most entries leave at its default, and
// `variants()` declares a `variant` parameter whose names type-check the guarantees, so a variant
// misspelt in `guarantees` (or one forgotten) is a compile error, not a silently empty claim.

import type { ChoiceParam, ExploreBounds, Params, Scenario, Witness } from './types.ts';
import { choiceParam } from './params.ts';

/** A witness as written: most show a correct run, so `violates` defaults to none. */
export type WitnessDraft = Omit<Witness, 'violates'> & { readonly violates?: Witness['violates'] };

/** An entry as written: presets, handlers and guarantees default to none, bounds to zero. */
export type ScenarioDraft = Omit<
  Scenario,
  'presets' | 'handlers' | 'bounds' | 'guarantees' | 'witnesses'
> & {
  readonly presets?: Scenario['presets'];
  readonly handlers?: Scenario['handlers'];
  /** Interventions Explore allows by default; the ones left out are 0. */
  readonly bounds?: Partial<ExploreBounds>;
  readonly guarantees?: Scenario['guarantees'];
  readonly witnesses: readonly WitnessDraft[];
};

export function defineScenario(draft: ScenarioDraft): Scenario {
  const { bounds, witnesses, ...rest } = draft;
  return {
    presets: {},
    handlers: [],
    guarantees: {},
    ...rest,
    bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, ...bounds },
    // Spelt out field by field so that `show --json` lists them in one order, however written.
    witnesses: witnesses.map((w) => ({
      name: w.name,
      description: w.description,
      params: w.params,
      schedule: w.schedule,
      expect: w.expect,
      violates: w.violates ?? [],
    })),
  };
}

export interface Variants<V extends string> {
  readonly names: readonly V[];
  /** The `variant` parameter, for the entry's `params`. */
  readonly param: ChoiceParam;
  /** The variant a parameter set chose. */
  readonly of: (p: Params) => V;
  /** What each variant guarantees: every variant named once, and nothing else. */
  readonly guarantees: (g: Readonly<Record<V, readonly string[]>>) => Scenario['guarantees'];
  /** A witness of one variant: its `params` start with `variant`, then the witness's own. */
  readonly witness: (
    variant: V,
    w: Omit<WitnessDraft, 'params'> & { params?: Params },
  ) => WitnessDraft;
}

/** The variant names of a `variants()` declaration, as a type. */
export type VariantOf<T extends { readonly names: readonly string[] }> = T['names'][number];

/** A `variant` parameter over `names`, defaulting to `fallback`. */
export function variants<const V extends string>(
  names: readonly V[],
  fallback: NoInfer<V>,
  description: string,
): Variants<V> {
  return {
    names,
    param: { name: 'variant', kind: 'choice', default: fallback, choices: names, description },
    of: (p) => choiceParam(p, 'variant') as V,
    guarantees: (g) => g,
    witness: (variant, w) => ({ ...w, params: { variant, ...w.params } }),
  };
}
