import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import {
  counterLayout,
  type CounterLayout,
  globalModeOf,
  readBoxes,
  readText,
} from './counterLayout.ts';
import type { Box } from './geometry.ts';
import { sumSweeps } from './sumSweep.ts';
import { foldShort, sweepShort } from './sweepText.ts';
import { labelBox, widthOf } from './testFonts.ts';
import { inside, overlaps } from './textWidth.ts';
import { witnessRun } from './testRun.ts';

// Every size the stage gives a chart (MemoryView's fit(): 360-490 wide, 240-610 high).
const SIZES = [360, 420, 480, 490].flatMap((width) =>
  [240, 320, 420, 610].map((height) => ({ width, height })),
);

/** A layout for `cpus` CPUs with deltas near ±batch and a global count beside them. */
function layout(cpus: number, size: { width: number; height: number }, global = 1000) {
  const batch = 32;
  const slots = Array.from({ length: cpus }, (_, k) => (k % 3 === 0 ? 31 : k % 3 === 1 ? -5 : 0));
  const mode = globalModeOf(global, 31, batch);
  return counterLayout({ slots, batch, global, mode, extent: 31, ...size });
}

const chartBox = (l: CounterLayout): Box => ({ x: 0, y: 0, width: l.width, height: l.height });

/** What CounterChart.tsx writes under bar k: "CPU0" up to six CPUs, then the number. */
const slotLabel = (k: number, cpus: number) => (cpus <= 6 ? `CPU${String(k)}` : String(k));

describe('the counter chart’s layout', () => {
  it('keeps the bars inside the plot, apart, and the sweep’s stops in order', () => {
    for (const size of SIZES) {
      for (const cpus of [1, 2, 4, 8]) {
        const l = layout(cpus, size, 4);
        const plot: Box = { x: 0, y: l.top, width: l.width, height: l.bottom - l.top };
        for (const b of [l.global, ...l.slots]) expect(inside(b, plot)).toBe(true);
        l.slots.forEach((b, k) => {
          const next = l.slots[k + 1];
          if (next) expect(b.x + b.width).toBeLessThan(next.x);
          expect(b.x).toBeGreaterThan(l.globalColumn.x + l.globalColumn.width);
        });
        for (let p = 1; p < l.sweepX.length; p++)
          expect(l.sweepX[p] as number).toBeGreaterThan(l.sweepX[p - 1] as number);
        expect(Math.max(...l.sweepX)).toBeLessThanOrEqual(l.width);
        expect(Math.min(...l.sweepX)).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('labels each bar, and its value where it fits, without two labels meeting', () => {
    for (const size of SIZES) {
      for (const cpus of [1, 2, 4, 8]) {
        const l = layout(cpus, size);
        const pitch = cpus > 1 ? (l.slots[1]?.x ?? 0) - (l.slots[0]?.x ?? 0) : l.width;
        const labels: Box[] = [];
        const gc = l.globalColumn;
        labels.push(
          labelBox('.counter-chart .bar-label', {
            text: 'fbc->count',
            x: gc.x + gc.width / 2,
            y: l.bottom + 22,
            anchor: 'middle',
          }),
        );
        l.slots.forEach((b, k) => {
          const cx = b.x + b.width / 2;
          labels.push(
            labelBox('.counter-chart .bar-label', {
              text: slotLabel(k, cpus),
              x: cx,
              y: l.bottom + 22,
              anchor: 'middle',
            }),
          );
          // CounterChart.tsx shows a value when String(value).length * 10 <= pitch.
          const value = String(b.value);
          if (value.length * 10 <= pitch)
            labels.push(
              labelBox('.counter-chart .bar-value', {
                text: value,
                x: cx,
                y: l.bottom + 42,
                anchor: 'middle',
              }),
            );
        });
        const where = `${String(cpus)} CPUs at ${String(size.width)}×${String(size.height)}`;
        for (const [i, a] of labels.entries()) {
          expect(inside(a, chartBox(l)), where).toBe(true);
          for (const b of labels.slice(i + 1)) expect(overlaps(a, b), where).toBe(false);
        }
      }
    }
  });

  it('fits what a sum has read in the box under each column, and the ±batch lines’ names', () => {
    for (const size of SIZES) {
      for (const cpus of [1, 2, 4]) {
        const l = layout(cpus, size);
        const where = `${String(cpus)} CPUs at ${String(size.width)}×${String(size.height)}`;
        const boxes = readBoxes(l);
        for (const [i, box] of boxes.entries()) {
          expect(inside(box, chartBox(l)), where).toBe(true);
          for (const o of boxes.slice(i + 1)) expect(overlaps(box, o), where).toBe(false);
          for (const [cls, read] of [
            ['.counter-chart .read text', i === 0 ? '1068' : '-31'],
            ['.counter-chart .unread text', null],
          ] as const) {
            const text = readText(read, box.width);
            const t = labelBox(cls, {
              text,
              x: box.x + box.width / 2,
              y: l.height - 8,
              anchor: 'middle',
            });
            expect(inside(t, box), `${where}: ${text}`).toBe(true);
            // Beside a projector's stage (420 wide and more) four CPUs keep the words.
            if (size.width >= 420) expect(text).toBe(read === null ? 'not yet' : `✓ ${read}`);
          }
        }
        for (const [text, y, x] of [
          ['+batch 32', (l.plusY ?? 0) - 4, l.thresholdX.plus],
          ['−batch', (l.minusY ?? 0) + 15, l.thresholdX.minus],
        ] as const) {
          const t = labelBox('.counter-chart .threshold text', {
            text,
            x,
            y,
            anchor: 'end',
          });
          expect(inside(t, chartBox(l)), where).toBe(true);
        }
      }
    }
  });

  it('names the ±batch lines clear of every bar, with a bar past the batch at the right', () => {
    // percpu-upgrade's add-into-the-pointer, step 12: CPU1 holds 100 against a batch of 32.
    for (const size of SIZES) {
      for (const slots of [
        [0, 100],
        [31, -5, 0, 100],
        [100, -100],
        [31, 100],
      ]) {
        const l = counterLayout({ slots, batch: 32, global: 0, mode: 'bar', extent: 100, ...size });
        const where = `${slots.join(' ')} at ${String(size.width)}×${String(size.height)}`;
        for (const [text, x, y] of [
          ['+batch 32', l.thresholdX.plus, (l.plusY ?? 0) - 4],
          ['−batch', l.thresholdX.minus, (l.minusY ?? 0) + 15],
        ] as const) {
          const t = labelBox('.counter-chart .threshold text', { text, x, y, anchor: 'end' });
          expect(inside(t, chartBox(l)), `${where}: ${text}`).toBe(true);
          // Where every column crosses a line, a name cannot avoid a bar.
          if (slots.every((v) => Math.abs(v) >= 32)) continue;
          for (const b of l.slots)
            expect(overlaps(t, b), `${where}: ${text} over CPU${String(b.cpu)}`).toBe(false);
        }
      }
    }
  });

  it('fits the sweep’s sentences and a fold’s note across the chart, at every witness step', () => {
    const texts = new Set<string>();
    for (const sc of catalogue) {
      for (const w of sc.witnesses) {
        const run = witnessRun(sc.id, w.name);
        for (let at = 0; at <= run.events.length; at++) {
          for (const s of sumSweeps({ ...run, cursor: at })) {
            texts.add(`status ${sweepShort(s)}`);
            for (const f of s.folds) texts.add(`missed ${foldShort(f)}`);
          }
        }
      }
    }
    expect(texts.size).toBeGreaterThan(10);
    const narrowest = Math.min(...SIZES.map((s) => s.width));
    for (const t of texts) {
      const [kind, ...rest] = t.split(' ');
      const text = rest.join(' ');
      const cls =
        kind === 'status' ? '.counter-chart .sweep-status' : '.counter-chart .missed-text';
      expect(4 + widthOf(cls, text), text).toBeLessThanOrEqual(narrowest);
    }
    // The retry badge's pill (92 wide) holds its count.
    expect(widthOf('.counter-chart .retry-badge text', 'retries: 14')).toBeLessThan(92 - 8);
  });
});
