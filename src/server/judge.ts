// A student's challenge attempt, judged on the server by the same engine the page runs
// (checkAttempt), so the teacher's list of submissions says what the lab says. The challenge is
// looked up as the page does (the lesson of the scenario, then the challenge by id); the
// scenario is the one in the room's current moment.

import { findLesson } from '../lessons/catalogue/index.ts';
import { checkAttempt } from '../lessons/challenge.ts';
import { findScenario } from '../scenarios/index.ts';

export type Judged =
  | { readonly kind: 'reached'; readonly summary: string }
  | { readonly kind: 'missed'; readonly summary: string }
  | { readonly kind: 'invalid'; readonly summary: string };

/** The scenario id of a Step hash (#/step/<id>?…), or null. */
export function scenarioOfHash(hash: string): string | null {
  return /^#\/step\/([a-z0-9-]+)\?/.exec(hash)?.[1] ?? null;
}

/** Judges `schedule` for challenge `challengeId` of the scenario in `hash` (null: no moment yet). */
export function judge(hash: string | null, challengeId: string, schedule: string): Judged {
  const id = hash === null ? null : scenarioOfHash(hash);
  if (id === null) return { kind: 'invalid', summary: 'the room has no scenario open yet' };
  const sc = findScenario(id);
  const challenge = findLesson(id)?.challenges.find((c) => c.id === challengeId);
  if (!sc || !challenge)
    return { kind: 'invalid', summary: `${id} has no challenge named "${challengeId}"` };
  const v = checkAttempt(sc, challenge, schedule);
  switch (v.kind) {
    case 'invalid':
      return {
        kind: 'invalid',
        summary: v.index === undefined ? v.reason : `event ${v.index + 1}: ${v.reason}`,
      };
    case 'over-bounds':
      return { kind: 'missed', summary: v.reason };
    case 'unfinished':
      return { kind: 'missed', summary: 'the run has not finished: the goal is judged at the end' };
    case 'finished':
      return v.reached
        ? {
            kind: 'reached',
            summary: `goal reached in ${v.score.steps} events, ${v.score.interventions} interventions`,
          }
        : { kind: 'missed', summary: 'the run finished without reaching the goal' };
  }
}
