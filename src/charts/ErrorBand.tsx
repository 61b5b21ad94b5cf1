import { errorBandLayout, errorBandSummary } from './errorBand.ts';
import { YTicks } from './parts.tsx';
import type { Point } from './sparkline.ts';

const W = 520;
const H = 200;

/** read() and sum() minus the exact total over time, with the ±(batch − 1) × CPUs band. */
export function ErrorBand({
  read,
  sum,
  bound,
  windowSeconds,
}: {
  read: readonly Point[];
  sum: readonly Point[];
  bound: number | null;
  windowSeconds: number;
}) {
  const l = errorBandLayout(read, sum, bound, W, H, windowSeconds);
  const summary = errorBandSummary({
    lastRead: read[read.length - 1]?.v,
    lastSum: sum[sum.length - 1]?.v,
    bound,
    marked: l.outside.length,
  });
  return (
    <svg
      className="error-band"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Error against the exact total: ${summary}`}
    >
      {l.band && (
        <rect x={56} width={W - 66} y={l.band.y} height={l.band.height} className="band" />
      )}
      <YTicks ticks={l.ticks} x1={56} x2={W - 10} />
      <line x1={56} x2={W - 10} y1={l.zeroY} y2={l.zeroY} className="zero-line" />
      <path d={l.readPath} className="read-path" />
      <path d={l.sumPath} className="sum-path" />
      {l.outside.map((p, i) => (
        <text key={i} x={p.x} y={p.y + 4} textAnchor="middle" className="outside-mark">
          ×
        </text>
      ))}
    </svg>
  );
}
