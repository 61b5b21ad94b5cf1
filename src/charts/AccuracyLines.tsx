import { accuracyLayout, type AccuracyInput } from './accuracyLines.ts';
import { algorithmColour } from './algorithmStyle.ts';
import { CpuAxis, LegendLine, YTicks } from './parts.tsx';

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
        <CpuAxis ticks={l.xTicks} plot={l.plot} height={H} />
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
            <LegendLine
              colour={algorithmColour(s.scenario)}
              dash={s.kind === 'bound' ? BOUND_DASH : undefined}
            />{' '}
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
