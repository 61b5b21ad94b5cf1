// Every colour the lab draws with, in one place: one per CPU (Step, Live, the charts), one per
// kind of step (the timeline), and one colour and one dash pattern per algorithm, the same in
// every Scaling chart, so a line and a bar of one algorithm match, and lines differ by more than
// colour alone. The default five algorithms (global-atomic, global-spinlock, lazy-nr-files,
// percpu-classic, percpu-seq) get the most distinct hues; every colour has at least 3:1 contrast
// on white.

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

const COLOURS: Readonly<Record<string, string>> = {
  'global-plain': '#8c564b',
  'global-atomic': '#d62728',
  'global-spinlock': '#7b4fa8',
  'lazy-nr-files': '#2a8a2a',
  'percpu-classic': '#1f5fa8',
  'percpu-atomic64': '#0f7f89',
  'percpu-lglock': '#b8408f',
  'percpu-seq': '#c45a00',
  'percpu-seq-multi': '#7a7a00',
  'percpu-sum-fuzzy': '#666666',
  'percpu-modern': '#2f2f7a',
  'percpu-upgrade': '#a0522d',
  'percpu-tree': '#303030',
};
/** Dash patterns: the default five all differ; an interpreted twin gets the next one. */
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '12 4', '4 4 1 4'];
const DASH_OF: Readonly<Record<string, number>> = {
  'percpu-classic': 0,
  'global-atomic': 1,
  'global-spinlock': 2,
  'lazy-nr-files': 3,
  'percpu-seq': 5,
  'global-plain': 4,
  'percpu-atomic64': 0,
  'percpu-lglock': 1,
  'percpu-seq-multi': 2,
  'percpu-sum-fuzzy': 3,
  'percpu-modern': 4,
  'percpu-upgrade': 5,
  'percpu-tree': 3,
};

/** "percpu-seq" or "percpu-seq (interpreted)": the scenario id. */
function scenarioOf(key: string): string {
  return key.split(' ')[0] ?? key;
}

export function algorithmColour(key: string): string {
  return COLOURS[scenarioOf(key)] ?? '#444444';
}

/** The interpreted twin of an algorithm keeps its colour with another dash. */
export function algorithmDash(key: string): string {
  const i = DASH_OF[scenarioOf(key)] ?? 0;
  return DASHES[(key.includes('(interpreted)') ? i + 1 : i) % DASHES.length] as string;
}

/** Series colours for grouped bars (padded/packed, summers): distinct from the algorithms'. */
export const SERIES_COLOURS = ['#0b3d91', '#c0504d', '#2e7d32', '#6a3d9a'];
