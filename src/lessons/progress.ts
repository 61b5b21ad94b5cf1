// A student's progress through the course, as kept in localStorage: versioned, small, and
// validated by hand when read back, because anything can be in storage (an older or newer app,
// an edit in the devtools, a truncated write). Reading never throws; it says what is wrong.

import { MAX_SCHEDULE_EVENTS, parseSchedule } from '../machine/schedule.ts';
import { compareScores, type Score } from './score.ts';

export const PROGRESS_VERSION = 1;

export interface LessonProgress {
  /** The furthest slide reached, from 0. */
  readonly slide: number;
  /** Every slide seen to the end. */
  readonly done: boolean;
}

export type ChallengeProgress =
  /** A 'reach' challenge solved; the best schedule so far, by score. */
  | { readonly kind: 'solved'; readonly schedule: string; readonly score: Score }
  /** An 'impossible' challenge settled: the student ran the exhaustive check. */
  | { readonly kind: 'settled' };

export interface Progress {
  readonly version: typeof PROGRESS_VERSION;
  /** By scenario id. */
  readonly lessons: Readonly<Record<string, LessonProgress>>;
  /** By `${scenario id}/${challenge id}`. */
  readonly challenges: Readonly<Record<string, ChallengeProgress>>;
}

export type ProgressResult =
  | { readonly ok: true; readonly progress: Progress }
  | { readonly ok: false; readonly error: string };

/** Limits that keep a hostile record from costing much to read. */
export const PROGRESS_LIMITS = {
  entries: 1000,
  slide: 99,
  scheduleChars: 4096,
  score: 1_000_000,
} as const;

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const isId = (s: string) => s.length <= 64 && ID.test(s);

export function emptyProgress(): Progress {
  return { version: PROGRESS_VERSION, lessons: {}, challenges: {} };
}

/** The text to store. */
export function serializeProgress(p: Progress): string {
  return JSON.stringify(p);
}

/** Reads stored text: the progress, or why it cannot be used. */
export function parseProgress(text: string): ProgressResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the saved progress is not valid JSON' };
  }
  return validateProgress(value);
}

class Invalid extends Error {}

function fail(at: string, what: string): never {
  throw new Invalid(`${at} ${what}`);
}

function record(v: unknown, at: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(at, 'must be an object');
  return v as Record<string, unknown>;
}

/** Only these keys, and all of them. */
function exactKeys(o: Record<string, unknown>, keys: readonly string[], at: string): void {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) fail(at, `has an unknown field ${JSON.stringify(k)}`);
  }
  for (const k of keys) if (!(k in o)) fail(at, `lacks the field "${k}"`);
}

function integer(v: unknown, max: number, at: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
    fail(at, `must be an integer from 0 to ${max}, got ${short(v)}`);
  }
  return v;
}

/** A value, briefly, for a message. Never throws (JSON.stringify does on a bigint). */
function short(v: unknown): string {
  let s: string;
  try {
    // JSON.stringify gives undefined for undefined, functions and symbols, whatever its type says.
    const json: unknown = JSON.stringify(v);
    s = typeof json === 'string' ? json : String(v);
  } catch {
    s = typeof v === 'bigint' ? `${v}n` : 'an unprintable value';
  }
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function entries(v: unknown, at: string): [string, unknown][] {
  const list = Object.entries(record(v, at));
  if (list.length > PROGRESS_LIMITS.entries) {
    fail(at, `has ${list.length} entries, more than ${PROGRESS_LIMITS.entries}`);
  }
  return list;
}

function lesson(v: unknown, at: string): LessonProgress {
  const o = record(v, at);
  exactKeys(o, ['slide', 'done'], at);
  if (typeof o.done !== 'boolean')
    fail(`${at}.done`, `must be true or false, got ${short(o.done)}`);
  return { slide: integer(o.slide, PROGRESS_LIMITS.slide, `${at}.slide`), done: o.done };
}

function schedule(v: unknown, at: string): string {
  if (typeof v !== 'string') return fail(at, `must be a schedule string, got ${short(v)}`);
  if (v.length > PROGRESS_LIMITS.scheduleChars) {
    fail(at, `is longer than ${PROGRESS_LIMITS.scheduleChars} characters`);
  }
  try {
    if (parseSchedule(v).length > MAX_SCHEDULE_EVENTS) fail(at, 'is too long');
  } catch (e) {
    if (e instanceof Invalid) throw e;
    fail(at, `is not a schedule (${e instanceof Error ? e.message : String(e)})`);
  }
  return v;
}

function challenge(v: unknown, at: string): ChallengeProgress {
  const o = record(v, at);
  if (o.kind === 'settled') {
    exactKeys(o, ['kind'], at);
    return { kind: 'settled' };
  }
  if (o.kind !== 'solved')
    fail(`${at}.kind`, `must be "solved" or "settled", got ${short(o.kind)}`);
  exactKeys(o, ['kind', 'schedule', 'score'], at);
  const s = record(o.score, `${at}.score`);
  exactKeys(s, ['interventions', 'switches', 'steps'], `${at}.score`);
  const max = PROGRESS_LIMITS.score;
  return {
    kind: 'solved',
    schedule: schedule(o.schedule, `${at}.schedule`),
    score: {
      interventions: integer(s.interventions, max, `${at}.score.interventions`),
      switches: integer(s.switches, max, `${at}.score.switches`),
      steps: integer(s.steps, max, `${at}.score.steps`),
    },
  };
}

/** Checks a value read from storage; builds a fresh record holding only what was checked. */
export function validateProgress(value: unknown): ProgressResult {
  try {
    const o = record(value, 'progress');
    if (typeof o.version === 'number' && o.version > PROGRESS_VERSION) {
      fail('progress', `was saved by a newer version (${o.version}) of the lab`);
    }
    if (o.version !== PROGRESS_VERSION) {
      fail('progress.version', `must be ${PROGRESS_VERSION}, got ${short(o.version)}`);
    }
    exactKeys(o, ['version', 'lessons', 'challenges'], 'progress');
    const lessons = entries(o.lessons, 'progress.lessons').map(
      ([id, v]): [string, LessonProgress] => {
        const at = `progress.lessons[${short(id)}]`;
        if (!isId(id)) fail(at, 'is not a scenario id');
        return [id, lesson(v, at)];
      },
    );
    const challenges = entries(o.challenges, 'progress.challenges').map(
      ([key, v]): [string, ChallengeProgress] => {
        const at = `progress.challenges[${short(key)}]`;
        const [sc, ch, ...rest] = key.split('/');
        if (sc === undefined || ch === undefined || rest.length > 0 || !isId(sc) || !isId(ch)) {
          fail(at, 'is not a "scenario/challenge" key');
        }
        return [key, challenge(v, at)];
      },
    );
    // Object.fromEntries defines own properties, so even a "__proto__" key could not reach the
    // prototype (and the id pattern rejects it anyway).
    return {
      ok: true,
      progress: {
        version: PROGRESS_VERSION,
        lessons: Object.fromEntries(lessons),
        challenges: Object.fromEntries(challenges),
      },
    };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    throw e;
  }
}

/** The key a challenge's progress is kept under. */
export function challengeKey(scenario: string, challengeId: string): string {
  return `${scenario}/${challengeId}`;
}

/** Progress with slide `slide` of a lesson reached (the furthest is kept). */
export function withSlide(p: Progress, scenario: string, slide: number, done = false): Progress {
  const was = p.lessons[scenario];
  const next: LessonProgress = {
    slide: Math.max(slide, was?.slide ?? 0),
    done: done || (was?.done ?? false),
  };
  return { ...p, lessons: { ...p.lessons, [scenario]: next } };
}

/** Progress with a solution recorded; the simpler of it and the one kept wins. */
export function withSolution(p: Progress, key: string, schedule: string, score: Score): Progress {
  const was = p.challenges[key];
  if (was?.kind === 'solved' && compareScores(was.score, score) <= 0) return p;
  return { ...p, challenges: { ...p.challenges, [key]: { kind: 'solved', schedule, score } } };
}

/** Progress with an 'impossible' challenge settled. */
export function withSettled(p: Progress, key: string): Progress {
  return { ...p, challenges: { ...p.challenges, [key]: { kind: 'settled' } } };
}
