// Links that reopen an exact Step-mode moment: scenario, parameters, schedule and cursor in the
// URL hash. Short links stay readable (#/step/global-plain?iterations=1&sched=0+1+0+1&at=3); long
// ones are compressed with lz-string (#/step/percpu-classic?z=…).
//
// A compressed part is read by packedLink.ts, which checks what it holds against a schema
// (valibot): a Step link's page loads it only when the link it opens is compressed, so the
// readable links every lesson and card writes cost no schema library on that page. Their two
// checked parts (a step number, a challenge's name) are checked here by pattern.

import { compressToEncodedURIComponent } from 'lz-string';
import { linkTooLong, MAX_PACKED_CHARS, MAX_SCHEDULE_CHARS } from './linkLimits.ts';

export interface StepLink {
  readonly scenario: string;
  /** Parameter overrides as text, as --set takes them (lists comma-separated). */
  readonly params: Readonly<Record<string, string>>;
  readonly schedule: string;
  readonly cursor: number;
  /** The challenge of the scenario's lesson being attempted, by id; absent for none. */
  readonly challenge?: string;
  /** A typed program's text, for scenario `program`: the link carries the program itself. */
  readonly program?: string;
}

const PREFIX = '#/step/';
/** A link's parts that are not parameters. */
const RESERVED = new Set(['sched', 'at', 'challenge', 'z']);
const LONG = 180;

/** The hash for a link (with its leading '#'). */
export function encodeLink(link: StepLink): string {
  const plain = new URLSearchParams(link.params);
  if (link.schedule) plain.set('sched', link.schedule);
  plain.set('at', String(link.cursor));
  if (link.challenge) plain.set('challenge', link.challenge);
  const readable = `${PREFIX}${link.scenario}?${plain.toString()}`;
  if (readable.length <= LONG && link.program === undefined) return readable;
  const packed = compressToEncodedURIComponent(
    JSON.stringify({
      p: link.params,
      s: link.schedule,
      c: link.cursor,
      ch: link.challenge,
      src: link.program,
    }),
  );
  return `${PREFIX}${link.scenario}?z=${packed}`;
}

export type Decoded = { ok: true; link: StepLink } | { ok: false; message: string };

/** What a compressed part holds, once read and checked (packedLink.ts). */
export interface PackedParts {
  readonly p: Readonly<Record<string, string>>;
  readonly s: string;
  readonly c: number;
  readonly ch?: string | undefined;
  readonly src?: string | undefined;
}

/** Reads a compressed part (packedLink.ts's readPacked); null when it is damaged. */
export type ReadPacked = (z: string) => PackedParts | null;

/** Whether a hash is a Step link with a compressed part, which only packedLink.ts can read. */
export function isPackedLink(hash: string): boolean {
  const q = hash.indexOf('?');
  return hash.startsWith(PREFIX) && q >= 0 && new URLSearchParams(hash.slice(q + 1)).has('z');
}

/** A challenge's id as lessons write it (kebab-case); the challenge store says if it exists. */
const CHALLENGE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Step mode's position (at=): a whole number, in decimal digits; null for anything else. */
function positionOf(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** A percent-encoded part of a link, decoded; null when its encoding is broken ("%E0"). */
export function decodePart(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * Reads a hash; anything that is not a well-formed step link gets a message saying why. A link
 * with a compressed part needs `readPacked` (packedLink.ts); without it, the message says so.
 */
export function decodeLink(hash: string, readPacked: ReadPacked | null = null): Decoded {
  if (!hash.startsWith(PREFIX))
    return { ok: false, message: 'this link does not point into Step mode' };
  const long = linkTooLong(hash);
  if (long) return { ok: false, message: long };
  const rest = hash.slice(PREFIX.length);
  const q = rest.indexOf('?');
  const scenario = decodePart(q < 0 ? rest : rest.slice(0, q));
  if (scenario === null)
    return { ok: false, message: "the scenario's name in this link is not valid percent-encoding" };
  const search = new URLSearchParams(q < 0 ? '' : rest.slice(q + 1));
  const z = search.get('z');
  if (z !== null) {
    if (z.length > MAX_PACKED_CHARS)
      return { ok: false, message: 'the compressed part of this link is too long to be ours' };
    if (!readPacked)
      return { ok: false, message: 'the compressed part of this link was not read (a bug)' };
    const packed = readPacked(z);
    if (!packed) return { ok: false, message: 'the compressed part of this link is damaged' };
    const { p, s, c, ch, src } = packed;
    // Parameters written beside the packed part (`?memory=tso&z=…`) are honoured over it, and
    // checked as any link's are: added by hand, they must not be dropped without a word.
    const beside: Record<string, string> = {};
    for (const [k, value] of search) if (!RESERVED.has(k)) beside[k] = value;
    return {
      ok: true,
      link: {
        scenario,
        params: { ...p, ...beside },
        schedule: s,
        cursor: c,
        ...(ch === undefined ? {} : { challenge: ch }),
        ...(src === undefined ? {} : { program: src }),
      },
    };
  }
  const params: Record<string, string> = {};
  for (const [k, value] of search) if (!RESERVED.has(k)) params[k] = value;
  const schedule = search.get('sched') ?? '';
  if (schedule.length > MAX_SCHEDULE_CHARS)
    return { ok: false, message: "the link's schedule is too long to be ours" };
  const at = search.get('at');
  const cursor = at === null ? Number.MAX_SAFE_INTEGER : positionOf(at);
  if (cursor === null) {
    return { ok: false, message: `the link's position 'at=${at ?? ''}' is not a step number` };
  }
  // `challenge=` with no name, as a link cut short or a form left empty writes it, asks for none.
  const named = search.get('challenge');
  const challenge =
    named === null || named === ''
      ? undefined
      : named.length <= 100 && CHALLENGE_ID.test(named)
        ? named
        : null;
  if (challenge === null)
    return {
      ok: false,
      message: `the link's challenge '${named ?? ''}' is not a challenge's name`,
    };
  return { ok: true, link: { scenario, params, schedule, cursor, challenge } };
}
