// Lecture links: #/lecture/<scenario>/<slide>, slides numbered from 1, so each slide of each
// lesson has its own address a teacher can put in a course page.

export interface LectureLink {
  readonly scenario: string;
  /** From 1. */
  readonly slide: number;
}

export function parseLectureLink(hash: string): LectureLink | null {
  const m = /^#\/lecture\/([a-z0-9-]+)(?:\/(\d{1,3}))?\/?$/.exec(hash);
  if (!m?.[1]) return null;
  return { scenario: m[1], slide: Math.max(1, Number(m[2] ?? '1')) };
}

export function lectureLink(scenario: string, slide: number): string {
  return `#/lecture/${scenario}/${String(slide)}`;
}
