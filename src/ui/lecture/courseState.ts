// How far this browser got in one lesson, in words for the course list: the lecture and the
// challenges are counted apart, so solving a challenge without opening the lecture does not read
// as "not started".

import { count } from '../../machine/count.ts';

export interface LessonSeen {
  readonly slide: number;
  readonly done: boolean;
}

export function courseState(
  slides: number,
  seen: LessonSeen | undefined,
  challenges: number,
  solved: number,
): string {
  const at = Math.min((seen?.slide ?? 0) + 1, slides);
  const lecture = seen?.done
    ? 'lecture done'
    : seen
      ? `lecture at slide ${at} of ${slides}`
      : 'lecture not opened';
  return challenges > 0
    ? `${lecture}; ${solved} of ${count(challenges, 'challenge')} done`
    : lecture;
}
