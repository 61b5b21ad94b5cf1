// Links to the editor with a program in them (#/edit?src=…, lz-string compressed), so a program
// is shared as a URL, and "Edit a copy" opens a catalogue entry's text. Like every link, what is
// pasted is checked and capped before it is read.

import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import { linkTooLong, MAX_PROGRAM_CHARS } from './linkLimits.ts';

const PREFIX = '#/edit';

/** The editor's link, with `text` in it (or the saved draft, with none). */
export function editLink(text?: string): string {
  return text === undefined ? PREFIX : `${PREFIX}?src=${compressToEncodedURIComponent(text)}`;
}

export type EditLinkRead =
  | {
      readonly ok: true;
      readonly text: string | null;
      /** Parts of the link the editor does not read (`z=…`), as written: said, not dropped. */
      readonly unread: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

/** The program an editor link carries (null: none, open the draft), or why it cannot be read. */
export function readEditLink(hash: string): EditLinkRead {
  if (!hash.startsWith(PREFIX)) return { ok: false, message: 'this link does not open the editor' };
  const long = linkTooLong(hash);
  if (long) return { ok: false, message: long };
  const q = hash.indexOf('?');
  const search = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
  const unread = [...search].filter(([k]) => k !== 'src').map(([k, v]) => `${k}=${v}`);
  const src = search.get('src');
  if (src === null) return { ok: true, text: null, unread };
  let text: string | null;
  try {
    text = decompressFromEncodedURIComponent(src);
  } catch {
    text = null;
  }
  if (!text) return { ok: false, message: 'the program in this link is damaged' };
  if (text.length > MAX_PROGRAM_CHARS)
    return { ok: false, message: 'the program in this link is too long to be ours' };
  return { ok: true, text, unread };
}
