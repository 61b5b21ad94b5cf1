import { Hatch, YTicks } from './parts.tsx';
import { histogramLayout } from './histogram.ts';

const W = 720;
const H = 220;

/** One bar per outcome; violating outcomes are hatched red and marked ✗ (not colour alone). */
export function OutcomeHistogram({
  outcomes,
}: {
  outcomes: readonly { label: string; count: number; broken: readonly string[] }[];
}) {
  const l = histogramLayout(
    outcomes.map((o) => o.count),
    W,
    H,
  );
  const verdict = (o: (typeof outcomes)[number]) =>
    o.broken.length > 0 ? ` (breaks ${o.broken.join(', ')})` : '';
  const summary = `Outcome histogram: ${outcomes.map((o) => `${o.label}${verdict(o)}: ${o.count} end states`).join('; ')}`;
  return (
    <svg className="histogram" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
      <Hatch id="bad-hatch" />
      <YTicks ticks={l.ticks} x1={44} x2={W - 10} />
      {l.bars.map((b) => {
        const o = outcomes[b.index];
        if (!o) return null;
        return (
          <g key={b.index}>
            <rect
              x={b.x}
              y={b.y}
              width={b.width}
              height={b.height}
              fill={o.broken.length > 0 ? 'url(#bad-hatch)' : '#0072B2'}
            >
              <title>{`${o.label}${verdict(o)}: ${o.count}`}</title>
            </rect>
            <text
              x={b.x + b.width / 2}
              y={b.y - 4}
              textAnchor="middle"
              className="tick-label"
              fontSize={l.labelSize}
            >
              {o.broken.length > 0 ? '✗ ' : ''}#{b.index + 1}
            </text>
          </g>
        );
      })}
      <line x1={44} x2={W - 10} y1={l.baseline} y2={l.baseline} stroke="#000" />
    </svg>
  );
}
