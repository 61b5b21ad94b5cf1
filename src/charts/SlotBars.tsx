import { Hatch, YTicks } from './parts.tsx';
import { barLabel, slotBarsLayout } from './slotBars.ts';
import { rectOf, type Size } from './geometry.ts';

const W = 520;
const H = 220;

/** Per-CPU deltas as bars with the ±batch lines. React owns the SVG; d3 computed the layout. */
export function SlotBars({
  label,
  values,
  batch,
  thresholdName = 'batch',
  colour,
  pouring = -1,
  size = { width: W, height: H },
}: {
  label: string;
  values: readonly number[];
  batch: number | null;
  /** What the threshold is called on the chart ("batch", "threshold"). */
  thresholdName?: string;
  colour: (cpu: number) => string;
  /** The CPU whose delta was just folded into the global count (−1: none). */
  pouring?: number;
  /** The chart's own coordinates (Step mode's hero sizes it to its box). */
  size?: Size;
}) {
  const { width: w, height: h } = size;
  const l = slotBarsLayout(values, batch, w, h);
  const pitch = l.bars.length > 1 ? (l.bars[1]?.x ?? 0) - (l.bars[0]?.x ?? 0) : w;
  const summary = `${label}: ${values.map((v, k) => `CPU${k} ${v}`).join(', ')}${batch === null ? '' : `; ${thresholdName} ±${batch}`}`;
  return (
    <svg className="slot-bars" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary}>
      <Hatch id="over-hatch" />
      <YTicks ticks={l.ticks} x1={50} x2={w - 12} />
      {l.plusY !== null && l.minusY !== null && (
        <g className="threshold">
          <line x1={50} x2={w - 12} y1={l.plusY} y2={l.plusY} />
          <line x1={50} x2={w - 12} y1={l.minusY} y2={l.minusY} />
          <text x={w - 14} y={l.plusY - 4} textAnchor="end">
            +{thresholdName} {batch}
          </text>
          <text x={w - 14} y={l.minusY + 16} textAnchor="end">
            −{thresholdName}
          </text>
        </g>
      )}
      <line x1={50} x2={w - 12} y1={l.zeroY} y2={l.zeroY} className="zero-line" />
      {l.bars.map((b) => (
        <g key={b.cpu}>
          <rect {...rectOf(b)} fill={b.over ? 'url(#over-hatch)' : colour(b.cpu)} className="bar" />
          {b.cpu === pouring && (
            <text
              x={b.x + b.width / 2}
              y={Math.max(14, b.y - 6)}
              textAnchor="middle"
              className="pour"
            >
              ↑ folded
            </text>
          )}
          {barLabel(b.cpu, b.value, l.bars.length, pitch) !== null && (
            <text x={b.x + b.width / 2} y={h - 8} textAnchor="middle" className="bar-label">
              {barLabel(b.cpu, b.value, l.bars.length, pitch)}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}
