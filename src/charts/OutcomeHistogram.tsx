import { Hatch, YTicks } from './parts.tsx';
import { histogramLayout } from './histogram.ts';
import { rectOf } from './geometry.ts';

const W = 720;
const H = 244;
/** Room for the axis titles: the y title at the left, the x title under the baseline. */
const MARGIN = { top: 20, right: 10, bottom: 30, left: 62 };

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
    MARGIN,
  );
  const verdict = (o: (typeof outcomes)[number]) =>
    o.broken.length > 0 ? ` (breaks ${o.broken.join(', ')})` : '';
  const summary = `Outcome histogram: ${outcomes.map((o) => `${o.label}${verdict(o)}: ${o.count} end states`).join('; ')}`;
  return (
    <svg className="histogram" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
      <Hatch id="bad-hatch" />
      <YTicks ticks={l.ticks} x1={MARGIN.left - 4} x2={W - 10} />
      <text
        className="axis-title"
        transform={`translate(14 ${String((MARGIN.top + l.baseline) / 2)}) rotate(-90)`}
        textAnchor="middle"
      >
        end states
      </text>
      <text className="axis-title" x={(MARGIN.left + W) / 2} y={H - 6} textAnchor="middle">
        outcome, numbered as in the list below (✗: breaks an invariant)
      </text>
      {l.bars.map((b) => {
        const o = outcomes[b.index];
        if (!o) return null;
        return (
          <g key={b.index}>
            <rect {...rectOf(b)} fill={o.broken.length > 0 ? 'url(#bad-hatch)' : '#0072B2'}>
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
      <line x1={MARGIN.left - 4} x2={W - 10} y1={l.baseline} y2={l.baseline} stroke="#000" />
    </svg>
  );
}
