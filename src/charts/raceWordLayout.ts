// Where the race word's parts go (RaceWord.tsx draws them): the word or words in the middle, one
// box per context under the word it updates, the tally at the right. Pure, so the layout tests
// can check with the bundled fonts' metrics that every label stays inside its box and no two
// boxes meet, at every size the stage gives the chart.

import type { Box, Size } from './geometry.ts';
import type { RaceWordView, WordAccess } from './raceWord.ts';

export const WORD_H = 78;
export const BOX_H = 64;
/** Under memory tso a racer's box also holds its CPU's store buffer: a strip at its foot. */
export const BOX_H_TSO = 86;
export const STRIP_Y = 56;
export const STRIP_H = 24;
/** The top of the words: under the title. */
export const WORD_Y = 44;

/**
 * Widths a label is given, per character, at the chart's sizes: a little more than IBM Plex's
 * widest (Mono is 0.6 em; Sans bold digits 0.6 em, its letters less). The layout tests measure
 * the real text against the room these leave.
 */
const MONO_15 = 9;
const DIGIT_15_BOLD = 9.5;
const DIGIT_34_BOLD = 21;
const MONO_12 = 7.5;
const SANS_15_BOLD = 9;
/** A racer's copy (Plex Sans 17): its digits are 0.6 em, its letters a little more than average. */
const DIGIT_17 = 10.2;
const LETTER_17 = 8.2;

export interface RaceWordLayout {
  readonly title: string;
  /**
   * The tally's column: its left, its top, its bars' longest, each row's top (label, then bar),
   * the "lost" line's baseline and the column's foot.
   */
  readonly tally: {
    readonly x: number;
    readonly y: number;
    readonly barMax: number;
    readonly rows: readonly number[];
    readonly lostY: number;
    readonly bottom: number;
  };
  readonly words: readonly {
    readonly box: Box;
    /** What the box is labelled ("nr_files"; "CPU0" when each CPU has its word). */
    readonly label: string;
    /** Where an overwritten value and its note go (right-aligned, left of the word). */
    readonly wiped: { readonly x: number; readonly note: string };
  }[];
  readonly racers: readonly {
    readonly ctx: number;
    readonly box: Box;
    /** Under tso, the first context on a CPU draws that CPU's store buffer: its text. */
    readonly buffer: string | null;
  }[];
}

/** The per-CPU variable's name in a word's label ("CPU0's c" → "c"). */
function variableOf(label: string): string {
  const i = label.indexOf("'s ");
  return i < 0 ? label : label.slice(i + 3);
}

export function raceWordLayout(view: RaceWordView, size: Size): RaceWordLayout {
  const { width, height } = size;
  const columns = view.words.length;
  // The tally's values sit after their bars: room for the longest.
  const digits = Math.max(1, ...view.tally.map((r) => String(r.value).length));
  // Shared variables have no tally: the words take the whole width.
  const tallyW = view.tally.length === 0 ? 0 : Math.min(150, width * 0.28);
  const plotW = width - tallyW - 16;
  const colW = plotW / columns;
  const single = columns === 1;
  const words = view.words.map((w, k) => {
    const label = single || view.shared ? w.label : `CPU${String(k)}`;
    const need = Math.max(label.length * MONO_15, w.shown.length * DIGIT_34_BOLD) + 24;
    const room = single ? Math.min(200, colW - 110) : colW - 16;
    const boxW = Math.min(room, single ? Math.max(need, 200) : need);
    // Room at the word's left for the value a store wiped out: one word is set right of its
    // column's middle; each of several sits at its column's right, with a shorter note.
    // Shared variables are centred in their columns (a plain store wipes out no count).
    const x = view.shared
      ? k * colW + (colW - boxW) / 2 + 8
      : single
        ? (colW - boxW) / 2 + 40
        : (k + 1) * colW - boxW - 8;
    return {
      box: { x, y: WORD_Y, width: boxW, height: WORD_H },
      label,
      wiped: { x: x - 12, note: single ? 'update lost' : 'lost' },
    };
  });
  // The racers at the foot, 70 under the words for the arrow and its label; on the shortest
  // stage (240) the arrow gives way so the boxes stay whole.
  const boxH = view.tso ? BOX_H_TSO : BOX_H;
  const boxY = Math.min(Math.max(WORD_Y + WORD_H + 70, height - boxH - 12), height - boxH - 4);
  // The tally beside the words; under tso it has a third bar (the store buffers) and starts
  // higher, beside the title, so it ends above the taller racer boxes on the shortest stage.
  const tallyY = view.tso ? 8 : WORD_Y;
  const rowStep = view.tso ? 40 : 44;
  const rows = view.tally.map((_, i) => i * rowStep);
  const lostY = rows.length * rowStep + 16;
  // The racers sit below the tally, so their row spans the whole width: a column per word, each
  // racer under the word of the CPU it is on; when a word has none (a task migrated to the other
  // CPU), the racers share the row evenly, in that order, so no box is squeezed.
  const rowW = width - 16;
  const everyWord =
    !view.shared && view.words.every((_, k) => view.racers.some((r) => r.word === k));
  const order = [...view.racers].sort((a, b) => a.word - b.word || a.ctx - b.ctx);
  const racers = view.racers.map((r) => {
    let left: number;
    let slot: number;
    if (everyWord) {
      const mates = view.racers.filter((x) => x.word === r.word);
      slot = rowW / columns / mates.length;
      left = (r.word * rowW) / columns + mates.indexOf(r) * slot;
    } else {
      slot = rowW / order.length;
      left = order.indexOf(r) * slot;
    }
    const w = Math.min(170, slot - 12);
    const first = view.racers.find((x) => x.cpu === r.cpu)?.ctx === r.ctx;
    return {
      ctx: r.ctx,
      box: { x: left + (slot - w) / 2 + 8, y: boxY, width: w, height: boxH },
      buffer: view.tso && first ? bufferText(view, r.cpu, w - 16) : null,
    };
  });
  const first = view.words[0];
  return {
    title: view.shared
      ? single
        ? 'The shared variable'
        : 'The shared variables'
      : single
        ? 'The word every CPU updates'
        : `Each CPU’s ${first ? variableOf(first.label) : 'word'}`,
    tally: {
      x: width - tallyW,
      y: tallyY,
      barMax: Math.max(20, tallyW - 8 - digits * DIGIT_15_BOLD),
      rows,
      lostY,
      bottom: tallyY + lostY + 6,
    },
    words,
    racers,
  };
}

/**
 * CPU k's store buffer as its strip says it, oldest first, named as the CPU's lane names it
 * ("read_count[0] = 1", "nr_files = 101"), in at most `room` pixels: the oldest stores that do
 * not fit give way to a count.
 */
export function bufferText(view: RaceWordView, k: number, room: number): string {
  const entries = view.buffers
    .filter((b) => b.cpu === k)
    .map((b) => {
      const label = view.words[b.word]?.label ?? '';
      const name =
        view.words.length === 1 || view.shared ? label : `${variableOf(label)}[${String(b.word)}]`;
      return `${name} = ${b.shown}`;
    });
  if (entries.length === 0) return 'store buffer empty';
  let text = entries.join(', ');
  for (let drop = 1; drop < entries.length && text.length * MONO_12 > room; drop++)
    text = `${String(drop)} older, ${entries.slice(drop).join(', ')}`;
  return text;
}

/**
 * What a racer's box says it holds, in a box `boxW` wide (its text starts 16 in): "holds nothing",
 * "holds 100" or "holds 100: stale" where that fits; with three CPUs or more on a narrow chart,
 * the value alone ("nothing", "100: stale", then "100", which the stale colour still marks).
 */
export function racerCopy(
  held: { shown: string; stale: boolean } | undefined,
  boxW: number,
): string {
  const forms = held
    ? held.stale
      ? [`holds ${held.shown}: stale`, `${held.shown}: stale`, held.shown]
      : [`holds ${held.shown}`, held.shown]
    : ['holds nothing', 'nothing'];
  const width = (t: string) => {
    const digits = t.replace(/\D/g, '').length;
    return digits * DIGIT_17 + (t.length - digits) * LETTER_17;
  };
  return forms.find((t) => width(t) <= boxW - 20) ?? forms[forms.length - 1] ?? '';
}

/** The step's arrow between a racer's box and a word's, and where its label goes. */
export interface AccessArrow {
  /** The racer's end (the box's top middle) and the word's (under the word, in its box). */
  readonly cx: number;
  readonly wx: number;
  readonly label: { readonly x: number; readonly y: number; readonly anchor: 'start' | 'end' };
}

/**
 * The arrow of a step from the racer in `racer` to the word in `word`, labelled `text`: the label
 * at the arrow's middle, right of it, unless it would run into the tally's column there (a
 * phone's narrow chart): then left of it.
 */
export function accessArrow(
  layout: RaceWordLayout,
  racer: Box,
  word: Box,
  text: string,
): AccessArrow {
  const cx = racer.x + racer.width / 2;
  const wx = Math.max(word.x + 16, Math.min(word.x + word.width - 16, cx));
  const mid = (cx + wx) / 2;
  const y = (WORD_Y + WORD_H + racer.y) / 2 + 5;
  const { tally } = layout;
  const besideTally = tally.rows.length > 0 && y + 4 >= tally.y && y - 15 <= tally.bottom;
  const w = text.length * SANS_15_BOLD;
  const right = mid + 8 + w <= tally.x - 4;
  if (right || !besideTally) return { cx, wx, label: { x: mid + 8, y, anchor: 'start' } };
  // Left of the arrow; where neither side has room, as far right as the tally allows (the text
  // then crosses its arrow, which stays readable; running into the tally's figures does not).
  if (mid - 8 - w >= 0) return { cx, wx, label: { x: mid - 8, y, anchor: 'end' } };
  return { cx, wx, label: { x: Math.max(0, tally.x - 4 - w), y, anchor: 'start' } };
}

/** What the step did, beside its arrow (or above the box, when it stayed in the buffer). */
export function accessLabel(a: WordAccess): string {
  if (a.kind === 'flush') return `flush ${a.afterShown}`;
  if (a.kind === 'load')
    return a.via === 'buffer' ? `load ${a.beforeShown} from its buffer` : `load ${a.beforeShown}`;
  if (a.kind === 'store')
    return a.via === 'buffer' ? `store ${a.afterShown}: buffered` : `store ${a.afterShown}`;
  return `atomic: ${a.beforeShown} → ${a.afterShown}`;
}
