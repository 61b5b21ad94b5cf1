// What a pasted link may hold, as schemas (valibot): every part of a link is text that anyone may
// have written or damaged, so it is validated against a schema, never evaluated, and capped in
// size (linkLimits.ts). The parsers (packedLink.ts, liveLink.ts, scalingLink.ts) turn a failed
// check into a message; a readable Step link's two checked parts are patterns in link.ts.

import * as v from 'valibot';

import { MAX_PARAM_CHARS, MAX_PROGRAM_CHARS, MAX_SCHEDULE_CHARS } from './linkLimits.ts';

/** The value `text` holds under `schema`, or null. */
export function valueOf<T>(schema: v.GenericSchema<string, T>, text: string): T | null {
  const r = v.safeParse(schema, text);
  return r.success ? r.output : null;
}

/** A whole number from min to max, written in decimal digits. */
export function wholeNumber(min: number, max: number): v.GenericSchema<string, number> {
  return v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/),
    v.transform(Number),
    v.safeInteger(),
    v.minValue(min),
    v.maxValue(max),
  );
}

/** Any finite number, as JavaScript writes it ("0.25", "1e3"). */
export const finiteNumber: v.GenericSchema<string, number> = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(),
  v.transform(Number),
  v.finite(),
);

/** A rate or period in a Live link: a finite number, at least 0. */
export const rate: v.GenericSchema<string, number> = v.pipe(finiteNumber, v.minValue(0));

/** Step mode's position (at=). */
export const position = wholeNumber(0, Number.MAX_SAFE_INTEGER);

/** A challenge's id as lessons write it (kebab-case); the challenge store says if it exists. */
export const challengeId = v.pipe(
  v.string(),
  v.maxLength(100),
  v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
);

/** What a compressed Step link (z=) holds once decompressed and read as JSON. */
export const packedStepLink = v.object({
  p: v.record(v.string(), v.pipe(v.string(), v.maxLength(MAX_PARAM_CHARS))),
  s: v.pipe(v.string(), v.maxLength(MAX_SCHEDULE_CHARS)),
  c: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  /** The challenge being attempted, by id. */
  ch: v.optional(challengeId),
  /** A typed program's text (scenario `program`). */
  src: v.optional(v.pipe(v.string(), v.maxLength(MAX_PROGRAM_CHARS))),
});
