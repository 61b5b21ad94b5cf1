// Lecture links: #/lecture/<scenario>/<slide>, slides numbered from 1, so each slide of each
// lesson has its own address a teacher can put in a course page.

/** A moment of the stage a teacher stepped to on a slide: the schedule and the events shown. */
export interface LectureMoment {
  readonly schedule: string;
  readonly at: number;
}

export interface LectureLink {
  readonly scenario: string;
  /** The stage as stepped on the slide (null: the slide's own moment). */
  readonly moment: LectureMoment | null;
  /** From 1, as written; the lesson clamps it to its slides (see `slideOf`). */
  readonly slide: number;
  /** The slide part as typed, when it is not a slide number ("abc"). */
  readonly badSlide: string | null;
}

export function parseLectureLink(hash: string): LectureLink | null {
  const m = /^#\/lecture\/([a-z0-9-]+)(?:\/([^/?]*))?\/?(?:\?(.*))?$/.exec(hash);
  if (!m?.[1]) return null;
  const part = m[2] ?? '';
  const number = /^\d{1,6}$/.test(part) ? Number(part) : null;
  const q = new URLSearchParams(m[3] ?? '');
  const schedule = q.get('sched');
  const at = Number(q.get('at') ?? NaN);
  return {
    scenario: m[1],
    // The schedule is checked where it is loaded (a bad one there says why).
    moment: schedule !== null && Number.isInteger(at) && at >= 0 ? { schedule, at } : null,
    slide: number ?? 1,
    badSlide: part === '' || number !== null ? null : decodeURIComponent(part),
  };
}

/**
 * The slide a link shows in a lesson of `count` slides, and what was wrong with the link's slide
 * (null when nothing): a word is slide 1, a number past either end the nearest end.
 */
export function slideOf(
  link: LectureLink,
  count: number,
): { slide: number; problem: string | null } {
  const last = Math.max(count, 1);
  const range = `its slides are 1 to ${String(last)}`;
  if (link.badSlide !== null)
    return {
      slide: 1,
      problem: `‘${link.badSlide}’ is not a slide number (${range}); showing slide 1`,
    };
  if (link.slide < 1)
    return {
      slide: 1,
      problem: `there is no slide ${String(link.slide)} (${range}); showing slide 1`,
    };
  if (link.slide > last)
    return {
      slide: last,
      problem: `there is no slide ${String(link.slide)} (${range}); showing slide ${String(last)}`,
    };
  return { slide: link.slide, problem: null };
}

/** A slide's link, and with `moment` the stage as stepped there ("slide 3 at this moment"). */
export function lectureLink(scenario: string, slide: number, moment?: LectureMoment): string {
  const base = `#/lecture/${scenario}/${String(slide)}`;
  if (!moment) return base;
  const q = new URLSearchParams({ sched: moment.schedule, at: String(moment.at) });
  return `${base}?${q.toString()}`;
}
