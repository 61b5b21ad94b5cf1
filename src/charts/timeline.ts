// Layout of the step timeline: one lane per CPU, one mark per step, coloured by kind.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import type { Box } from './geometry.ts';

export interface Mark extends Box {
  readonly index: number;
  readonly kind: number;
}

export function timelineLayout(
  steps: readonly { cpu: number; kind: number }[],
  cpus: number,
  width: number,
  laneHeight = 22,
  left = 56,
): {
  marks: Mark[];
  height: number;
  lanes: { cpu: number; y: number }[];
  xOf: (i: number) => number;
} {
  const height = cpus * laneHeight + 8;
  const x = linearScale([0, Math.max(10, steps.length)], [left, width - 8]);
  const lane = scaleBand<number>()
    .domain(Array.from({ length: cpus }, (_, k) => k))
    .range([4, height - 4])
    .padding(0.15);
  const w = Math.max(2, x(1) - x(0) - 1);
  return {
    marks: steps.map((s, index) => ({
      index,
      x: x(index),
      y: lane(s.cpu) ?? 0,
      width: w,
      height: lane.bandwidth(),
      kind: s.kind,
    })),
    height,
    lanes: Array.from({ length: cpus }, (_, k) => ({
      cpu: k,
      y: (lane(k) ?? 0) + lane.bandwidth() / 2,
    })),
    xOf: (i) => x(i),
  };
}
