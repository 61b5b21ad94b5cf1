// What a sequence-like word of a scenario means, for the chart that draws it: its value, its low
// bits, and the meaning of its low bit where the scenario gives it one. Pure.

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

/** The cells drawn as sequence words, and what each one is for. */
const WORDS: Readonly<Record<string, (v: number) => { parity: boolean; meaning: string }>> = {
  // percpu-seq (Eric Dumazet's V1): "Low order bit of the 'sequence' is used to signal _sum() is
  // in flight, while _add() threads that overflow their percpu s32 variable do a sequence += 2".
  sequence: (v) => ({
    parity: true,
    meaning:
      v & 1
        ? 'odd: a sum is in flight (new adds go to slowcount)'
        : 'even: no sum in flight (adds use their deltas)',
  }),
  // percpu-sum-fuzzy (seqcount variant): a change counter with no in-flight bit.
  seqcount: (v) => ({
    parity: false,
    meaning: `bumped once per fold (${String(v)} so far); no in-flight bit`,
  }),
  // percpu-seq-multi (V2): a count of sums instead of a bit, and a separate change counter.
  sums: (v) => ({
    parity: false,
    meaning:
      v === 0
        ? 'no sum in flight (adds use their deltas)'
        : `${String(v)} sum${v === 1 ? '' : 's'} in flight (new adds go to slowcount)`,
  }),
  changed: (v) => ({ parity: false, meaning: `bumped once per fold (${String(v)} so far)` }),
  changing: (v) => ({
    parity: false,
    meaning: v === 0 ? 'no fold under way' : `${String(v)} fold${v === 1 ? '' : 's'} under way`,
  }),
};

/** Is `name` a word the sequence chart draws? */
export function isSeqWord(name: string): boolean {
  return name in WORDS;
}

/** The view of word `name` holding `value`, or null when it is not a sequence-like word. */
export function seqWordOf(name: string, label: string, value: number): SeqWordView | null {
  const of = WORDS[name];
  if (!of) return null;
  const { parity, meaning } = of(value);
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
