// The reader of a Step link's compressed part (z=…): lz-string's decompression, then the JSON
// checked against its schema (valibot), never evaluated. A module of its own so that a page
// opening a readable Step link loads neither (link.ts says why); the Step store loads it the first
// time a link it opens is compressed.

import { decompressFromEncodedURIComponent } from 'lz-string';
import * as v from 'valibot';
import type { PackedParts } from './link.ts';
import { packedStepLink } from './linkSchemas.ts';

/** What a compressed part holds, checked; null when it does not decompress or is not ours. */
export function readPacked(z: string): PackedParts | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decompressFromEncodedURIComponent(z) || 'null');
  } catch {
    parsed = null;
  }
  const packed = v.safeParse(packedStepLink, parsed);
  return packed.success ? packed.output : null;
}
