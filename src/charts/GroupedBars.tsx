import { type BarGroup, groupedBarsLayout } from './groupedBars.ts';
import { SERIES_COLOURS } from './palette.ts';
import { YTicks } from './parts.tsx';
import { rectOf } from './geometry.ts';

const W = 640;
const H = 260;

/** One group of bars per algorithm, one bar per series, with a legend and values in words. */
export function GroupedBars({
  label,
  groups,
  series,
  yLabel,
  describe,
}: {
  label: string;
  groups: readonly BarGroup[];
  series: readonly string[];
  yLabel: (v: number) => string;
  describe: (v: number) => string;
}) {
  const l = groupedBarsLayout(groups, series.length, W, H, yLabel);
  const summary = `${label}. ${groups
    .map(
      (g) =>
        `${g.category}: ${g.values
          .map((v, i) => `${series[i] ?? ''} ${v === null ? 'not measured' : describe(v)}`)
          .join(', ')}`,
    )
    .join('; ')}`;
  return (
    <div className="scaling-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
        <YTicks ticks={l.yTicks} x1={72} x2={W - 12} />
        <line x1={72} x2={W - 12} y1={l.baseline} y2={l.baseline} className="zero-line" />
        {l.bars.map((b) => (
          <rect
            key={`${b.category}-${String(b.series)}`}
            {...rectOf(b)}
            fill={SERIES_COLOURS[b.series % SERIES_COLOURS.length]}
          >
            <title>{`${b.category}, ${series[b.series] ?? ''}: ${describe(b.value)}`}</title>
          </rect>
        ))}
        {l.categories.map((c) => {
          // Two lines ("percpu-" / "classic") so neighbouring names do not run into each other.
          const [head = '', ...rest] = c.category.split('-');
          return (
            <text
              key={c.category}
              x={c.x}
              y={l.baseline + 18}
              textAnchor="middle"
              className="tick-label"
            >
              <tspan x={c.x}>{rest.length > 0 ? `${head}-` : head}</tspan>
              {rest.length > 0 && (
                <tspan x={c.x} dy={16}>
                  {rest.join('-')}
                </tspan>
              )}
            </text>
          );
        })}
      </svg>
      <ul className="legend" aria-hidden="true">
        {series.map((s, i) => (
          <li key={s}>
            <span
              className="swatch"
              style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }}
            />{' '}
            {s}
          </li>
        ))}
      </ul>
    </div>
  );
}
