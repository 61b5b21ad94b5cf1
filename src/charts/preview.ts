// A catalogue card's small picture: what Step mode's memory charts show at the end of the
// scenario's first witness (its initial state when it has none), reduced to a few marks. Pure:
// the scenario is built and the witness replayed with the timeline helpers, then the cells are
// read, so the home page and the tests compute the same thing without a browser.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import { parseSchedule } from '../machine/schedule.ts';
import { currentState, startTimeline, takeEvents } from '../machine/timeline.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { cellValue, perCpuValues } from '../machine/read.ts';
import type { Run } from '../machine/executed.ts';
import { counterCells } from './history.ts';
import { slotBarsLayout } from './slotBars.ts';
import {
  PREVIEW_H,
  PREVIEW_W,
  type PreviewLayout,
  type PreviewLine,
  type PreviewRect,
  type PreviewText,
} from './previewMarks.ts';
import { hex32, tornRead } from './tornRead.ts';

/** A global word the CPUs race on, as a box with its value. */
export interface PreviewWord {
  readonly label: string;
  readonly value: number | bigint;
}

/** A per-CPU variable: one value per CPU, drawn as one bar each. */
export interface PreviewPerCpu {
  readonly label: string;
  readonly values: readonly number[];
}

/** One half of a split 64-bit read. */
export interface PreviewHalf {
  readonly half: 'lo' | 'hi';
  /** The 32-bit word read, unsigned. */
  readonly word: number;
}

export type PreviewPicture =
  /** A counter: the per-CPU deltas beside the global count, with the ±batch lines. */
  | {
      readonly kind: 'counter';
      readonly slots: PreviewPerCpu;
      readonly global: PreviewWord;
      readonly batch: number | null;
    }
  /** A torn read: the two halves read, and what they form. */
  | {
      readonly kind: 'torn';
      readonly cell: string;
      readonly halves: readonly PreviewHalf[];
      readonly formed: number | bigint | null;
      readonly torn: boolean;
    }
  /** Anything else: the global words (locks left out) and the per-CPU variables. */
  | {
      readonly kind: 'words';
      readonly globals: readonly PreviewWord[];
      readonly perCpu: readonly PreviewPerCpu[];
    };

export interface ScenarioPreview {
  readonly id: string;
  /** The witness replayed, or null (no witness: the initial state). */
  readonly witness: string | null;
  readonly picture: PreviewPicture;
}

/** The picture at the end of the scenario's first witness, read from the cells. */
export function computePreview(sc: Scenario): ScenarioPreview {
  const w = sc.witnesses[0];
  // The witness's parameters over the defaults: its schedule is written for them.
  const m = sc.build(resolveParams(sc, w?.params ?? {})).machine;
  let t = startTimeline(m);
  if (w) t = takeEvents(t, parseSchedule(w.schedule));
  const s = currentState(t);
  const run: Run = { m, states: t.states, events: t.events, cursor: t.cursor };
  const witness = w?.name ?? null;

  const counter = counterCells(m);
  if (counter) {
    const values = perCpuValues(s, counter.slots).map(Number);
    return {
      id: sc.id,
      witness,
      picture: {
        kind: 'counter',
        slots: { label: counter.slots.label, values },
        global: { label: counter.global.label, value: cellValue(s, counter.global) },
        batch: m.layout.counter?.batch ?? null,
      },
    };
  }

  const torn = tornRead(run);
  if (torn) {
    return {
      id: sc.id,
      witness,
      picture: {
        kind: 'torn',
        cell: torn.cell,
        halves: torn.halves.map((h) => ({ half: h.half, word: h.word })),
        formed: torn.formed,
        torn: torn.torn,
      },
    };
  }

  const globals: PreviewWord[] = [];
  const perCpu: PreviewPerCpu[] = [];
  for (const cell of m.layout.cells) {
    if (cell.type === 'lock') continue;
    if (!cell.perCpu) {
      globals.push({ label: cell.label, value: cellValue(s, cell) });
      continue;
    }
    perCpu.push({ label: cell.label, values: perCpuValues(s, cell).map(Number) });
  }
  return { id: sc.id, witness, picture: { kind: 'words', globals, perCpu } };
}

/** The picture in words, for its accessible name: "preview at the end of witness …: …". */
export function previewText(p: ScenarioPreview): string {
  const when =
    p.witness === null
      ? 'preview of the initial state'
      : `preview at the end of witness ${p.witness}`;
  const list = (v: readonly number[]) => v.map(String).join(', ');
  const perCpuText = (c: PreviewPerCpu) =>
    c.values.length === 1
      ? `${c.label} on CPU0 ${list(c.values)}`
      : `${c.label} per CPU ${list(c.values)}`;
  const pic = p.picture;
  let what: string;
  if (pic.kind === 'counter') {
    const batch = pic.batch === null ? '' : ` (batch ±${String(pic.batch)})`;
    what = `${perCpuText(pic.slots)}${batch} beside ${pic.global.label} ${String(pic.global.value)}`;
  } else if (pic.kind === 'torn') {
    const halves = pic.halves
      .map((h) => `${h.half === 'lo' ? 'low' : 'high'} half ${hex32(h.word)}`)
      .join(', then ');
    const formed =
      pic.formed === null
        ? ''
        : `, forming ${String(pic.formed)}${pic.torn ? ', a torn value' : ''}`;
    what = `${pic.cell} read in two halves: ${halves}${formed}`;
  } else {
    what = [
      ...pic.globals.map((g) => `${g.label} ${String(g.value)}`),
      ...pic.perCpu.map(perCpuText),
    ].join('; ');
  }
  return `${when}: ${what}`;
}

// ---- geometry ------------------------------------------------------------------------------

export { PREVIEW_H, PREVIEW_W };
export type { PreviewLayout, PreviewLine, PreviewRect, PreviewText };

/** Roughly how wide a character of each text kind is, in the preview's pixels (monospace). */
const CHAR_W = { name: 7.7, value: 9.7, small: 7.7, label: 7.7 } as const;

/** "fbc->count" → "count", "files_stat.nr_files" → "nr_files": what fits a small box. */
export function shortName(label: string): string {
  return label.split(/->|\./).pop() ?? label;
}

function text(
  x: number,
  y: number,
  t: string,
  kind: PreviewText['kind'],
  anchor: PreviewText['anchor'],
  room: number,
): PreviewText {
  const width = t.length * CHAR_W[kind === 'bad' ? 'small' : kind];
  return { x, y, text: t, kind, anchor, fit: width > room ? room : null };
}

/** Boxes for words, top to bottom in [x0, x1]: the name over the value where there is room. */
function wordMarks(
  words: readonly { name: string; value: string; bad?: boolean }[],
  x0: number,
  x1: number,
): Pick<PreviewLayout, 'rects' | 'texts'> {
  const gap = 3;
  const n = Math.max(1, words.length);
  const h = (PREVIEW_H - gap * (n - 1)) / n;
  const w = x1 - x0;
  const rects: PreviewRect[] = [];
  const texts: PreviewText[] = [];
  words.forEach((word, i) => {
    const y = i * (h + gap);
    rects.push({
      x: x0 + 0.5,
      y: y + 0.5,
      width: w - 1,
      height: h - 1,
      kind: word.bad ? 'bad' : 'box',
      cpu: -1,
    });
    if (h >= 36) {
      // Stacked: the name small at the top, the value large under it.
      const mid = x0 + w / 2;
      texts.push(text(mid, y + h * 0.3, word.name, 'name', 'middle', w - 6));
      texts.push(text(mid, y + h * 0.68, word.value, 'value', 'middle', w - 6));
    } else {
      const room = w - 8 - word.name.length * CHAR_W.name - 4;
      texts.push(text(x0 + 4, y + h / 2, word.name, 'name', 'start', w - 8));
      texts.push(
        text(x1 - 4, y + h / 2, word.value, word.bad ? 'bad' : 'small', 'end', Math.max(8, room)),
      );
    }
  });
  return { rects, texts };
}

/** Bars from zero, one value per CPU in [x0, x1], each with its value while four or fewer. */
function plainBars(values: readonly number[], x0: number, x1: number): PreviewLayout {
  const labelled = values.length <= 4;
  const pad = labelled ? 14 : 2;
  const lo = Math.min(0, ...values);
  const hi = Math.max(1, ...values);
  const y = linearScale([lo, hi], [PREVIEW_H - (lo < 0 ? pad : 2), pad]);
  const x = scaleBand<number>()
    .domain(values.map((_, i) => i))
    .range([x0, x1])
    .padding(0.2);
  const rects: PreviewRect[] = [];
  const texts: PreviewText[] = [];
  values.forEach((value, cpu) => {
    const top = y(Math.max(0, value));
    const bottom = y(Math.min(0, value));
    const bx = x(cpu) ?? x0;
    const width = x.bandwidth();
    rects.push({ x: bx, y: top, width, height: Math.max(1, bottom - top), kind: 'bar', cpu });
    if (labelled) {
      const ty = value < 0 ? bottom + 6 : top - 6;
      texts.push(text(bx + width / 2, ty, String(value), 'label', 'middle', width + 4));
    }
  });
  return { rects, texts, lines: [{ x1: x0, x2: x1, y: y(0), kind: 'zero' }] };
}

/** The marks of a preview. */
export function previewLayout(pic: PreviewPicture): PreviewLayout {
  if (pic.kind === 'counter') {
    // The global count in a box at the left; the deltas beside it, from zero, with ±batch.
    const split = 46;
    const left = split + 4;
    const l = slotBarsLayout(pic.slots.values, pic.batch, PREVIEW_W, PREVIEW_H, {
      top: 3,
      right: 2,
      bottom: 3,
      left,
    });
    const lines: PreviewLine[] = [{ x1: left, x2: PREVIEW_W, y: l.zeroY, kind: 'zero' }];
    for (const y of [l.plusY, l.minusY]) {
      if (y !== null) lines.push({ x1: left, x2: PREVIEW_W, y, kind: 'batch' });
    }
    const word = { name: shortName(pic.global.label), value: String(pic.global.value) };
    const box = wordMarks([word], 0, split);
    return {
      rects: [
        ...box.rects,
        ...l.bars.map((b) => ({
          x: b.x,
          y: b.y,
          width: b.width,
          height: b.height,
          kind: 'bar' as const,
          cpu: b.cpu,
        })),
      ],
      lines,
      texts: box.texts,
    };
  }
  if (pic.kind === 'torn') {
    const half = (which: 'hi' | 'lo') => {
      const h = pic.halves.find((x) => x.half === which);
      return { name: which, value: h ? hex32(h.word) : '?' };
    };
    const formed = {
      name: '=',
      value: pic.formed === null ? '?' : String(pic.formed),
      bad: pic.torn,
    };
    return { ...wordMarks([half('hi'), half('lo'), formed], 0, PREVIEW_W), lines: [] };
  }
  const words = pic.globals.map((g) => ({ name: shortName(g.label), value: String(g.value) }));
  const [vars] = pic.perCpu;
  if (!vars) return { ...wordMarks(words, 0, PREVIEW_W), lines: [] };
  // The words in a column at the left, the first per-CPU variable's bars beside them.
  if (words.length === 0) return plainBars(vars.values, 0, PREVIEW_W);
  const split = 50;
  const bars = plainBars(vars.values, split + 4, PREVIEW_W);
  const box = wordMarks(words, 0, split);
  return {
    rects: [...box.rects, ...bars.rects],
    lines: bars.lines,
    texts: [...box.texts, ...bars.texts],
  };
}
