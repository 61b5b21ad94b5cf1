// Small SVG pieces shared by the charts.

/** A red hatch: marks a bar that breaks a rule, so the signal is not colour alone. */
export function Hatch({ id }: { id: string }) {
  return (
    <defs>
      <pattern
        id={id}
        width="8"
        height="8"
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)"
      >
        <rect width="8" height="8" fill="#b00020" />
        <line x1="0" y1="0" x2="0" y2="8" stroke="#fff" strokeWidth="3" />
      </pattern>
    </defs>
  );
}

/** Horizontal grid lines with their labels on the left. */
export function YTicks({
  ticks,
  x1,
  x2,
}: {
  ticks: readonly { y: number; label: string }[];
  x1: number;
  x2: number;
}) {
  return (
    <>
      {ticks.map((t) => (
        <g key={t.label}>
          <line x1={x1} x2={x2} y1={t.y} y2={t.y} className="tick-line" />
          <text x={x1 - 4} y={t.y + 5} textAnchor="end" className="tick-label">
            {t.label}
          </text>
        </g>
      ))}
    </>
  );
}
