// Small SVG pieces shared by the charts.

import type { PlotBox, XTick } from './cpuAxis.ts';
import type { Tick } from './geometry.ts';

/**
 * A hatch pattern: marks a bar that breaks a rule (red, by default), or a batch a sum missed,
 * so the signal is not colour alone.
 */
export function Hatch({
  id,
  fill = '#b00020',
  stroke = '#fff',
  angle = 45,
  size = 8,
  width = 3,
}: {
  id: string;
  fill?: string;
  stroke?: string;
  angle?: number;
  size?: number;
  width?: number;
}) {
  return (
    <defs>
      <pattern
        id={id}
        width={size}
        height={size}
        patternUnits="userSpaceOnUse"
        patternTransform={`rotate(${String(angle)})`}
      >
        <rect width={size} height={size} fill={fill} />
        <line x1="0" y1="0" x2="0" y2={size} stroke={stroke} strokeWidth={width} />
      </pattern>
    </defs>
  );
}

/** Horizontal grid lines with their labels on the left. */
export function YTicks({ ticks, x1, x2 }: { ticks: readonly Tick[]; x1: number; x2: number }) {
  return (
    <>
      {ticks.map((t) => (
        <g key={t.label}>
          <line x1={x1} x2={x2} y1={t.y} y2={t.y} className="tick-line" />
          <text x={x1 - 4} y={t.y + 5} textAnchor="end" className="tick-label">
            {t.label}
          </text>
        </g>
      ))}
    </>
  );
}

/** The x axis of a chart against CPUs: a label per CPU count under the plot, and its title. */
export function CpuAxis({
  ticks,
  plot,
  height,
}: {
  ticks: readonly XTick[];
  plot: PlotBox;
  /** The chart's height: the title sits on its bottom edge. */
  height: number;
}) {
  return (
    <>
      {ticks.map((t) => (
        <text key={t.label} x={t.x} y={plot.bottom + 18} textAnchor="middle" className="tick-label">
          {t.label}
        </text>
      ))}
      <text
        x={(plot.left + plot.right) / 2}
        y={height - 4}
        textAnchor="middle"
        className="axis-title"
      >
        CPUs
      </text>
    </>
  );
}

/** A legend entry's sample of its line, in the line's colour and dash (so not colour alone). */
export function LegendLine({ colour, dash }: { colour: string; dash: string | undefined }) {
  return (
    <svg width="28" height="10" aria-hidden="true">
      <line x1="0" x2="28" y1="5" y2="5" stroke={colour} strokeWidth={3} strokeDasharray={dash} />
    </svg>
  );
}
