// A scenario as program text (docs/language.md): the text "Edit a copy" opens and `lab export`
// prints, for a parameter set.

import { ParamError } from './params.ts';
import type { Params, Scenario } from './types.ts';

/** The scenario's program for these parameters, as text. */
export function programText(sc: Scenario, p: Params): string {
  if (!sc.text) throw new ParamError(`${sc.id} is not written as text yet`);
  return sc.text(p);
}
