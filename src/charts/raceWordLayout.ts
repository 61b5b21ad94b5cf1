// Where the race word's parts go (RaceWord.tsx draws them): the word or words in the middle, one
// box per context under the word it updates, the tally at the right. Pure, so the layout tests
// can check with the bundled fonts' metrics that every label stays inside its box and no two
// boxes meet, at every size the stage gives the chart.

import type { Box } from './geometry.ts';
import type { RaceWordView } from './raceWord.ts';

export const WORD_H = 78;
export const BOX_H = 64;
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

export interface RaceWordLayout {
  readonly title: string;
  /** The tally's column: its left, its bars' longest, its foot (the "lost" line). */
  readonly tally: { readonly x: number; readonly barMax: number; readonly bottom: number };
  readonly words: readonly {
    readonly box: Box;
    /** What the box is labelled ("nr_files"; "CPU0" when each CPU has its word). */
    readonly label: string;
    /** Where an overwritten value and its note go (right-aligned, left of the word). */
    readonly wiped: { readonly x: number; readonly note: string };
  }[];
  readonly racers: readonly { readonly ctx: number; readonly box: Box }[];
}

/** The per-CPU variable's name in a word's label ("CPU0's c" → "c"). */
function variableOf(label: string): string {
  const i = label.indexOf("'s ");
  return i < 0 ? label : label.slice(i + 3);
}

export function raceWordLayout(
  view: RaceWordView,
  size: { readonly width: number; readonly height: number },
): RaceWordLayout {
  const { width, height } = size;
  const columns = view.words.length;
  // The tally's values sit after their bars: room for the longest.
  const digits = Math.max(1, String(view.made).length, String(view.counted).length);
  const tallyW = Math.min(150, width * 0.28);
  const plotW = width - tallyW - 16;
  const colW = plotW / columns;
  const single = columns === 1;
  const words = view.words.map((w, k) => {
    const label = single ? w.label : `CPU${String(k)}`;
    const need = Math.max(label.length * MONO_15, String(w.value).length * DIGIT_34_BOLD) + 24;
    const room = single ? Math.min(200, colW - 110) : colW - 16;
    const boxW = Math.min(room, single ? Math.max(need, 200) : need);
    // Room at the word's left for the value a store wiped out: one word is set right of its
    // column's middle; each of several sits at its column's right, with a shorter note.
    const x = single ? (colW - boxW) / 2 + 40 : (k + 1) * colW - boxW - 8;
    return {
      box: { x, y: WORD_Y, width: boxW, height: WORD_H },
      label,
      wiped: { x: x - 12, note: single ? 'update lost' : 'lost' },
    };
  });
  // The racers at the foot, 70 under the words for the arrow and its label; on the shortest
  // stage (240) the arrow gives way so the boxes stay whole.
  const boxY = Math.min(Math.max(WORD_Y + WORD_H + 70, height - BOX_H - 12), height - BOX_H - 4);
  // The racers sit below the tally, so their row spans the whole width: a column per word, each
  // racer under the word of the CPU it is on; when a word has none (a task migrated to the other
  // CPU), the racers share the row evenly, in that order, so no box is squeezed.
  const rowW = width - 16;
  const everyWord = view.words.every((_, k) => view.racers.some((r) => r.word === k));
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
    return { ctx: r.ctx, box: { x: left + (slot - w) / 2 + 8, y: boxY, width: w, height: BOX_H } };
  });
  const first = view.words[0];
  return {
    title: single
      ? 'The word every CPU updates'
      : `Each CPU’s ${first ? variableOf(first.label) : 'word'}`,
    tally: {
      x: width - tallyW,
      barMax: Math.max(20, tallyW - 8 - digits * DIGIT_15_BOLD),
      bottom: WORD_Y + 110,
    },
    words,
    racers,
  };
}
