// Test helper: the fonts' metrics and the charts' text styles that test/chartFonts.setup.ts read
// from the font files and the style sheets, and the box a label of a given class covers.

import { inject } from 'vitest';
import type { Box } from './geometry.ts';
import { type ChartFonts, textBox, type TextStyle, textWidth } from './textWidth.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    chartFonts: ChartFonts;
  }
}

export const fonts: ChartFonts = inject('chartFonts');

/** The text style the style sheets give `selector` (".counter-chart .bar-label"). */
export function styleOf(selector: string): TextStyle {
  const s = fonts.css[selector];
  if (!s) throw new Error(`no rule for ${selector} in the charts' style sheets`);
  return s;
}

/** The width of `text` drawn as `selector`. */
export function widthOf(selector: string, text: string): number {
  return textWidth(fonts, text, styleOf(selector));
}

/** The box of a label drawn as `selector` at its baseline point. */
export function labelBox(
  selector: string,
  t: { readonly text: string; readonly x: number; readonly y: number; readonly anchor?: string },
): Box {
  return textBox(fonts, t, styleOf(selector));
}
