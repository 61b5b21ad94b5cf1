import { describe, expect, it } from 'vitest';
import { barLabel, slotBarsLayout } from './slotBars.ts';

describe('slotBarsLayout', () => {
  it('draws bars from zero up or down, with ±batch lines inside the frame', () => {
    const l = slotBarsLayout([3, -2, 0], 4, 400, 200);
    const [up, down] = l.bars;
    expect(up && up.y + up.height).toBeCloseTo(l.zeroY, 5);
    expect(down?.y).toBeCloseTo(l.zeroY, 5);
    expect(l.plusY).not.toBeNull();
    expect((l.plusY as number) < l.zeroY && (l.minusY as number) > l.zeroY).toBe(true);
  });

  it('keeps a delta past the batch visible and marks it', () => {
    const l = slotBarsLayout([40], 32, 400, 200);
    const [bar] = l.bars;
    expect(bar?.over).toBe(true);
    expect(bar && bar.y).toBeGreaterThanOrEqual(0);
    expect((bar?.y ?? 0) < (l.plusY as number)).toBe(true);
  });

  it('labels bars in full for a few CPUs, by number on every few bars for many', () => {
    expect(barLabel(1, 31, 2)).toBe('CPU1: 31');
    expect(barLabel(3, 7, 8)).toBe('3');
    const shown = Array.from({ length: 64 }, (_, k) => barLabel(k, 0, 64)).filter((x) => x);
    expect(shown).toHaveLength(16);
  });
});
