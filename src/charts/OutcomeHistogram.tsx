import { Hatch, YTicks } from './parts.tsx';
import { HISTOGRAM, histogramLayout } from './histogram.ts';
import { rectOf } from './geometry.ts';

const { width: W, height: H, margin: MARGIN, text: TEXT } = HISTOGRAM;

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
  const summary = `Outcome histogram: ${outcomes.map((o) => `${o.label}${verdict(o)}: ${o.count} end ${o.count === 1 ? 'state' : 'states'}`).join('; ')}`;
  return (
    <svg
      className="histogram"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={summary}
      fontSize={TEXT}
    >
      <Hatch id="bad-hatch" />
      <YTicks ticks={l.ticks} x1={MARGIN.left - 4} x2={W - MARGIN.right} />
      <text
        className="axis-title"
        transform={`translate(11 ${String((MARGIN.top + l.baseline) / 2)}) rotate(-90)`}
        textAnchor="middle"
      >
        end states
      </text>
      <text className="axis-title" x={(MARGIN.left + W) / 2} y={H - 6} textAnchor="middle">
        outcome # as in the list (✗ breaks an invariant)
      </text>
      {l.bars.map((b) => {
        const o = outcomes[b.index];
        if (!o) return null;
        const label = `${o.broken.length > 0 ? '✗ ' : ''}#${String(b.index + 1)}`;
        return (
          <g key={b.index}>
            <rect {...rectOf(b)} fill={o.broken.length > 0 ? 'url(#bad-hatch)' : '#0072B2'}>
              <title>{`${o.label}${verdict(o)}: ${o.count}`}</title>
            </rect>
            {b.labelled && (
              <text
                x={b.x + b.width / 2}
                y={b.y - 4}
                textAnchor="middle"
                className="tick-label"
                fontSize={l.labelSize}
              >
                {label}
              </text>
            )}
          </g>
        );
      })}
      <line
        x1={MARGIN.left - 4}
        x2={W - MARGIN.right}
        y1={l.baseline}
        y2={l.baseline}
        stroke="#000"
      />
    </svg>
  );
}
