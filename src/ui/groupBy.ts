/** One group of items, named by the key they share. */
export interface Group<T> {
  readonly key: string;
  readonly items: readonly T[];
}

/** Groups items by a key, keeping groups in order of first appearance and items in input order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Group<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return Array.from(groups, ([key, grouped]) => ({ key, items: grouped }));
}
