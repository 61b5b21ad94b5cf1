// What a sequence-like word of a scenario means, for the chart that draws it: its value, its low
// bits, and the meaning of its low bit where the scenario gives it one. Pure.

import { count } from '../machine/count.ts';

/** One word drawn by SeqWord.tsx. */
export interface SeqWordView {
  readonly name: string;
  readonly label: string;
  readonly value: number;
  /** The low `BITS` bits, most significant first ("0101"). */
  readonly bits: string;
  /** 'odd' / 'even' where the low bit means something, else null. */
  readonly parity: 'odd' | 'even' | null;
  /** What the word (or its low bit) says now, in plain words. */
  readonly meaning: string;
}

/** How many low bits the chart draws. */
export const BITS = 4;

export type SequenceKind = 'inflight' | 'changes' | 'sums' | 'folds';

/** What each kind of sequence word says, as its program declares it (`sequence x inflight;`). */
const WORDS: Readonly<Record<SequenceKind, (v: number) => { parity: boolean; meaning: string }>> = {
  // percpu-seq (Eric Dumazet's V1): "Low order bit of the 'sequence' is used to signal _sum() is
  // in flight, while _add() threads that overflow their percpu s32 variable do a sequence += 2".
  inflight: (v) => ({
    parity: true,
    meaning:
      v & 1
        ? 'odd: a sum is in flight (new adds go to slowcount)'
        : 'even: no sum in flight (adds use their deltas)',
  }),
  // A change counter with no in-flight bit (percpu-sum-fuzzy's seqcount, percpu-seq-multi's changed).
  changes: (v) => ({ parity: false, meaning: `bumped once per fold (${String(v)} so far)` }),
  // percpu-seq-multi (V2): a count of sums instead of a bit.
  sums: (v) => ({
    parity: false,
    meaning:
      v === 0
        ? 'no sum in flight (adds use their deltas)'
        : `${count(v, 'sum')} in flight (new adds go to slowcount)`,
  }),
  folds: (v) => ({
    parity: false,
    meaning: v === 0 ? 'no fold under way' : `${count(v, 'fold')} under way`,
  }),
};

/** The view of a sequence word of kind `kind`, named `name`, holding `value`. */
export function seqWordOf(
  kind: SequenceKind,
  name: string,
  label: string,
  value: number,
): SeqWordView {
  const { parity, meaning } = WORDS[kind](value);
  const mask = (1 << BITS) - 1;
  return {
    name,
    label,
    value,
    bits: ((value >>> 0) & mask).toString(2).padStart(BITS, '0'),
    parity: parity ? (value & 1 ? 'odd' : 'even') : null,
    meaning,
  };
}

/** The word's text equivalent: "fbc->sequence = 5 (binary …0101): odd: a sum is in flight…". */
export function seqWordText(w: SeqWordView): string {
  return `${w.label} = ${String(w.value)} (low bits …${w.bits}): ${w.meaning}`;
}

/** A bit's square in SeqWord.tsx, and the gap after it. */
export const SEQ_BIT = 26;
export const SEQ_BIT_GAP = 4;
/** A name longer than this is cut (with an ellipsis) so that it stops before the bits. */
const LABEL_CHARS = 24;

/** The word's name as drawn: cut with an ellipsis past LABEL_CHARS. */
export function seqLabel(label: string): string {
  return label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;
}

/** The type the strip draws (its labels' 16 px), and the least it may be drawn on screen. */
const TYPE = 16;
const MIN_TYPE = 13;
/** The wide strips' widths, one word and several. */
const WIDE_W = { one: 480, several: 700 } as const;

/** Where a strip's parts go, in its own coordinates. */
export interface SeqWordGeometry {
  readonly W: number;
  /** One word's height. */
  readonly ROW: number;
  /** The baseline of the name and value. */
  readonly NAME_Y: number;
  /** The bits' left edge and top, and the baseline of the "…" and "← low bit" beside them. */
  readonly BITS_X: number;
  readonly BITS_Y: number;
  readonly BITS_BASE: number;
  /** The meaning's first baseline; its next lines follow LINE below. */
  readonly MEANING: { readonly x: number; readonly y: number };
  readonly LINE: number;
  readonly lowBitLabel: boolean;
  /** The meaning breaks before its parenthesis ("odd: a sum is in flight" / "(new adds …)"). */
  readonly stacked: boolean;
}

/**
 * Where a word's parts go. One word is a strip of two lines (its name, value and low bits, then
 * what the value means); several words (percpu-seq-multi's three) take one line each, wider, so
 * that three of them stay about as tall as one and the counter chart above keeps the picture's
 * room; there the low bit is marked by its outline alone, and the meaning names it.
 *
 * One word `stacked` is for a narrow box (beside a lecture's slide, where the wide strip drew
 * its type at 9 px): its name, its bits, and its meaning in two lines, a strip half as wide, so
 * that the same box draws its type twice as large.
 */
export function seqWordGeometry(words: number, stacked = false): SeqWordGeometry {
  if (words === 1 && stacked)
    return {
      W: 224,
      ROW: 108,
      NAME_Y: 22,
      BITS_X: 22,
      BITS_Y: 32,
      BITS_BASE: 52,
      MEANING: { x: 4, y: 82 },
      LINE: 20,
      lowBitLabel: true,
      stacked: true,
    };
  const base = { NAME_Y: 22, BITS_Y: 2, BITS_BASE: 22, LINE: 20, stacked: false };
  return words === 1
    ? { ...base, W: WIDE_W.one, ROW: 64, BITS_X: 280, MEANING: { x: 4, y: 52 }, lowBitLabel: true }
    : {
        ...base,
        W: WIDE_W.several,
        ROW: 34,
        BITS_X: 200,
        MEANING: { x: 330, y: 22 },
        lowBitLabel: false,
      };
}

/**
 * Whether `words` drawn `width` px wide take the stacked strip: where the wide one would draw
 * its type under MIN_TYPE px. One word only: three stacked words would take the counter's room.
 */
export function seqWordStacked(words: number, width: number): boolean {
  return words === 1 && (TYPE * width) / WIDE_W.one < MIN_TYPE;
}

/** The meaning's lines: stacked, it breaks before its parenthesis. */
export function meaningLines(meaning: string, stacked: boolean): readonly string[] {
  const at = meaning.indexOf(' (');
  return stacked && at > 0 ? [meaning.slice(0, at), meaning.slice(at + 1)] : [meaning];
}
