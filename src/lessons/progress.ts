// A student's progress through the course, as kept in localStorage: versioned, small, and
// checked against a schema (valibot) when read back, because anything can be in storage (an
// older or newer app, an edit in the devtools, a truncated write). Reading never throws; it says
// what is wrong and where.

import * as v from 'valibot';
import { MAX_SCHEDULE_EVENTS, parseSchedule } from '../machine/schedule.ts';
import { compareScores, type Score } from './score.ts';
import { messageOf } from '../machine/errors.ts';

export const PROGRESS_VERSION = 1;

export interface LessonProgress {
  /** The furthest slide reached, from 0. */
  readonly slide: number;
  /** Every slide seen to the end. */
  readonly done: boolean;
}

export type ChallengeProgress =
  /**
   * A 'reach' challenge solved; the best schedule so far, by score, and how many hints were
   * shown when it was found (absent: none).
   */
  | {
      readonly kind: 'solved';
      readonly schedule: string;
      readonly score: Score;
      readonly hints?: number;
    }
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

// The record's shape as valibot schemas. Each message says what is wrong; `validateProgress`
// puts the place in front ("progress.lessons["a"].slide must be …").

/** An object with exactly these fields: says which field is unknown or missing. */
function exactly<E extends v.ObjectEntries>(entries: E) {
  return v.strictObject(entries, (i) => {
    const key = i.path?.at(-1)?.key;
    if (i.expected === 'never') return `has an unknown field ${short(key)}`;
    if (i.path) return `lacks the field ${short(key)}`;
    return 'must be an object';
  });
}

function count(max: number) {
  const m = (i: v.BaseIssue<unknown>) =>
    `must be an integer from 0 to ${max}, got ${short(i.input)}`;
  return v.pipe(v.number(m), v.integer(m), v.minValue(0, m), v.maxValue(max, m));
}

/** A table of at most PROGRESS_LIMITS.entries entries whose keys pass `keyOk`. */
function table<T extends v.GenericSchema>(keyOk: (k: string) => boolean, keyIs: string, value: T) {
  const { entries } = PROGRESS_LIMITS;
  const rows = v.pipe(
    v.record(v.pipe(v.string(), v.check(keyOk, `is not ${keyIs}`)), value, 'must be an object'),
    v.maxEntries(entries, (i) => `has ${i.received} entries, more than ${entries}`),
  );
  // valibot's record takes an array as an object with keys "0", "1", …: not a table of ours.
  const array = v.never('must be an object');
  return v.lazy((input) => (Array.isArray(input) ? array : rows));
}

const lessonSchema = exactly({
  slide: count(PROGRESS_LIMITS.slide),
  done: v.boolean((i) => `must be true or false, got ${short(i.input)}`),
});

const scheduleSchema = v.pipe(
  v.string((i) => `must be a schedule string, got ${short(i.input)}`),
  v.maxLength(
    PROGRESS_LIMITS.scheduleChars,
    `is longer than ${PROGRESS_LIMITS.scheduleChars} characters`,
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    try {
      if (parseSchedule(dataset.value).length > MAX_SCHEDULE_EVENTS)
        addIssue({ message: 'is too long' });
    } catch (e) {
      addIssue({ message: `is not a schedule (${messageOf(e)})` });
    }
  }),
);

const challengeSchema = v.variant(
  'kind',
  [
    exactly({ kind: v.literal('settled') }),
    exactly({
      kind: v.literal('solved'),
      schedule: scheduleSchema,
      score: exactly({
        interventions: count(PROGRESS_LIMITS.score),
        switches: count(PROGRESS_LIMITS.score),
        steps: count(PROGRESS_LIMITS.score),
      }),
      hints: v.optional(count(PROGRESS_LIMITS.score)),
    }),
  ],
  (i) => (i.path ? `must be "solved" or "settled", got ${short(i.input)}` : 'must be an object'),
);

const challengeKeyOk = (key: string) => {
  const [sc, ch, ...rest] = key.split('/');
  return sc !== undefined && ch !== undefined && rest.length === 0 && isId(sc) && isId(ch);
};

const progressSchema = exactly({
  version: v.literal(PROGRESS_VERSION, (i) => `must be ${PROGRESS_VERSION}, got ${short(i.input)}`),
  lessons: table(isId, 'a scenario id', lessonSchema),
  challenges: table(challengeKeyOk, 'a "scenario/challenge" key', challengeSchema),
});

/**
 * Where an issue is: "progress.lessons["a"].slide". The second step of a path is always a key of
 * the lessons or challenges table, written in brackets. A field that is missing or unknown is
 * its object's problem, so the message names the object.
 */
function place(issue: v.BaseIssue<unknown>): string {
  const path = issue.path ?? [];
  const last = path.at(-1);
  const aboutKey =
    last?.type === 'object' &&
    last.origin === 'key' &&
    (issue.expected === 'never' || issue.received === 'undefined') &&
    issue.kind === 'schema';
  return (aboutKey ? path.slice(0, -1) : path).reduce(
    (at, item, depth) => (depth === 1 ? `${at}[${short(item.key)}]` : `${at}.${String(item.key)}`),
    'progress',
  );
}

/** Checks a value read from storage; builds a fresh record holding only what was checked. */
export function validateProgress(value: unknown): ProgressResult {
  // Said first, whatever else is wrong: the likeliest cause is a newer app on the same origin.
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > PROGRESS_VERSION) {
    return { ok: false, error: `progress was saved by a newer version (${version}) of the lab` };
  }
  const r = v.safeParse(progressSchema, value, { abortEarly: true });
  if (!r.success) {
    const issue = r.issues[0];
    return { ok: false, error: `${place(issue)} ${issue.message}` };
  }
  // valibot builds new objects, so even a "__proto__" key could not reach a prototype (and the
  // id pattern rejects it anyway).
  return { ok: true, progress: r.output };
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

/**
 * Progress with a solution recorded, found with `hints` hints shown; the simpler of it and the
 * one kept wins, and of two as simple, the one found with fewer hints.
 */
export function withSolution(
  p: Progress,
  key: string,
  schedule: string,
  score: Score,
  hints = 0,
): Progress {
  const was = p.challenges[key];
  if (was?.kind === 'solved') {
    const c = compareScores(was.score, score);
    if (c < 0 || (c === 0 && (was.hints ?? 0) <= hints)) return p;
  }
  const solved = { kind: 'solved' as const, schedule, score, ...(hints > 0 ? { hints } : {}) };
  return { ...p, challenges: { ...p.challenges, [key]: solved } };
}

/** Progress with an 'impossible' challenge settled. */
export function withSettled(p: Progress, key: string): Progress {
  return { ...p, challenges: { ...p.challenges, [key]: { kind: 'settled' } } };
}
