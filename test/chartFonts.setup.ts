// Vitest's global set-up: the metrics of the fonts the app serves, read from the font files
// themselves (fontkit), and the text styles the charts' style sheets give each class, handed to
// the chart layout tests (`inject('chartFonts')`, src/charts/textWidth.ts). Read once a run.

import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import type { TestProject } from 'vitest/node';
import { FONT_FILES } from '../deploy/symbolFont.ts';
// testFonts.ts declares what `inject('chartFonts')` holds.
import type {} from '../src/charts/testFonts.ts';
import type { ChartFonts, FaceMetrics, TextStyle } from '../src/charts/textWidth.ts';

/** Printable ASCII and Latin-1, and what the symbol font holds. */
const CHARS = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCodePoint(0x20 + i)),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => String.fromCodePoint(0xa0 + i)),
  ...Array.from('…–—’‘“”−·×±µ↑↓'),
];

/** `face` at `wght` (a variable font), or as it is. */
function metrics(font: fontkit.Font, chars: readonly string[], wght?: number): FaceMetrics {
  // fontkit's instance of a variable woff2 has no character map of its own: look glyphs up in
  // the font, and lay out each character in the instance for its advance at that weight.
  const face = wght === undefined ? font : font.getVariation({ wght });
  const advances: Record<string, number> = {};
  let ascent = 0;
  let descent = 0;
  for (const ch of chars) {
    if (!font.hasGlyphForCodePoint(ch.codePointAt(0) as number)) continue;
    const run = face.layout(ch);
    const g = run.glyphs[0];
    if (!g) continue;
    advances[ch] = run.advanceWidth / font.unitsPerEm;
    // The ink of ASCII letters and digits: accents and brackets may reach past a line's box.
    if (/[A-Za-z0-9]/.test(ch)) {
      ascent = Math.max(ascent, g.bbox.maxY / font.unitsPerEm);
      descent = Math.max(descent, -g.bbox.minY / font.unitsPerEm);
    }
  }
  return { advances, ascent, descent };
}

function open(file: string): fontkit.Font {
  return fontkit.openSync(file) as fontkit.Font;
}

/** Top-level rules' font-size, font-weight and family, merged in order, per selector. */
function styles(files: readonly string[]): Record<string, TextStyle> {
  const out: Record<string, TextStyle> = {};
  for (const file of files) {
    const css = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    let depth = 0;
    let start = 0;
    for (let i = 0; i < css.length; i++) {
      if (css[i] === '{') {
        if (depth === 0) {
          const selectors = css.slice(start, i).trim();
          const end = css.indexOf('}', i);
          const body = css.slice(i + 1, end);
          if (!selectors.startsWith('@')) {
            for (const sel of selectors.split(',').map((s) => s.trim().replace(/\s+/g, ' '))) {
              const was = out[sel] ?? { size: 16, weight: 400, mono: false };
              const size = /font-size:\s*([\d.]+)px/.exec(body)?.[1];
              const weight = /font-weight:\s*(\d+)/.exec(body)?.[1];
              const family = /font-family:\s*([^;]+)/.exec(body)?.[1];
              out[sel] = {
                size: size === undefined ? was.size : Number(size),
                weight: weight === undefined ? was.weight : Number(weight),
                mono: family === undefined ? was.mono : family.includes('mono'),
              };
            }
            i = end;
            start = end + 1;
            continue;
          }
        }
        depth++;
      } else if (css[i] === '}') {
        depth--;
        if (depth === 0) start = i + 1;
      }
    }
  }
  return out;
}

export default function setup(project: TestProject): void {
  const sans = open(FONT_FILES.sans);
  const symbols = open(FONT_FILES.symbols);
  const symbolChars = symbols.characterSet.map((c) => String.fromCodePoint(c));
  const fonts: ChartFonts = {
    faces: {
      'sans-400': metrics(sans, CHARS, 400),
      'sans-500': metrics(sans, CHARS, 500),
      'sans-600': metrics(sans, CHARS, 600),
      'sans-700': metrics(sans, CHARS, 700),
      'mono-400': metrics(open(FONT_FILES.mono), CHARS),
      'mono-700': metrics(open(FONT_FILES.monoBold), CHARS),
      symbols: metrics(symbols, symbolChars),
    },
    css: styles(['src/charts/animations.css', 'src/ui/app.css']),
  };
  project.provide('chartFonts', fonts);
}
