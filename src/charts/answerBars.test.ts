// The room's chart tells the truth: bars scale to the students who answered (one answer of one
// fills the width, one of ten a tenth), the right bar is marked, and its words say the counts.

import { describe, expect, it } from 'vitest';
import { ANSWER_BARS, answerBarsLayout, answerBarsText, shortLabel } from './answerBars.ts';

const full = ANSWER_BARS.width - ANSWER_BARS.margin.right - ANSWER_BARS.margin.left;

describe('answerBarsLayout', () => {
  it('bars are shares of those who answered, on one scale', () => {
    const l = answerBarsLayout(['nr=101', 'nr=102', 'nr=100'], [3, 1, 0], 0);
    expect(l.answered).toBe(4);
    expect(l.rows.map((r) => r.bar.width / full)).toEqual([0.75, 0.25, 0]);
    expect(l.rows.map((r) => r.value)).toEqual(['3 · 75 %', '1 · 25 %', '0 · 0 %']);
    expect(l.rows.map((r) => r.right)).toEqual([true, false, false]);
    // One row each, top to bottom in the choices' order, none overlapping.
    const ys = l.rows.map((r) => r.bar.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    for (const [i, r] of l.rows.entries()) {
      const next = l.rows[i + 1];
      if (next) expect(r.bar.y + r.bar.height).toBeLessThan(next.labelY - ANSWER_BARS.text);
    }
    expect(l.height).toBe(ANSWER_BARS.margin.top + ANSWER_BARS.margin.bottom + 3 * ANSWER_BARS.row);
  });

  it('no answers yet: no bar, and no division by zero', () => {
    const l = answerBarsLayout(['Yes', 'No'], [0, 0], null);
    expect(l.rows.map((r) => [r.bar.width, r.value, r.right])).toEqual([
      [0, '0 · 0 %', false],
      [0, '0 · 0 %', false],
    ]);
  });

  it('a long choice is cut where the chart draws it, whole in its words', () => {
    const long = `nr=${'9'.repeat(100)}`;
    expect(shortLabel(long)).toHaveLength(ANSWER_BARS.labelChars);
    expect(shortLabel(long).endsWith('…')).toBe(true);
    expect(answerBarsText('Where?', [long, 'nr=1'], [2, 1], 1)).toBe(
      `Where? 3 answered. ${long}: 2; nr=1: 1 (the answer).`,
    );
  });
});
