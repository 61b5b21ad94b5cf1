// Which row of a CPU's store buffer (Step mode under memory tso) is which across steps, so a row
// keeps its identity (and slides up) when the oldest store drains, and only a new store enters.

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
