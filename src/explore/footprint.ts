// Which words of a state an event can write, so that the explorer compares a successor with its
// parent only there (visited.ts: `components`).
//
// An event on CPU k (docs/machine.md) writes memory, CPU k's fields and store buffer, the record of the context on top
// of CPU k (the one that steps, or the task that is preempted), the records of CPU k's IRQ and
// NMI handlers (an event can start them), and the results; a task that finishes only reads the
// others (the next one to run). Every other word keeps its value, so its component keeps its id.
// A migration also writes the target CPU's fields and the moved task's record, and an offline the
// control CPU's fields and the dead callbacks' record: they are left to the full comparison, as
// are symmetry-reduced states (the renaming moves every CPU's words).

import { cpuBase, ctxBase, type Machine, sbBase } from '../machine/machine.ts';

/** Tables larger than this many words are not built (machines with hundreds of CPUs). */
const MAX_WORDS = 1 << 22;

/**
 * For CPU k and the context t on top of it (−1: none), the words that can differ after an event
 * on k: at [(k × (contexts + 1) + t + 1) × 2n], n pairs (from, to), one per segment (an empty
 * pair where nothing can change). Null when the table would be too large.
 */
export function footprints(
  m: Machine,
  segments: readonly { readonly off: number; readonly width: number }[],
): Int32Array | null {
  const n = segments.length;
  const per = m.contexts + 1;
  if (m.cpus * per * 2 * n > MAX_WORDS) return null;
  const table = new Int32Array(m.cpus * per * 2 * n);
  const record = (c: number): [number, number] => [ctxBase(m, c), ctxBase(m, c + 1)];
  for (let k = 0; k < m.cpus; k++) {
    for (let t = -1; t < m.contexts; t++) {
      const written: [number, number][] = [
        [0, m.memWords],
        [cpuBase(m, k), cpuBase(m, k + 1)],
        [sbBase(m, k), sbBase(m, k + 1)],
        [m.resOff, m.size],
      ];
      for (const c of [t, m.irqCtx[k] as number, m.nmiCtx[k] as number])
        if (c >= 0) written.push(record(c));
      const at = (k * per + t + 1) * 2 * n;
      segments.forEach(({ off, width }, i) => {
        // The smallest range of the segment that covers every written word in it.
        let from = off + width;
        let to = off;
        for (const [a, b] of written) {
          const lo = Math.max(a, off);
          const hi = Math.min(b, off + width);
          if (lo < hi) {
            from = Math.min(from, lo);
            to = Math.max(to, hi);
          }
        }
        if (from >= to) from = to = off;
        table[at + 2 * i] = from;
        table[at + 2 * i + 1] = to;
      });
    }
  }
  return table;
}
