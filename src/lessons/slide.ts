// Where a slide puts the stage: its full parameter set and the events of its schedule prefix.
// The stage builds the machine from the parameters and replays the events from the start.

import { parseSchedule } from '../machine/schedule.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { Slide } from './types.ts';

export interface SlideStage {
  readonly params: Params;
  /** The events of `slide.at` (none for the initial state). */
  readonly events: readonly number[];
}

/**
 * The stage of a slide. Throws ParamError or ScheduleSyntaxError only for a slide whose data is
 * wrong, which the slide tests rule out for every lesson of the catalogue.
 */
export function slideStage(sc: Scenario, slide: Slide): SlideStage {
  return { params: resolveParams(sc, slide.params ?? {}), events: parseSchedule(slide.at ?? '') };
}
