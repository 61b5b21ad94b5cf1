// One colour and one dash pattern per algorithm, the same in every Scaling chart, so a line and a
// bar of one algorithm match, and lines differ by more than colour alone.

import { scalingScenarios } from '../live/scaling/plan.ts';

// Tableau 10, minus the lightest, all at least 3:1 on white.
const COLOURS = [
  '#4e79a7',
  '#e15759',
  '#59a14f',
  '#b07aa1',
  '#f28e2b',
  '#9c755f',
  '#76b7b2',
  '#d37295',
  '#86808c',
  '#a0a03c',
  '#3b6e8f',
];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '12 4', '4 4 1 4'];

function indexOf(key: string): number {
  const scenario = key.split(' ')[0] ?? key;
  const i = scalingScenarios().indexOf(scenario);
  const base = i < 0 ? 0 : i;
  // The interpreted twin of an algorithm gets a different dash, the same colour.
  return key.includes('(interpreted)') ? base + 3 : base;
}

export function algorithmColour(key: string): string {
  const scenario = key.split(' ')[0] ?? key;
  const i = scalingScenarios().indexOf(scenario);
  return COLOURS[(i < 0 ? 0 : i) % COLOURS.length] as string;
}

export function algorithmDash(key: string): string {
  return DASHES[indexOf(key) % DASHES.length] as string;
}

/** Series colours for grouped bars (padded/packed, summers): distinct from the algorithms'. */
export const SERIES_COLOURS = ['#0b3d91', '#c0504d', '#2e7d32', '#6a3d9a'];
