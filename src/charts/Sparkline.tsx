import { formatRate } from '../live/format.ts';
import { type Point, sparklineLayout } from './sparkline.ts';

const W = 220;
const H = 44;

/** A rate over the last seconds, with its newest value in words for screen readers. */
export function Sparkline({
  label,
  points,
  windowSeconds,
  unit,
}: {
  label: string;
  points: readonly Point[];
  windowSeconds: number;
  unit: string;
}) {
  const l = sparklineLayout(points, W, H, windowSeconds);
  const now = l.last ? formatRate(l.last.v) : '0';
  return (
    <figure className="sparkline">
      <figcaption>
        <span>{label}</span> <strong>{now}</strong> <span className="unit">{unit}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${label}: ${now} ${unit} now, at most ${formatRate(l.max)} in the last ${windowSeconds} s`}
      >
        <line x1={0} x2={W} y1={H - 2} y2={H - 2} className="zero-line" />
        <path d={l.path} className="spark-path" />
        {l.last && <circle cx={l.last.x} cy={l.last.y} r={3} className="spark-dot" />}
      </svg>
    </figure>
  );
}
