import { describe, expect, it } from 'vitest';
import { CPU_COLOURS, inkOn } from './palette.ts';
import { closestPair, deltaE, simulate } from './colourVision.ts';

/** WCAG contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('CPU chip labels', () => {
  it('read at 4.5:1 or better on every CPU colour', () => {
    for (const c of CPU_COLOURS) expect(contrast(c, inkOn(c)), c).toBeGreaterThanOrEqual(4.5);
  });

  it('are black on the yellow and white on the blue', () => {
    expect(inkOn('#F0E442')).toBe('#000000');
    expect(inkOn('#0072B2')).toBe('#ffffff');
  });
});

describe('the CPU colours with colour-vision deficiencies', () => {
  // Machado et al. 2009 at full severity; CIE76 ΔE: about 2.3 is just noticeable, and at 15 two
  // bars side by side read as different colours, not shades of one.
  for (const vision of ['normal', 'protanopia', 'deuteranopia', 'tritanopia'] as const) {
    it(`keeps all eight apart with ${vision} (closest pair ΔE ≥ 15)`, () => {
      const { i, j, deltaE } = closestPair(CPU_COLOURS, vision);
      expect(deltaE, `CPU${String(i)} and CPU${String(j)}`).toBeGreaterThanOrEqual(15);
    });
  }

  it('simulates a known value: pure red for a protanope is a dark olive, not red', () => {
    const seen = simulate('#ff0000', 'protanopia');
    expect(deltaE(seen, '#ff0000')).toBeGreaterThan(50);
    // Red's green and red channels come out alike (the red–green axis is gone).
    const [r, g] = [parseInt(seen.slice(1, 3), 16), parseInt(seen.slice(3, 5), 16)];
    expect(Math.abs(r - g)).toBeLessThan(40);
  });
});
