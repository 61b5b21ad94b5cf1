import { accuracyLayout, type AccuracyInput } from './accuracyLines.ts';
import { algorithmColour } from './palette.ts';
import { YTicks } from './parts.tsx';

const W = 640;
const H = 300;
/** A bound is dashed, a measured error solid with dots: told apart without colour. */
const BOUND_DASH = '6 4';

/**
 * The cheap read's accuracy against CPUs, on a log axis: per counter its worst error measured
 * (solid, dots) and its bound (dashed), a legend in HTML.
 */
export function AccuracyLines({ series }: { series: readonly AccuracyInput[] }) {
  const l = accuracyLayout(series, W, H);
  const summary = `The read's accuracy against CPUs, on a log scale. ${series
    .map(
      (s) => `${s.label}: ${s.points.map((p) => `${String(p.x)} CPU ${String(p.y)}`).join(', ')}`,
    )
    .join('; ')}`;
  return (
    <div className="scaling-chart">
      <svg viewBox={`0 0 ${String(W)} ${String(H)}`} role="img" aria-label={summary}>
        <YTicks ticks={l.yTicks} x1={l.plot.left} x2={l.plot.right} />
        {l.xTicks.map((t) => (
          <text
            key={t.label}
            x={t.x}
            y={l.plot.bottom + 18}
            textAnchor="middle"
            className="tick-label"
          >
            {t.label}
          </text>
        ))}
        <text
          x={(l.plot.left + l.plot.right) / 2}
          y={H - 4}
          textAnchor="middle"
          className="axis-title"
        >
          CPUs
        </text>
        {l.series.map((s) => (
          <g key={s.key}>
            <path
              d={s.path}
              fill="none"
              stroke={algorithmColour(s.scenario)}
              strokeWidth={s.kind === 'bound' ? 2 : 2.5}
              strokeDasharray={s.kind === 'bound' ? BOUND_DASH : undefined}
            />
            {s.kind === 'measured' &&
              s.dots.map((d) => (
                <circle key={d.x} cx={d.cx} cy={d.cy} r={4} fill={algorithmColour(s.scenario)}>
                  <title>{`${s.label}, ${String(d.x)} CPU: ${String(d.y)}`}</title>
                </circle>
              ))}
          </g>
        ))}
      </svg>
      <ul className="legend" aria-hidden="true">
        {series.map((s) => (
          <li key={`${s.scenario}|${s.kind}`}>
            <svg width="28" height="10" aria-hidden="true">
              <line
                x1="0"
                x2="28"
                y1="5"
                y2="5"
                stroke={algorithmColour(s.scenario)}
                strokeWidth={3}
                strokeDasharray={s.kind === 'bound' ? BOUND_DASH : undefined}
              />
            </svg>{' '}
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
