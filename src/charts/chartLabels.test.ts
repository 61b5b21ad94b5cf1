// The labels of the torn read, the sequence word, the plain slot bars and the timeline, measured
// with the bundled fonts at the sizes the stage draws them (the counter chart and the race word
// have their own tests beside their layouts).

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import type { Box } from './geometry.ts';
import {
  BITS,
  meaningLines,
  SEQ_BIT,
  SEQ_BIT_GAP,
  seqLabel,
  seqWordGeometry,
  seqWordOf,
  seqWordStacked,
} from './seqWord.ts';
import { barLabel, slotBarsLayout } from './slotBars.ts';
import { labelBox, widthOf } from './testFonts.ts';
import { inside, overlaps } from './textWidth.ts';
import { timelineLayout } from './timeline.ts';
import { hex32, offBy, stamp, tornRead, tornReadLayout } from './tornRead.ts';
import { witnessRun } from './testRun.ts';

const SIZES = [360, 420, 480, 490].flatMap((width) =>
  [240, 320, 420, 610].map((height) => ({ width, height })),
);

describe('the torn read’s picture', () => {
  it('fits each half’s word in its box, its stamps and the verdict in the chart', () => {
    const views = catalogue.flatMap((sc) =>
      sc.witnesses.flatMap((w) => {
        const run = witnessRun(sc.id, w.name);
        return Array.from({ length: run.events.length + 1 }, (_, at) =>
          tornRead({ ...run, cursor: at }),
        ).flatMap((v) => (v ? [v] : []));
      }),
    );
    expect(views.length).toBeGreaterThan(5);
    for (const size of SIZES) {
      const l = tornReadLayout(size);
      const chart: Box = { x: 0, y: 0, width: l.width, height: l.height };
      const box: Box = { x: 4, y: 22, width: l.boxW, height: l.boxH };
      for (const text of ['not read yet', hex32(0xfffffff0)]) {
        const t = labelBox('.torn-read .word', {
          text,
          x: 4 + l.boxW / 2,
          y: 22 + l.boxH / 2 + 7,
          anchor: 'middle',
        });
        expect(inside(t, box), `${text} at ${String(size.width)}`).toBe(true);
      }
      for (const v of views) {
        for (const h of v.halves)
          for (const line of stamp(h).split(': ')) {
            const t = labelBox('.torn-read .stamp', { text: line, x: 4 + l.boxW + 12, y: 40 });
            expect(inside(t, chart), `${line} at ${String(size.width)}`).toBe(true);
          }
        const first = v.halves[0];
        if (v.formed !== null && first) {
          for (const text of [
            `together: ${String(v.formed)}`,
            `torn: ${offBy(v.formed, first.truth)}`,
          ]) {
            const t = labelBox('.torn-read .verdict', { text, x: 4, y: 2 * l.rowH + 50 });
            expect(inside(t, chart), text).toBe(true);
          }
        }
      }
      // Two rows and three verdict lines fit the height.
      expect(2 * l.rowH + 70 + 6).toBeLessThanOrEqual(l.height);
    }
  });
});

describe('the sequence word', () => {
  it('keeps its name and value, its bits, and what they mean apart and inside', () => {
    for (const [words, stacked] of [
      [1, false],
      [1, true],
      [3, false],
    ] as const) {
      const g = seqWordGeometry(words, stacked);
      const chart: Box = { x: 0, y: 0, width: g.W, height: g.ROW };
      const bits: Box = {
        x: g.BITS_X,
        y: g.BITS_Y,
        width: BITS * (SEQ_BIT + SEQ_BIT_GAP),
        height: SEQ_BIT,
      };
      // The catalogue's names: fbc->sequence, fbc->sums, fbc->changed, fbc.changing.
      for (const [kind, label] of [
        ['inflight', 'fbc->sequence'],
        ['sums', 'fbc->sums'],
        ['changes', 'fbc->changed'],
        ['folds', 'fbc.changing'],
      ] as const) {
        // Sequence counts in the witnesses stay under a hundred.
        for (const value of [0, 1, 5, 99]) {
          const w = seqWordOf(kind, 'sequence', label, value);
          const what = `${w.meaning} (${String(words)} words${stacked ? ', stacked' : ''})`;
          const name = labelBox('.seq-word .word-label', {
            text: `${seqLabel(w.label)} = `,
            x: 4,
            y: g.NAME_Y,
          });
          const number = labelBox('.seq-word .word-value', {
            text: String(value),
            x: name.x + name.width,
            y: g.NAME_Y,
          });
          const dots = labelBox('.seq-word .word-label', {
            text: '…',
            x: g.BITS_X - 8,
            y: g.BITS_BASE,
            anchor: 'end',
          });
          expect(inside(number, chart), what).toBe(true);
          expect(overlaps(number, dots), `${kind} ${String(value)}`).toBe(false);
          expect(overlaps(number, bits), `${kind} ${String(value)}`).toBe(false);
          expect(inside(dots, chart), what).toBe(true);
          const lines = meaningLines(w.meaning, g.stacked);
          for (const [i, text] of lines.entries()) {
            const meaning = labelBox('.seq-word .meaning', {
              text,
              x: g.MEANING.x,
              y: g.MEANING.y + i * g.LINE,
            });
            expect(inside(meaning, chart), what).toBe(true);
            expect(overlaps(meaning, bits), what).toBe(false);
            expect(overlaps(meaning, number), what).toBe(false);
          }
          if (g.lowBitLabel) {
            const low = labelBox('.seq-word .word-label', {
              text: '← low bit',
              x: g.BITS_X + BITS * (SEQ_BIT + SEQ_BIT_GAP) + 4,
              y: g.BITS_BASE,
            });
            expect(inside(low, chart)).toBe(true);
          }
        }
      }
    }
  });

  it('stacks one word in a narrow box, so that its 16 px type is drawn at 19 px or more', () => {
    // Beside a lecture's slide in Large at 1024×768 the strip is 281 px wide: the wide strip drew
    // its type at 9 px there, the counter chart above it its axis numbers at 19.
    const width = 281;
    expect(seqWordStacked(1, width)).toBe(true);
    expect((16 * width) / seqWordGeometry(1, true).W).toBeGreaterThanOrEqual(19);
    // The Step stage at 1280×720 keeps the wide strip, at 17 px.
    expect(seqWordStacked(1, 510)).toBe(false);
    expect(meaningLines('odd: a sum is in flight (new adds go to slowcount)', true)).toEqual([
      'odd: a sum is in flight',
      '(new adds go to slowcount)',
    ]);
  });
});

describe('the plain slot bars and the timeline', () => {
  it('label each bar inside the chart without two labels meeting', () => {
    for (const size of [{ width: 520, height: 220 }, ...SIZES]) {
      for (const cpus of [1, 2, 4, 8, 16, 64]) {
        const values = Array.from({ length: cpus }, (_, k) => (k % 2 === 0 ? 1001 : -31));
        const l = slotBarsLayout(values, null, size.width, size.height);
        const pitch = cpus > 1 ? (l.bars[1]?.x ?? 0) - (l.bars[0]?.x ?? 0) : size.width;
        const labels = l.bars.flatMap((b) => {
          const text = barLabel(b.cpu, b.value, l.bars.length, pitch);
          return text === null
            ? []
            : [
                labelBox('.slot-bars .bar-label', {
                  text,
                  x: b.x + b.width / 2,
                  y: size.height - 8,
                  anchor: 'middle',
                }),
              ];
        });
        const chart: Box = { x: 0, y: 0, ...size };
        for (const [i, a] of labels.entries()) {
          expect(inside(a, chart), `${String(cpus)} CPUs`).toBe(true);
          for (const b of labels.slice(i + 1))
            expect(overlaps(a, b), `${String(cpus)} CPUs`).toBe(false);
        }
      }
    }
  });

  it('keeps the timeline’s marks in its width and its lane names left of them', () => {
    for (const cpus of [1, 2, 4, 8]) {
      const steps = Array.from({ length: 200 }, (_, i) => ({ cpu: i % cpus, kind: 0 }));
      const l = timelineLayout(steps, cpus, 900);
      for (const m of l.marks) {
        expect(m.x).toBeGreaterThanOrEqual(56);
        expect(m.x + m.width).toBeLessThanOrEqual(900);
        expect(m.y + m.height).toBeLessThanOrEqual(l.height);
      }
      for (const lane of l.lanes)
        expect(4 + widthOf('.timeline .lane-label', `CPU${String(lane.cpu)}`)).toBeLessThan(56);
    }
  });
});
