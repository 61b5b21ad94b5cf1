import { cpuColour } from '../../charts/palette.ts';

/**
 * The lab's mark: four per-CPU slots filling toward a batch line, the picture the lab is about.
 * Decorative: the wordmark beside it is the name.
 */
export function BrandMark() {
  const heights = [9, 15, 6, 12];
  return (
    <svg className="brand-mark" viewBox="0 0 28 22" width="28" height="22" aria-hidden="true">
      {heights.map((h, k) => (
        <rect key={k} x={1 + k * 7} y={20 - h} width={5} height={h} rx={1} fill={cpuColour(k)} />
      ))}
      <line x1={0} x2={28} y1={4.5} y2={4.5} className="brand-batch" />
    </svg>
  );
}
