import { describe, expect, it } from 'vitest';
import type { Box } from './geometry.ts';
import { raceWord, type RaceWordView } from './raceWord.ts';
import {
  accessArrow,
  accessLabel,
  racerCopy,
  raceWordLayout,
  STRIP_H,
  STRIP_Y,
  WORD_Y,
} from './raceWordLayout.ts';
import { labelBox, widthOf } from './testFonts.ts';
import { inside, overlaps } from './textWidth.ts';
import { scheduleRun, witnessRun } from './testRun.ts';
import { findScenario, scenarioNamed } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { examples } from '../scenarios/examples.ts';
import { programScenario } from '../scenarios/program.ts';

// Every size the stage gives a chart (MemoryView's fit(): at least 360 × 240, about 490 wide at
// most; 1280 × 720 gives 480 × 380–450, 1024 × 768 about 467 × 470–610, a phone 366 × 240).
const SIZES = [360, 420, 480, 490].flatMap((width) =>
  [240, 320, 420, 610].map((height) => ({ width, height })),
);

/** Every view of every witness of the scenarios the race word draws, at every step. */
function views(): { at: string; view: RaceWordView }[] {
  const out: { at: string; view: RaceWordView }[] = [];
  for (const id of [
    'global-plain',
    'global-atomic',
    'global-spinlock',
    'irq-local-rmw',
    'cmpxchg-local-generic',
    'this-cpu-ops',
    'percpu-rwsem',
  ]) {
    for (const w of findScenario(id)?.witnesses ?? []) {
      const run = witnessRun(id, w.name);
      for (let at = 0; at <= run.events.length; at++) {
        const view = raceWord({ ...run, cursor: at });
        if (view) out.push({ at: `${id} ${w.name} @${String(at)}`, view });
      }
    }
  }
  // A word every CPU stores to, under tso: each CPU's buffer holds its own store, then drains.
  const sc = scenarioNamed('global-plain');
  const tso = scheduleRun(sc, resolveParams(sc, { memory: 'tso' }), '0 1 0 1 flush0 flush1');
  for (let at = 0; at <= tso.events.length; at++) {
    const view = raceWord({ ...tso, cursor: at });
    if (view) out.push({ at: `global-plain tso @${String(at)}`, view });
  }
  // Three CPUs on one word (global-atomic's challenge): three racers share the row.
  const three = scenarioNamed('global-atomic');
  const run3 = scheduleRun(three, resolveParams(three, { cpus: '3' }), '0 1 2');
  for (let at = 0; at <= run3.events.length; at++) {
    const view = raceWord({ ...run3, cursor: at });
    if (view) out.push({ at: `global-atomic cpus=3 @${String(at)}`, view });
  }
  // A herd7 litmus test's shared variables (no counter), under sc and under tso.
  for (const id of ['SB', 'MP']) {
    const ex = examples.find((e) => e.id === id);
    const r = ex ? programScenario(ex.text()) : null;
    if (!r?.ok) throw new Error(`example ${id} does not compile`);
    for (const memory of id === 'SB' ? (['sc', 'tso'] as const) : (['sc'] as const)) {
      const schedule = memory === 'tso' ? '0 1 flush0 flush1 0 1' : '0 1 0 1';
      const run = scheduleRun(r.scenario, resolveParams(r.scenario, { memory }), schedule);
      for (let at = 0; at <= run.events.length; at++) {
        const view = raceWord({ ...run, cursor: at });
        if (view) out.push({ at: `litmus-${id} ${memory} @${String(at)}`, view });
      }
    }
  }
  return out;
}

const all = views();

describe('the race word’s layout, measured with the bundled fonts', () => {
  it('draws the seven scenarios that race on a word, and two litmus tests’ variables', () => {
    expect(new Set(all.map((v) => v.at.split(' ')[0])).size).toBe(9);
    expect(all.filter((v) => v.view.tso).length).toBeGreaterThan(10);
    expect(all.some((v) => v.view.tally.length === 3)).toBe(true);
  });

  it('keeps every box inside the chart, words clear of the tally, no two boxes meeting', () => {
    for (const size of SIZES) {
      const chart: Box = { x: 0, y: 0, ...size };
      for (const { at, view } of all) {
        const l = raceWordLayout(view, size);
        const boxes = [...l.words.map((w) => w.box), ...l.racers.map((r) => r.box)];
        for (const b of boxes) expect(inside(b, chart), `${at} ${JSON.stringify(size)}`).toBe(true);
        for (const w of l.words) expect(w.box.x + w.box.width).toBeLessThanOrEqual(l.tally.x);
        const tally: Box = {
          x: l.tally.x,
          y: l.tally.y,
          width: size.width - l.tally.x,
          height: l.tally.bottom - l.tally.y,
        };
        for (const r of l.racers) expect(overlaps(r.box, tally), at).toBe(false);
        for (const [i, a] of boxes.entries())
          for (const b of boxes.slice(i + 1)) expect(overlaps(a, b), at).toBe(false);
      }
    }
  });

  it('fits each label in its box: the word’s name and value, a racer’s name and copy', () => {
    for (const size of SIZES) {
      for (const { at, view } of all) {
        const l = raceWordLayout(view, size);
        const where = `${at} ${String(size.width)}×${String(size.height)}`;
        l.words.forEach((w, k) => {
          const cx = w.box.x + w.box.width / 2;
          const label = labelBox('.race-word .word-label', {
            text: w.label,
            x: cx,
            y: WORD_Y + 22,
            anchor: 'middle',
          });
          const value = labelBox('.race-word .word-value', {
            text: view.words[k]?.shown ?? '',
            x: cx,
            y: WORD_Y + 60,
            anchor: 'middle',
          });
          expect(inside(label, w.box), `${where}: "${w.label}"`).toBe(true);
          expect(inside(value, w.box), `${where}: value`).toBe(true);
          // The value a store wiped out, and its note, fit left of the word, over no other.
          for (const [cls, text, y] of [
            ['.race-word .wiped-value', String(view.words[k]?.value), WORD_Y + 44],
            ['.race-word .wiped-note', w.wiped.note, WORD_Y + 64],
          ] as const) {
            const t = labelBox(cls, { text, x: w.wiped.x, y, anchor: 'end' });
            expect(t.x, `${where}: ${text}`).toBeGreaterThanOrEqual(k === 0 ? 0 : 1);
            for (const o of l.words)
              expect(overlaps(t, o.box), `${where}: ${text} over a word`).toBe(false);
          }
        });
        for (const r of l.racers) {
          const racer = view.racers.find((x) => x.ctx === r.ctx);
          const held = view.holders.find((h) => h.ctx === r.ctx);
          const name = labelBox('.race-word .racer-name', {
            text: racer?.who ?? '',
            x: r.box.x + 16,
            y: r.box.y + 22,
          });
          const copy = labelBox(
            held?.stale ? '.race-word .racer-copy.stale' : '.race-word .racer-copy',
            {
              text: racerCopy(held, r.box.width),
              x: r.box.x + 16,
              y: r.box.y + 48,
            },
          );
          expect(inside(name, r.box), `${where}: ${racer?.who ?? ''}`).toBe(true);
          expect(inside(copy, r.box), `${where}: copy`).toBe(true);
          // Under tso the CPU's store buffer: its strip inside the box, its text in the strip.
          if (r.buffer !== null) {
            const strip: Box = {
              x: r.box.x + 12,
              y: r.box.y + STRIP_Y,
              width: r.box.width - 18,
              height: STRIP_H,
            };
            expect(inside(strip, r.box), `${where}: strip`).toBe(true);
            const text = labelBox('.race-word .store-buffer text', {
              text: r.buffer,
              x: strip.x + 6,
              y: strip.y + 16,
            });
            expect(inside(text, strip), `${where}: "${r.buffer}"`).toBe(true);
            expect(copy.y + copy.height, `${where}: copy over the strip`).toBeLessThanOrEqual(
              strip.y,
            );
          }
        }
        // The title over the words, the tally's values inside the chart.
        expect(widthOf('.race-word .title', l.title) + 8).toBeLessThanOrEqual(l.tally.x);
        for (const v of view.tally.map((r) => r.value))
          expect(
            l.tally.x + l.tally.barMax + 4 + widthOf('.race-word .tally-value', String(v)),
          ).toBeLessThanOrEqual(size.width);
      }
    }
  });

  it('says "holds nothing" where it fits, "nothing" in a third CPU’s box on a narrow chart', () => {
    expect(racerCopy(undefined, 160)).toBe('holds nothing');
    expect(racerCopy(undefined, 120)).toBe('nothing');
    expect(racerCopy({ shown: '100', stale: true }, 160)).toBe('holds 100: stale');
    expect(racerCopy({ shown: '100', stale: true }, 120)).toBe('100: stale');
  });

  it('labels the step’s arrow clear of the tally, on a phone’s narrow chart too', () => {
    for (const size of SIZES) {
      for (const { at, view } of all) {
        const last = view.last;
        if (!last || (last.via === 'buffer' && last.kind !== 'flush')) continue;
        const l = raceWordLayout(view, size);
        const racer = l.racers.find((r) => r.ctx === last.ctx);
        const word = l.words[last.word];
        if (!racer || !word) continue;
        const text = accessLabel(last);
        const arrow = accessArrow(l, racer.box, word.box, text);
        const label = labelBox('.race-word .access-label', { text, ...arrow.label });
        const tally: Box = {
          x: l.tally.x,
          y: l.tally.y,
          width: size.width - l.tally.x,
          height: l.tally.bottom - l.tally.y,
        };
        const where = `${at} ${String(size.width)}×${String(size.height)}: "${text}"`;
        expect(overlaps(label, tally), where).toBe(false);
        expect(label.x, where).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
