// How the lab's colours look with the common colour-vision deficiencies, so a test can hold the
// CPU palette to "still tells CPUs apart". Simulation: Machado, Oliveira and Fernandes, "A
// Physiologically-based Model for Simulation of Color Vision Deficiency" (IEEE TVCG 15(6),
// 2009), severity 1.0 (dichromacy), applied to linear RGB. Difference: CIE76 ΔE*ab in CIELAB
// (d3-color's lab). Pure.

import { lab, rgb } from 'd3';

export type Vision = 'normal' | 'protanopia' | 'deuteranopia' | 'tritanopia';

type Matrix = readonly [number, number, number, number, number, number, number, number, number];

const MACHADO: Readonly<Record<Exclude<Vision, 'normal'>, Matrix>> = {
  protanopia: [
    0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998,
  ],
  deuteranopia: [
    0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881,
  ],
  tritanopia: [
    1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039,
  ],
};

const toLinear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};
const toSrgb = (v: number) => {
  const c = Math.min(1, Math.max(0, v));
  return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
};

/** `hex` as someone with `vision` sees it, as #rrggbb. */
export function simulate(hex: string, vision: Vision): string {
  if (vision === 'normal') return rgb(hex).formatHex();
  const c = rgb(hex);
  const [r, g, b] = [toLinear(c.r), toLinear(c.g), toLinear(c.b)];
  const m = MACHADO[vision];
  return rgb(
    toSrgb(m[0] * r + m[1] * g + m[2] * b),
    toSrgb(m[3] * r + m[4] * g + m[5] * b),
    toSrgb(m[6] * r + m[7] * g + m[8] * b),
  ).formatHex();
}

/** CIE76 ΔE*ab between two colours: about 2.3 is just noticeable; 10+ reads as different. */
export function deltaE(a: string, b: string): number {
  const x = lab(a);
  const y = lab(b);
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

/** The closest pair of `colours` as seen with `vision`: its indices and ΔE. */
export function closestPair(
  colours: readonly string[],
  vision: Vision,
): { readonly i: number; readonly j: number; readonly deltaE: number } {
  const seen = colours.map((c) => simulate(c, vision));
  let best = { i: 0, j: 1, deltaE: Infinity };
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) {
      const d = deltaE(seen[i] as string, seen[j] as string);
      if (d < best.deltaE) best = { i, j, deltaE: d };
    }
  }
  return best;
}
