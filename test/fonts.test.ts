// The app draws its text with its own fonts (src/ui/fonts/fonts.css), so every machine lays out
// the stage alike. These checks fail when a character the app shows has no bundled glyph (it
// would come from the machine's fonts), or when the style sheet and the files drift apart.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { covers, FONT_FILES, symbolsNeeded } from '../deploy/symbolFont.ts';
import { PAGE_CSP } from '../deploy/headers.ts';

const chars = (cs: readonly number[]) => cs.map((c) => String.fromCodePoint(c)).join(' ');

describe('the bundled fonts', () => {
  it('draw every character the app shows (else: npm run fonts:symbols)', () => {
    const needed = symbolsNeeded();
    // The check mark of the invariant badges, at least, is one of them.
    expect(chars(needed)).toContain('✓');
    expect(chars(covers(FONT_FILES.symbols, needed))).toBe('');
  });

  it('are the files the style sheet loads, and every family the tokens name first', () => {
    const css = readFileSync('src/ui/fonts/fonts.css', 'utf8');
    const urls = [...css.matchAll(/url\('([^']+)'\)/g)].map((m) => m[1]);
    expect(urls).toEqual([
      '@fontsource-variable/ibm-plex-sans/files/ibm-plex-sans-latin-wght-normal.woff2',
      '@fontsource/ibm-plex-mono/files/ibm-plex-mono-latin-400-normal.woff2',
      '@fontsource/ibm-plex-mono/files/ibm-plex-mono-latin-700-normal.woff2',
      './lab-symbols.woff2?no-inline',
    ]);
    for (const [i, file] of [FONT_FILES.sans, FONT_FILES.mono, FONT_FILES.monoBold].entries())
      expect(file.endsWith(urls[i] as string)).toBe(true);
    const tokens = readFileSync('src/ui/tokens.css', 'utf8');
    expect(tokens).toContain("--font-sans: 'IBM Plex Sans', 'Lab Symbols',");
    expect(tokens).toContain("--font-mono: 'IBM Plex Mono', 'Lab Symbols',");
  });

  it('come from the page’s own origin: the policy allows no other font source', () => {
    expect(PAGE_CSP).not.toContain('font-src');
    expect(PAGE_CSP).toContain("default-src 'self'");
  });
});
