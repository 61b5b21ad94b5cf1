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

/**
 * Where a word's parts go. One word is a strip of two lines (its name, value and low bits, then
 * what the value means); several words (percpu-seq-multi's three) take one line each, wider, so
 * that three of them stay about as tall as one and the counter chart above keeps the picture's
 * room; there the low bit is marked by its outline alone, and the meaning names it.
 */
export function seqWordGeometry(words: number): {
  readonly W: number;
  readonly ROW: number;
  readonly BITS_X: number;
  readonly MEANING: { readonly x: number; readonly y: number };
  readonly lowBitLabel: boolean;
} {
  return words === 1
    ? { W: 480, ROW: 64, BITS_X: 280, MEANING: { x: 4, y: 52 }, lowBitLabel: true }
    : { W: 700, ROW: 34, BITS_X: 200, MEANING: { x: 330, y: 22 }, lowBitLabel: false };
}
