// What a pasted link may hold, as schemas (valibot): every part of a link is text that anyone may
// have written or damaged, so it is validated against a schema, never evaluated, and capped in
// size. The parsers (link.ts, liveLink.ts, scalingLink.ts) turn a failed check into a message.

import * as v from 'valibot';

/** Far longer than any link this app writes: a compressed schedule of thousands of events is a few KB. */
export const MAX_LINK_CHARS = 16_384;
/** lz-string output can grow about quadratically with its input: this bounds the work. */
export const MAX_PACKED_CHARS = 8_192;
/** A schedule of this many characters is tens of thousands of events: plenty for any lesson. */
export const MAX_SCHEDULE_CHARS = 100_000;
/** One parameter's text (a list of per-CPU values at most). */
export const MAX_PARAM_CHARS = 1_000;
/** A typed program carried in a link: hundreds of lines of C, well past any litmus test. */
export const MAX_PROGRAM_CHARS = 30_000;

/** Why a link is refused for its length alone, or null. */
export function linkTooLong(hash: string): string | null {
  if (hash.length <= MAX_LINK_CHARS) return null;
  return `this link is ${hash.length.toLocaleString('en')} characters long, more than the ${MAX_LINK_CHARS.toLocaleString('en')} any link of this app needs`;
}

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
