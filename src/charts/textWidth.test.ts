import { describe, expect, it } from 'vitest';
import { fonts, labelBox, styleOf, widthOf } from './testFonts.ts';
import { faceOf, inside, overlaps, textWidth } from './textWidth.ts';

describe('text widths from the bundled fonts', () => {
  it('reads the faces and the charts’ styles', () => {
    expect(styleOf('.counter-chart .bar-value')).toEqual({ size: 16, weight: 700, mono: false });
    expect(styleOf('.race-word .word-label')).toMatchObject({ size: 15, mono: true });
    expect(faceOf({ size: 16, weight: 800, mono: false })).toBe('sans-700');
    // Plex Mono: every character 0.6 em.
    expect(widthOf('.race-word .word-label', 'CPU0’s c')).toBeCloseTo(8 * 0.6 * 15, 5);
  });

  it('measures bold wider than regular, and a symbol from the symbol font', () => {
    const regular = textWidth(fonts, 'CPU0', { size: 16, weight: 400, mono: false });
    const bold = textWidth(fonts, 'CPU0', { size: 16, weight: 700, mono: false });
    expect(bold).toBeGreaterThan(regular);
    expect(regular).toBeGreaterThan(30);
    expect(regular).toBeLessThan(45);
    expect(textWidth(fonts, '✓', { size: 14, weight: 700, mono: false })).toBeGreaterThan(5);
    expect(() => textWidth(fonts, '☃', { size: 14, weight: 400, mono: false })).toThrow(/glyph/);
  });

  it('places a label by its anchor, and tells boxes apart', () => {
    const mid = labelBox('.counter-chart .bar-label', {
      text: 'CPU1',
      x: 100,
      y: 50,
      anchor: 'middle',
    });
    expect(mid.x + mid.width / 2).toBeCloseTo(100, 5);
    expect(mid.y).toBeLessThan(50);
    expect(mid.y + mid.height).toBeGreaterThan(50);
    const end = labelBox('.counter-chart .bar-label', {
      text: 'CPU1',
      x: 100,
      y: 50,
      anchor: 'end',
    });
    expect(end.x + end.width).toBeCloseTo(100, 5);
    expect(overlaps(mid, end)).toBe(true);
    expect(overlaps(mid, { ...mid, x: mid.x + mid.width })).toBe(false);
    expect(inside(mid, { x: 0, y: 0, width: 200, height: 100 })).toBe(true);
    expect(inside(mid, { x: 0, y: 0, width: 110, height: 100 })).toBe(false);
  });
});
