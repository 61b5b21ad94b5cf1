import { rateBarsLayout } from './rateBars.ts';
import { formatRate } from '../live/format.ts';

const W = 520;

/** Operations per second of each CPU, one horizontal bar per CPU. */
export function RateBars({
  label,
  values,
  colour,
}: {
  label: string;
  values: readonly number[];
  colour: (cpu: number) => string;
}) {
  // Many CPUs: thinner rows with smaller type (.dense), so 64 still fit on a screen.
  const row = values.length > 16 ? 12 : 26;
  const H = Math.max(40, values.length * row + 8);
  const l = rateBarsLayout(values, W, H);
  const summary = `${label}: ${values.map((v, k) => `CPU${k} ${formatRate(v)}`).join(', ')}`;
  return (
    <svg
      className={values.length > 16 ? 'rate-bars dense' : 'rate-bars'}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={summary}
    >
      {l.bars.map((b) => (
        <g key={b.cpu}>
          <text x={l.x0 - 6} y={b.y + b.height / 2 + 4} textAnchor="end" className="tick-label">
            CPU{b.cpu}
          </text>
          <rect x={l.x0} y={b.y} width={b.width} height={b.height} fill={colour(b.cpu)} />
          <text x={l.x0 + b.width + 6} y={b.y + b.height / 2 + 4} className="tick-label">
            {formatRate(b.value)}/s
          </text>
        </g>
      ))}
    </svg>
  );
}
