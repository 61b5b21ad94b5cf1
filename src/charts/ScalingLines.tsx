import { algorithmColour, algorithmDash } from './algorithmStyle.ts';
import { CpuAxis, LegendLine, YTicks } from './parts.tsx';
import { type LineSeries, linesLayout } from './scalingLines.ts';

const W = 640;
const H = 300;

/**
 * Lines against CPUs (throughput or efficiency), a band per line, and a legend in HTML. CPU counts
 * above `cores` sit in a shaded band and their dots are hollow: time-sharing, not scaling.
 */
export function ScalingLines({
  label,
  series,
  yLabel,
  describe,
  cores,
}: {
  label: string;
  series: readonly LineSeries[];
  yLabel: (v: number) => string;
  /** One point in words, for the accessible summary. */
  describe: (v: number) => string;
  /** The machine's cores (counts above them are marked), if known. */
  cores?: number;
}) {
  const l = linesLayout(series, W, H, yLabel, cores);
  const over = (x: number) => (cores !== undefined && x > cores ? ' (more CPUs than cores)' : '');
  const marked = l.oversubscribed && cores !== undefined;
  const summary = `${label}${marked ? `; above ${String(cores)} CPUs, more CPUs than cores take turns on them` : ''}. ${series
    .map(
      (s) =>
        `${s.label}: ${s.points.map((p) => `${String(p.x)} CPU ${describe(p.y)}${over(p.x)}`).join(', ')}`,
    )
    .join('; ')}`;
  return (
    <div className="scaling-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
        <YTicks ticks={l.yTicks} x1={l.plot.left} x2={l.plot.right} />
        <line
          x1={l.plot.left}
          x2={l.plot.right}
          y1={l.plot.bottom}
          y2={l.plot.bottom}
          className="zero-line"
        />
        <CpuAxis ticks={l.xTicks} plot={l.plot} height={H} />
        {l.oversubscribed && (
          <g className="oversubscribed">
            <rect
              x={l.oversubscribed.x}
              y={l.plot.top}
              width={l.oversubscribed.width}
              height={l.plot.bottom - l.plot.top}
            />
            <text x={l.plot.right - 4} y={l.plot.top + 14} textAnchor="end" className="tick-label">
              more CPUs than cores
            </text>
          </g>
        )}
        {l.series.map((s) => (
          <g key={s.key}>
            <path d={s.band} fill={algorithmColour(s.key)} opacity={0.15} />
            <path
              d={s.path}
              fill="none"
              stroke={algorithmColour(s.key)}
              strokeWidth={2.5}
              strokeDasharray={algorithmDash(s.key)}
            />
            {s.dots.map((d) => (
              <circle
                key={d.point.x}
                cx={d.cx}
                cy={d.cy}
                r={4}
                fill={d.oversubscribed ? 'var(--page)' : algorithmColour(s.key)}
                stroke={algorithmColour(s.key)}
                strokeWidth={d.oversubscribed ? 2 : 0}
              >
                <title>{`${s.label}, ${String(d.point.x)} CPU: ${describe(d.point.y)}${over(d.point.x)}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <ul className="legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key}>
            <LegendLine colour={algorithmColour(s.key)} dash={algorithmDash(s.key)} /> {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
