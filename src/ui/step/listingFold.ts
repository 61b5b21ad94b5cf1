/** A run of listing lines, 1-based and inclusive: shown, or folded behind one row. */
export interface ListingPart {
  readonly from: number;
  readonly to: number;
  readonly shown: boolean;
}

/**
 * The parts of an `n`-line listing folded to the lines around each cursor: `before` lines above
 * a cursor's line (the test or lock it is inside) and `after` below it. A gap of one line is
 * shown rather than folded, since its fold row would take the same room.
 */
export function foldAround(
  n: number,
  cursors: readonly number[],
  before = 2,
  after = 1,
): ListingPart[] {
  const keep = new Uint8Array(n + 2);
  for (const c of cursors) {
    for (let i = Math.max(1, c - before); i <= Math.min(n, c + after); i++) keep[i] = 1;
  }
  // A lone hidden line between kept ones, or at either end, is kept.
  for (let i = 1; i <= n; i++) {
    if (!keep[i] && (i === 1 || keep[i - 1]) && (i === n || keep[i + 1])) keep[i] = 1;
  }
  const parts: ListingPart[] = [];
  for (let i = 1; i <= n;) {
    let j = i;
    while (j < n && keep[j + 1] === keep[i]) j++;
    parts.push({ from: i, to: j, shown: keep[i] === 1 });
    i = j + 1;
  }
  return parts;
}

/** The most lines of context kept above a cursor when folding (one less below it). */
const MOST_CONTEXT = 8;

/**
 * How to show a listing whose lines are `heights` px tall in `room` px with its cursors' lines
 * in view: null when the lines from the first cursor to the last fit unfolded, else the most
 * context (lines above each cursor, one less below) whose folded listing fits, at least 2. A
 * fold row is taken to be as tall as the shortest line.
 */
export function foldContext(
  heights: readonly number[],
  cursors: readonly number[],
  room: number,
): number | null {
  const first = cursors[0];
  const last = cursors.at(-1);
  if (first === undefined || last === undefined || heights.length === 0) return null;
  let span = 0;
  for (let i = first; i <= last; i++) span += heights[i - 1] ?? 0;
  if (span <= room) return null;
  const row = Math.min(...heights);
  const heightOf = (k: number) =>
    foldAround(heights.length, cursors, k, k - 1).reduce((sum, p) => {
      if (!p.shown) return sum + row;
      for (let i = p.from; i <= p.to; i++) sum += heights[i - 1] ?? 0;
      return sum;
    }, 0);
  for (let k = MOST_CONTEXT; k > 2; k--) if (heightOf(k) <= room) return k;
  return 2;
}
