// A live run's counter, from the program's own declaration (`counter { … }`): its value and exact
// total in the shared memory, its cheap read and bound, the per-CPU deltas drawn as bars, and the
// summers' result slots. Every scenario in Live is a program, so nothing here guesses from names.

import { type CounterReaders, counterReaders } from '../lang/counter.ts';
import type { Machine } from '../machine/machine.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import type { SlotLayout } from './memory.ts';

export interface LiveCounter extends CounterReaders {
  /** The deltas' label (`fbc->counters`, `nr_files`), or null. */
  readonly deltasLabel: string | null;
  /** What the line on the deltas is called: batch, or threshold. */
  readonly limit: 'batch' | 'threshold';
}

const byMachine = new WeakMap<Machine, LiveCounter | null>();

/** The counter of scenario `sc` with parameters p, as built for machine m (its layout's names). */
export function liveCounter(
  sc: Scenario,
  p: Params,
  m: Machine,
  layout: SlotLayout = 'padded',
): LiveCounter | null {
  if (byMachine.has(m)) return byMachine.get(m) ?? null;
  const program = sc.program?.(p, { padded: true, packedCells: layout === 'packed', live: true });
  const readers = program ? counterReaders(program) : null;
  const counter: LiveCounter | null = readers
    ? {
        ...readers,
        deltasLabel: readers.deltas
          ? (m.layout.cells.find((c) => c.name === readers.deltas)?.label ?? readers.deltas)
          : null,
        limit: m.layout.counter?.limit ?? 'batch',
      }
    : null;
  byMachine.set(m, counter);
  return counter;
}
