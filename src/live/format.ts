// Counts and rates for people: 1234567 → "1.23 M". Shared by the charts, the CLI and soak.

export function formatRate(v: number): string {
  if (v >= 1e9) return `${(v / 1e9).toFixed(2)} G`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)} M`;
  if (v >= 1e4) return `${(v / 1e3).toFixed(1)} k`;
  return String(Math.round(v));
}
