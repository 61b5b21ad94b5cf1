// How long each part of a pasted link may be: a link is text anyone may have written or damaged,
// so every reader caps it before reading further. Apart from the schemas (linkSchemas.ts), so that
// a reader which needs only the caps (a readable Step link, link.ts) loads no schema library.

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
