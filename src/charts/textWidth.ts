// How wide a chart's label is drawn, from the advance widths of the fonts the app serves (IBM Plex
// Sans and Mono, and the lab's symbols: src/ui/fonts/). Pure: the layout tests get the widths
// from the font files themselves (test/chartFonts.setup.ts reads them with fontkit when Vitest
// starts), so a label that would overflow its box, or run into its neighbour, fails a unit test
// instead of hiding in a screenshot. Kerning is left out: Plex's pairs mostly tighten, so a sum
// of advances errs on the wide side.

import type { Box } from './geometry.ts';

/** One face's metrics, in units of its em. */
export interface FaceMetrics {
  /** Advance width of each character the face draws. */
  readonly advances: Readonly<Record<string, number>>;
  /** The ink above the baseline (the tallest glyph, accents aside) and below it. */
  readonly ascent: number;
  readonly descent: number;
}

/** The faces a chart's text can use: Plex Sans at its weights, Plex Mono, the symbols. */
export interface ChartFonts {
  readonly faces: Readonly<Record<string, FaceMetrics>>;
  /** font-size, font-weight and family of each selector of the charts' style sheets. */
  readonly css: Readonly<Record<string, TextStyle>>;
}

export interface TextStyle {
  readonly size: number;
  readonly weight: number;
  readonly mono: boolean;
}

/** The face that draws a style: Plex Sans is variable up to 700, Plex Mono has 400 and 700. */
export function faceOf(style: TextStyle): string {
  if (style.mono) return style.weight >= 600 ? 'mono-700' : 'mono-400';
  return `sans-${String(Math.min(700, Math.max(400, Math.round(style.weight / 100) * 100)))}`;
}

/** The width of `text` in `style`: a character the face lacks is drawn by the symbols. */
export function textWidth(fonts: ChartFonts, text: string, style: TextStyle): number {
  const face = fonts.faces[faceOf(style)];
  const symbols = fonts.faces.symbols;
  if (!face || !symbols) throw new Error(`no metrics for ${faceOf(style)}`);
  let em = 0;
  for (const ch of text) {
    const a = face.advances[ch] ?? symbols.advances[ch];
    if (a === undefined) throw new Error(`no bundled glyph for ${JSON.stringify(ch)}`);
    em += a;
  }
  return em * style.size;
}

/** The box a <text> covers, from its baseline point and its text-anchor. */
export function textBox(
  fonts: ChartFonts,
  t: { readonly text: string; readonly x: number; readonly y: number; readonly anchor?: string },
  style: TextStyle,
): Box {
  const face = fonts.faces[faceOf(style)];
  if (!face) throw new Error(`no metrics for ${faceOf(style)}`);
  const width = textWidth(fonts, t.text, style);
  const left = t.anchor === 'middle' ? t.x - width / 2 : t.anchor === 'end' ? t.x - width : t.x;
  const top = t.y - face.ascent * style.size;
  return { x: left, y: top, width, height: (face.ascent + face.descent) * style.size };
}

/** Do two boxes share any area (touching edges do not count)? */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Is `inner` within `outer` (to a hundredth of a unit)? */
export function inside(inner: Box, outer: Box): boolean {
  const e = 0.01;
  return (
    inner.x >= outer.x - e &&
    inner.y >= outer.y - e &&
    inner.x + inner.width <= outer.x + outer.width + e &&
    inner.y + inner.height <= outer.y + outer.height + e
  );
}
