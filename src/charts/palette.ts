// Every colour the lab draws with, in one place: one per CPU (Step, Live, the charts), one per
// kind of step (the timeline), and the algorithms' colours and dash patterns, which
// algorithmStyle.ts gives each Scaling line from its place in the catalogue.

import { Kind } from '../machine/isa.ts';

/** Okabe–Ito colours: distinguishable with the common colour-vision deficiencies. */
export const CPU_COLOURS = [
  '#E69F00',
  '#0072B2',
  '#009E73',
  '#CC79A7',
  '#D55E00',
  '#56B4E9',
  '#000000',
  '#F0E442',
];

export function cpuColour(k: number): string {
  return CPU_COLOURS[k % CPU_COLOURS.length] as string;
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = c.map((v) =>
    v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white, whichever reads better on `hex` (a CPU's chip label). */
export function inkOn(hex: string): '#000000' | '#ffffff' {
  const l = luminance(hex);
  // Contrast with black (l + 0.05) / 0.05 against white 1.05 / (l + 0.05).
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** Colours per kind of step; the kind is also in each mark's title, not colour alone. */
export const KIND_COLOURS: Readonly<Record<number, string>> = {
  [Kind.Plain]: '#8a8f98',
  [Kind.Fold]: '#0072B2',
  [Kind.Overflow]: '#56B4E9',
  [Kind.SeqBump]: '#009E73',
  [Kind.SumRetry]: '#D55E00',
  [Kind.LockSpin]: '#b00020',
  [Kind.IrqEntry]: '#CC79A7',
  [Kind.IrqExit]: '#CC79A7',
  [Kind.NmiEntry]: '#6a1b9a',
  [Kind.Migration]: '#E69F00',
  [Kind.Preempt]: '#E69F00',
  [Kind.TornAccess]: '#F0E442',
  [Kind.Flush]: '#3f434a',
  [Kind.Hotplug]: '#117733',
};

/**
 * The Scaling lines' colours, one per algorithm a sweep can take, in the catalogue's order of
 * those algorithms (algorithmStyle.ts): global-plain, global-atomic, global-spinlock, … The ones
 * a sweep shows by default have the most distinct hues; every one has at least 3:1 contrast on
 * white.
 */
export const ALGORITHM_COLOURS = [
  '#8c564b',
  '#d62728',
  '#7b4fa8',
  '#2a8a2a',
  '#1f5fa8',
  '#0f7f89',
  '#b8408f',
  '#c45a00',
  '#7a7a00',
  '#666666',
  '#2f2f7a',
  '#a0522d',
  '#303030',
];

/** Dash patterns for the Scaling lines, so lines differ by more than colour alone. */
export const ALGORITHM_DASHES = ['', '6 3', '2 3', '8 3 2 3', '12 4', '4 4 1 4'];

/** Series colours for grouped bars (padded/packed, summers): distinct from the algorithms'. */
export const SERIES_COLOURS = ['#0b3d91', '#c0504d', '#2e7d32', '#6a3d9a'];
