// The geometry of a CPU's store buffer (Step mode under memory tso): one row per waiting store,
// oldest at the top, next to reach memory, and which row is which across steps, so a row keeps
// its identity (and slides up) when the oldest drains, and only a new store enters.

import { scaleBand } from 'd3';

/** A row of the buffer. */
export interface BufferBox {
  /** Stable across steps while the store waits. */
  readonly id: number;
  readonly y: number;
  readonly height: number;
  readonly text: string;
}

/**
 * Ids for the stores now waiting (`next`, oldest first), given the boxes of the previous state:
 * the previous boxes minus some drained from the front must be a prefix of the new ones (a FIFO
 * only loses its oldest and gains at its end); the rest are new. Falls back to all new ids
 * when no such match exists (a jump back in time, another scenario).
 */
export function trackBoxes(
  prev: readonly { readonly id: number; readonly text: string }[],
  next: readonly string[],
  firstFreeId: number,
): { ids: number[]; nextId: number } {
  let id = firstFreeId;
  for (let drained = 0; drained <= prev.length; drained++) {
    const kept = prev.slice(drained);
    if (kept.length > next.length) continue;
    if (kept.every((b, i) => b.text === next[i])) {
      const ids = kept.map((b) => b.id);
      while (ids.length < next.length) ids.push(id++);
      return { ids, nextId: id };
    }
  }
  return { ids: next.map(() => id++), nextId: id };
}

/** Rows for `texts` from `top`, `row` high each, in a buffer of `depth` entries (top: oldest). */
export function bufferBoxes(
  texts: readonly string[],
  ids: readonly number[],
  depth: number,
  top: number,
  row: number,
): BufferBox[] {
  const y = scaleBand<number>()
    .domain(Array.from({ length: depth }, (_, i) => i))
    .range([top, top + depth * row])
    .paddingInner(0.15);
  return texts.map((text, i) => ({
    id: ids[i] as number,
    y: y(i) ?? top,
    height: y.bandwidth(),
    text,
  }));
}
