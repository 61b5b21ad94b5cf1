// A catalogue preview's marks and its size: what preview.ts lays out and the home page draws
// (src/ui/catalogue/ScenarioPreview.tsx), in a module of their own so that drawing a preview laid
// out at build time imports neither the machine nor d3.

import type { Box } from './geometry.ts';

export const PREVIEW_W = 120;
export const PREVIEW_H = 64;

export interface PreviewRect extends Box {
  /** A CPU's bar (its colour), a word's box, or a word whose value is wrong (a torn read). */
  readonly kind: 'bar' | 'box' | 'bad';
  /** The CPU of a bar, else −1. */
  readonly cpu: number;
}

export interface PreviewLine {
  readonly x1: number;
  readonly x2: number;
  readonly y: number;
  readonly kind: 'zero' | 'batch';
}

export interface PreviewText {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  /** name: a cell's name; value: its value (small: in a row); label: a bar's value. */
  readonly kind: 'name' | 'value' | 'small' | 'label' | 'bad';
  readonly anchor: 'start' | 'middle' | 'end';
  /** A length to squeeze the text into when it would not fit, else null. */
  readonly fit: number | null;
}

/** Every mark of a preview, in a PREVIEW_W × PREVIEW_H box; ScenarioPreview draws them. */
export interface PreviewLayout {
  readonly rects: readonly PreviewRect[];
  readonly lines: readonly PreviewLine[];
  readonly texts: readonly PreviewText[];
}
