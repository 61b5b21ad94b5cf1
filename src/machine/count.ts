// Counting in words, the one pluraliser of every layer: "1 IRQ", "2 switches", "1,024 states".

/** `n` and its noun: "1 store", "3 stores", "2 switches" (give `many` where s is not enough). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
