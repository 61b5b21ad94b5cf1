// The lab's symbol font: the few characters the app shows that IBM Plex's latin files lack (✓ ✗ ◷
// on the invariant badges, ⋯ in the listing's folds, ← → in the charts and the narration, ≤ ≥ Σ
// in goals and labels…), cut from DejaVu Sans (@fontsource/dejavu-sans) into a file of a few
// kilobytes. Without it those glyphs come from whatever fonts a machine has, and a badge's
// check mark differs between a projector, a laptop and the screenshots.
//
// `npm run fonts:symbols` writes src/ui/fonts/lab-symbols.woff2; test/fonts.test.ts fails when
// the app uses a character that neither Plex nor that file draws (then run the command again).

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fontkit from 'fontkit';
import subsetFont from 'subset-font';

const root = join(import.meta.dirname, '..');
const pkg = (p: string) => join(root, 'node_modules', p);

/** The bundled fonts' files (the latin subsets the app's @font-face rules load). */
export const FONT_FILES = {
  sans: pkg('@fontsource-variable/ibm-plex-sans/files/ibm-plex-sans-latin-wght-normal.woff2'),
  mono: pkg('@fontsource/ibm-plex-mono/files/ibm-plex-mono-latin-400-normal.woff2'),
  monoBold: pkg('@fontsource/ibm-plex-mono/files/ibm-plex-mono-latin-700-normal.woff2'),
  symbols: join(root, 'src/ui/fonts/lab-symbols.woff2'),
} as const;

/** Where the symbols are cut from. */
const SOURCE = pkg('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff2');

/** The folders whose text the browser shows (the CLI's and the tests' are not drawn). */
const SHOWN = ['src'];
const NOT_SHOWN = [/^src\/cli\//, /\.test\.tsx?$/, /^src\/ui\/fonts\//];

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) yield* sourceFiles(rel);
    else if (/\.(tsx?|css|json)$/.test(e.name) && !NOT_SHOWN.some((r) => r.test(rel))) yield rel;
  }
}

/** Does this file hold a glyph for every code point given? */
export function covers(file: string, codePoints: readonly number[]): number[] {
  const font = fontkit.openSync(file) as fontkit.Font;
  return codePoints.filter((c) => !font.hasGlyphForCodePoint(c));
}

/**
 * The characters beyond ASCII that the app's sources contain (comments included: a cheap,
 * safe over-count) and that one of the Plex files cannot draw: what the symbol font must hold.
 */
export function symbolsNeeded(): number[] {
  const seen = new Set<number>();
  for (const dir of SHOWN) {
    for (const f of sourceFiles(dir)) {
      for (const ch of readFileSync(join(root, f), 'utf8')) {
        const c = ch.codePointAt(0) as number;
        if (c > 0x7e) seen.add(c);
      }
    }
  }
  const all = [...seen].sort((a, b) => a - b);
  const missing = new Set([
    ...covers(FONT_FILES.sans, all),
    ...covers(FONT_FILES.mono, all),
    ...covers(FONT_FILES.monoBold, all),
  ]);
  return all.filter((c) => missing.has(c));
}

/** Writes the symbol font: DejaVu Sans cut to `symbolsNeeded()`. */
export async function writeSymbolFont(): Promise<number[]> {
  const symbols = symbolsNeeded();
  const lacking = covers(SOURCE, symbols);
  if (lacking.length > 0)
    throw new Error(
      `DejaVu Sans has no glyph for ${lacking.map((c) => String.fromCodePoint(c)).join(' ')}`,
    );
  const text = String.fromCodePoint(...symbols);
  const out = await subsetFont(readFileSync(SOURCE), text, { targetFormat: 'woff2' });
  writeFileSync(FONT_FILES.symbols, out);
  return symbols;
}

if (process.argv[1] === import.meta.filename) {
  const symbols = await writeSymbolFont();
  console.log(
    `wrote src/ui/fonts/lab-symbols.woff2: ${String(symbols.length)} glyphs (${String.fromCodePoint(...symbols)})`,
  );
}
