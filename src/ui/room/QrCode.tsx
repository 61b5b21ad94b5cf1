// A QR code as one SVG path: uqr encodes the text, React draws the dark modules. Black on white
// with a quiet zone whatever the theme, as phone cameras read best.

import { encode } from 'uqr';

export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  const quiet = 2;
  let d = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${String(x + quiet)} ${String(y + quiet)}h1v1h-1z`;
    });
  });
  const n = size + 2 * quiet;
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${String(n)} ${String(n)}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
