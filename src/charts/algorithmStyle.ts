// Each algorithm's colour and dash in the Scaling charts, the same in every chart so a line and
// a bar of one algorithm match. Derived, not listed: an algorithm's colour is the one at its place
// among the counters a sweep can take (in the catalogue's order, src/scenarios/entries.ts), and
// its dash the one at its place in the default sweep (so every default line is dashed
// differently) or else at its place among all. A new entry that runs in Scaling gets a colour
// without an edit here; the palette only grows when there are more such entries than colours.

import { DEFAULT_SCENARIOS, scalingScenarios } from '../live/scaling/plan.ts';
import { ALGORITHM_COLOURS, ALGORITHM_DASHES } from './palette.ts';

/** "percpu-seq" or "percpu-seq (interpreted)": the scenario id. */
function scenarioOf(key: string): string {
  return key.split(' ')[0] ?? key;
}

/** The colour of an algorithm's line and bars; grey for one no sweep offers. */
export function algorithmColour(key: string): string {
  const i = scalingScenarios().indexOf(scenarioOf(key));
  return i < 0 ? '#444444' : (ALGORITHM_COLOURS[i % ALGORITHM_COLOURS.length] as string);
}

/** The dash of an algorithm's line; its interpreted twin keeps the colour with the next dash. */
export function algorithmDash(key: string): string {
  const id = scenarioOf(key);
  const inDefault = DEFAULT_SCENARIOS.indexOf(id);
  const i = inDefault >= 0 ? inDefault : Math.max(0, scalingScenarios().indexOf(id));
  const twin = key.includes('(interpreted)') ? 1 : 0;
  return ALGORITHM_DASHES[(i + twin) % ALGORITHM_DASHES.length] as string;
}
