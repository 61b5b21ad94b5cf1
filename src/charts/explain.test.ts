import { describe, expect, it } from 'vitest';
import { batchBox, counterLayout, globalModeOf, landingBox } from './counterLayout.ts';
import { pourAt, pourPath } from './pour.ts';
import { seqWordOf, seqWordText } from './seqWord.ts';
import { witnessRun } from './testRun.ts';
import { offBy, tornRead, tornText } from './tornRead.ts';

describe('seqWordOf', () => {
  it('names the low bit of fbc->sequence: odd while a sum is in flight', () => {
    const odd = seqWordOf('inflight', 'fbc.sequence', 'fbc->sequence', 5);
    expect(odd.parity).toBe('odd');
    expect(odd.bits).toBe('0101');
    expect(odd.meaning).toMatch(/^odd: a sum is in flight/);
    const even = seqWordOf('inflight', 'fbc.sequence', 'fbc->sequence', 8);
    expect(even.parity).toBe('even');
    expect(seqWordText(even)).toBe(
      'fbc->sequence = 8 (low bits …1000): even: no sum in flight (adds use their deltas)',
    );
  });
  it('gives a change counter no parity, and counts the sums in flight', () => {
    expect(seqWordOf('changes', 'fbc.seqcount', 'fbc->seqcount', 3).parity).toBeNull();
    expect(seqWordOf('sums', 'fbc.sums', 'fbc->sums', 2).meaning).toBe(
      '2 sums in flight (new adds go to slowcount)',
    );
  });
});

describe('pour geometry', () => {
  const from = { x: 200, y: 100, width: 40, height: 60 };
  const to = { x: 60, y: 80, width: 50, height: 60 };
  it('starts on the slot bar, ends on the global count, and arcs above both', () => {
    const p = pourPath(from, to, 40);
    expect(pourAt(p, 0)).toEqual(from);
    const end = pourAt(p, 1);
    expect(end.x).toBeCloseTo(to.x, 9);
    expect(end.y).toBeCloseTo(to.y, 9);
    expect(end.width).toBeCloseTo(to.width, 9);
    const mid = pourAt(p, 0.5);
    expect(mid.y).toBeLessThan(Math.min(from.y, to.y));
    expect(pourAt(p, 2)).toEqual(pourAt(p, 1));
  });
  it('takes the batch from the top of its CPU’s bar and lands it on top of the global bar', () => {
    const l = counterLayout({ slots: [3, 0], batch: 4, global: 8, mode: 'bar', extent: 8 });
    const b = batchBox(l, 0, 4);
    expect(b.y + b.height).toBeCloseTo(l.zeroY, 9);
    expect(b.x).toBe(l.slots[0]?.x);
    const land = landingBox(l, 4);
    expect(land.y).toBeCloseTo(l.global.y, 9);
    expect(land.x).toBe(l.global.x);
    expect(l.sweepX).toHaveLength(4);
    expect([...l.sweepX].sort((a, c) => a - c)).toEqual(l.sweepX);
  });
  it('draws the global count as a bar while it is comparable with the deltas, else a figure', () => {
    expect(globalModeOf(8, 3, 4)).toBe('bar');
    expect(globalModeOf(1032, 31, 32)).toBe('figure');
    const f = counterLayout({ slots: [31, 0], batch: 32, global: 0, mode: 'figure', extent: 31 });
    expect(landingBox(f, 32).y).toBeGreaterThanOrEqual(f.global.y);
  });
});

describe('tornRead', () => {
  it('lo-then-hi: the low half from the start, the high half from after CPU1’s add', () => {
    const v = tornRead(witnessRun('torn-read-32', 'lo-then-hi'));
    expect(v?.halves.map((h) => [h.half, h.word, h.readAt, h.writtenAt, h.writtenBy])).toEqual([
      ['lo', 0xfffffff0, 0, -1, null],
      ['hi', 1, 7, 5, 'CPU1'],
    ]);
    expect(v?.formed).toBe(8589934576);
    expect(v?.torn).toBe(true);
    expect(v && tornText(v)).toMatch(/torn, exactly 2\^32 above 4294967280\.$/);
  });
  it('up-irq-reads-half: the IRQ reads a half-written count, not torn across steps but across writes', () => {
    const v = tornRead(witnessRun('torn-read-32', 'up-irq-reads-half'));
    expect(v?.who).toBe("CPU0's IRQ handler");
    expect(v?.halves.map((h) => [h.half, h.writtenAt >= 0])).toEqual([
      ['lo', true],
      ['hi', false],
    ]);
    expect(v?.formed).toBe(0);
    expect(v?.torn).toBe(true);
  });
  it('shows one half while the other is not read, and nothing for a one-step atomic64 read', () => {
    const half = tornRead(witnessRun('torn-read-32', 'lo-then-hi', 3));
    expect(half?.halves).toHaveLength(1);
    expect(half?.formed).toBeNull();
    expect(tornRead(witnessRun('torn-read-32', 'atomic64-read'))).toBeNull();
    expect(offBy(16, 4294967312)).toBe('exactly 2^32 below 4294967312');
  });
});
