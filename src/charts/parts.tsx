// Small SVG pieces shared by the charts.

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
