// Links that reopen an exact Step-mode moment: scenario, parameters, schedule and cursor in the
// URL hash. Short links stay readable (#/step/global-plain?iterations=1&sched=0+1+0+1&at=3); long
// ones are compressed with lz-string (#/step/percpu-classic?z=…).

import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';

export interface StepLink {
  readonly scenario: string;
  /** Parameter overrides as text, as --set takes them (lists comma-separated). */
  readonly params: Readonly<Record<string, string>>;
  readonly schedule: string;
  readonly cursor: number;
}

const PREFIX = '#/step/';
const LONG = 180;

/** The hash for a link (with its leading '#'). */
export function encodeLink(link: StepLink): string {
  const plain = new URLSearchParams(link.params);
  if (link.schedule) plain.set('sched', link.schedule);
  plain.set('at', String(link.cursor));
  const readable = `${PREFIX}${link.scenario}?${plain.toString()}`;
  if (readable.length <= LONG) return readable;
  const packed = compressToEncodedURIComponent(
    JSON.stringify({ p: link.params, s: link.schedule, c: link.cursor }),
  );
  return `${PREFIX}${link.scenario}?z=${packed}`;
}

export type Decoded = { ok: true; link: StepLink } | { ok: false; message: string };

/** A percent-encoded part of a link, decoded; null when its encoding is broken ("%E0"). */
export function decodePart(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Reads a hash; anything that is not a well-formed step link gets a message saying why. */
export function decodeLink(hash: string): Decoded {
  if (!hash.startsWith(PREFIX))
    return { ok: false, message: 'this link does not point into Step mode' };
  const rest = hash.slice(PREFIX.length);
  const q = rest.indexOf('?');
  const scenario = decodePart(q < 0 ? rest : rest.slice(0, q));
  if (scenario === null)
    return { ok: false, message: "the scenario's name in this link is not valid percent-encoding" };
  const search = new URLSearchParams(q < 0 ? '' : rest.slice(q + 1));
  const z = search.get('z');
  if (z !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decompressFromEncodedURIComponent(z) || 'null');
    } catch {
      parsed = null;
    }
    if (!isPacked(parsed))
      return { ok: false, message: 'the compressed part of this link is damaged' };
    return { ok: true, link: { scenario, params: parsed.p, schedule: parsed.s, cursor: parsed.c } };
  }
  const params: Record<string, string> = {};
  for (const [k, v] of search) if (k !== 'sched' && k !== 'at') params[k] = v;
  const schedule = search.get('sched') ?? '';
  const at = search.get('at');
  const cursor = at === null ? Number.MAX_SAFE_INTEGER : Number(at);
  if (!Number.isInteger(cursor) || cursor < 0) {
    return { ok: false, message: `the link's position 'at=${at ?? ''}' is not a step number` };
  }
  return { ok: true, link: { scenario, params, schedule, cursor } };
}

function isPacked(v: unknown): v is { p: Record<string, string>; s: string; c: number } {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.s === 'string' &&
    typeof o.c === 'number' &&
    Number.isInteger(o.c) &&
    o.c >= 0 &&
    typeof o.p === 'object' &&
    o.p !== null &&
    Object.values(o.p).every((x) => typeof x === 'string')
  );
}
