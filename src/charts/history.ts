// The counter as the charts that explain a step draw it (the sweep of a sum, a fold's pour, a
// torn read): its declared parts and where its global count is. Which instruction each step ran
// is the machine's (machine/executed.ts), as the room's questions read it too.

import type { Cell, CounterAnatomy, PerCpuCell } from '../machine/layout.ts';
import type { Machine } from '../machine/machine.ts';
import { cellValue, globalCell, perCpuCell } from '../machine/read.ts';

/** What the machine's counter is made of, as its program declares it (null: no counter). */
export function counterOf(m: Machine): CounterAnatomy | null {
  return m.layout.counter;
}

/**
 * The counter's global part as the chart draws it: fbc->count, or, while a tagged word is in
 * atomic mode (bit 0 set), that word's value (shifted right by one), which is where the count is.
 */
export function globalPart(
  m: Machine,
  s: Int32Array,
  global: Cell,
): { label: string; value: number | bigint; atomic: boolean } {
  const name = m.layout.counter?.tagged;
  const tagged = name ? globalCell(m, name) : undefined;
  if (tagged) {
    const t = BigInt(cellValue(s, tagged));
    if ((t & 1n) === 1n) return { label: tagged.label, value: t >> 1n, atomic: true };
  }
  return { label: global.label, value: cellValue(s, global), atomic: false };
}

/** The counter parts the charts draw: the global count and the per-CPU deltas (or null). */
export function counterCells(m: Machine): { global: Cell; slots: PerCpuCell } | null {
  const a = counterOf(m);
  if (!a || a.count === null || a.deltas === null) return null;
  const slots = perCpuCell(m, a.deltas);
  const global = globalCell(m, a.count);
  return slots && global ? { global, slots } : null;
}
