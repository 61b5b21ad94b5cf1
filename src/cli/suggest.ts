// "Did you mean …?" for a mistyped id, option or name: the closest known word, when it is close
// enough to be the one meant (a third of the word's letters wrong at most).

import { closest, distance } from 'fastest-levenshtein';

/** The known word `typed` is most likely a typo of, or null when none is near. */
export function nearest(typed: string, known: readonly string[]): string | null {
  if (known.length === 0) return null;
  const best = closest(typed, [...known]);
  return distance(typed, best) <= Math.max(1, Math.floor(typed.length / 3)) ? best : null;
}

/** " (did you mean x?)" or "". */
export function didYouMean(typed: string, known: readonly string[]): string {
  const n = nearest(typed, known);
  return n === null ? '' : ` (did you mean ${n}?)`;
}
