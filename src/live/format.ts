// Counts and rates for people, the one short-number formatter: 1234567 → "1.23 M" (rates, with
// fixed decimals) or "+1.23 M" (chart ticks, three significant digits). Shared by the charts, the
// CLI and soak.

/** The unit a magnitude is shown in: G, M, k (from 10,000 on, so 9999 stays whole), or none. */
function unitOf(a: number): readonly [number, string] {
  if (a >= 1e9) return [1e9, ' G'];
  if (a >= 1e6) return [1e6, ' M'];
  if (a >= 1e4) return [1e3, ' k'];
  return [1, ''];
}

export function formatRate(v: number): string {
  const [div, unit] = unitOf(v);
  if (div === 1) return String(Math.round(v));
  return `${(v / div).toFixed(div === 1e3 ? 1 : 2)}${unit}`;
}

/** A tick label that fits the margin: +12, −3.5 k, +2 M. */
export function signedShort(v: number): string {
  const a = Math.abs(v);
  const [div, unit] = unitOf(a);
  const body = div === 1 ? String(a) : `${String(+(a / div).toPrecision(3))}${unit}`;
  return v > 0 ? `+${body}` : v < 0 ? `−${body}` : '0';
}
