// What a lesson file (catalogue/<scenario>.json) and the sources file may hold, as valibot
// schemas. Lessons are content, not code: a teacher edits them as JSON without TypeScript, so
// every file is checked here when it loads (a misspelt key or a goal of an unknown kind names its
// file and place), and the tests replay every slide, question and hint against its scenario.

import * as v from 'valibot';
import type { Params } from '../../scenarios/types.ts';
import type { Goal } from '../goal.ts';
import type { Challenge, Hint, Prediction, SourceRef } from '../types.ts';

/** Any file may say what it is for, as JSON Schema files do; nothing shows it. */
const comment = { $comment: v.optional(v.string()) };

/** The entries of `o` but its comment (the schema has checked every other entry is a T). */
function withoutComment<T>(o: Readonly<Record<string, unknown>>): Readonly<Record<string, T>> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => k !== '$comment')) as Record<
    string,
    T
  >;
}

const text = v.pipe(v.string(), v.nonEmpty());
const integer = v.pipe(v.number(), v.safeInteger());

const paramsSchema: v.GenericSchema<unknown, Params> = v.record(
  v.string(),
  v.union([v.number(), v.string(), v.array(v.number())]),
);

const rangeEntries = {
  atLeast: v.optional(integer),
  atMost: v.optional(integer),
  equals: v.optional(integer),
};

const goalSchema: v.GenericSchema<unknown, Goal> = v.variant('kind', [
  v.strictObject({ kind: v.literal('breaks'), invariant: text }),
  v.strictObject({ kind: v.literal('keeps'), invariant: text }),
  v.strictObject({ kind: v.literal('observable'), name: text, ...rangeEntries }),
  v.strictObject({ kind: v.literal('difference'), of: text, minus: text, ...rangeEntries }),
  v.strictObject({ kind: v.literal('gap'), between: v.tuple([text, text]), ...rangeEntries }),
  v.strictObject({ kind: v.literal('all'), goals: v.array(v.lazy(() => goalSchema)) }),
  v.strictObject({ kind: v.literal('any'), goals: v.array(v.lazy(() => goalSchema)) }),
]);

const predictionSchema: v.GenericSchema<unknown, Prediction> = v.strictObject({
  question: text,
  answer: text,
});

/** Parameters written out, or the name of a setup: the lesson's own or a shared one (setups.ts). */
const paramsOrSetup = v.union([paramsSchema, text]);

const slideSchema = v.strictObject({
  title: text,
  text,
  at: v.optional(v.string()),
  params: v.optional(paramsOrSetup),
  predict: v.optional(predictionSchema),
  expect: v.optional(v.record(v.string(), v.nullable(v.number()))),
  breaks: v.optional(v.array(text)),
  graph: v.optional(text),
});

const hintSchema: v.GenericSchema<unknown, Hint> = v.strictObject({
  text,
  schedule: v.optional(v.string()),
});

const count = v.pipe(integer, v.minValue(0));

const challengeSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case')),
  title: text,
  task: text,
  mode: v.picklist(['reach', 'impossible'] as const satisfies readonly Challenge['mode'][]),
  goal: goalSchema,
  params: paramsOrSetup,
  bounds: v.strictObject({
    irqs: count,
    nmis: count,
    preemptions: count,
    migrations: count,
    hotplugs: v.optional(count),
  }),
  hints: v.array(hintSchema),
});

/** A setup: named parameters, with a comment that says what the machine shows. */
const setupSchema = v.pipe(
  v.objectWithRest(comment, v.union([v.number(), v.string(), v.array(v.number())])),
  v.transform((setup): Params => withoutComment(setup)),
);

export const lessonFileSchema = v.strictObject({
  ...comment,
  scenario: text,
  /**
   * Where the lesson stands in the course (src/lessons/course.ts sorts by it): any whole number,
   * unique across lessons. The catalogue's lessons count in tens, so a new one slots in between
   * two without renumbering the others.
   */
  course: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  /** Keys of sources.json. */
  sources: v.array(text),
  setups: v.optional(v.record(v.string(), setupSchema)),
  slides: v.array(slideSchema),
  witnessQuestions: v.record(v.string(), predictionSchema),
  challenges: v.array(challengeSchema),
});

export type LessonFile = v.InferOutput<typeof lessonFileSchema>;

const sourceSchema: v.GenericSchema<unknown, SourceRef> = v.strictObject({
  kind: v.picklist(['kernel-source', 'commit', 'mail']),
  title: text,
  ref: text,
  seed: v.optional(text),
});

export const sourcesFileSchema = v.pipe(
  v.objectWithRest(comment, sourceSchema),
  v.transform((file) => withoutComment<SourceRef>(file)),
);

/** `value` as `schema` holds it, or an error naming the file and the first place that is wrong. */
export function parseFile<T>(schema: v.GenericSchema<unknown, T>, value: unknown, file: string): T {
  const r = v.safeParse(schema, value, { abortEarly: true });
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '(top)';
  throw new Error(`${file}: ${path}: ${issue.message}`);
}
