// Judging every sum() a live run makes, as it returns. A run makes millions of calls and the
// state at rest keeps only the last one, so the CPU that finishes a call checks it at once:
// did it return a value between the exact totals when it started and when it returned?
// (The model judges the same with its `sum-within-window` invariant, at every state.)

import { pairValue } from '../machine/int64.ts';
import { initialState } from '../machine/interpreter.ts';
import { tallyOf } from '../machine/isa.ts';
import type { Machine } from '../machine/machine.ts';
import type { LiveCounter } from './counter.ts';
import { inFlightSlack } from './slack.ts';

/** Per task: a check of the call it has just finished (true: fine), or null when none applies. */
export type CallChecks = readonly (((s: Int32Array) => boolean) | null)[];

export function callChecks(m: Machine, counter: LiveCounter | null): CallChecks {
  const none = Array.from({ length: m.tasks }, () => null);
  if (!counter) return none;
  const tallies = m.code.flat().map(tallyOf);
  // With adds of both signs the total can leave the window between its two ends: not judged,
  // as the model's invariant does not judge it either.
  if (tallies.some((v) => v > 0) && tallies.some((v) => v < 0)) return none;
  const initial = counter.exact(m, initialState(m));
  const slack = inFlightSlack(m);
  return m.spec.tasks.map((task) => {
    const summer = counter.summers.find((x) => x.thread === task.name);
    if (!summer) return null;
    const sum = m.layout.results.find((r) => r.name === summer.sum);
    const window = m.layout.results.find((r) => r.name === summer.window);
    if (!sum || !window) return null;
    const at = (slot: { offset: number }, i: number, s: Int32Array) =>
      BigInt(
        pairValue(
          s[m.resOff + slot.offset + 1 + 2 * i] as number,
          s[m.resOff + slot.offset + 2 + 2 * i] as number,
        ),
      );
    return (s: Int32Array) => {
      if ((s[m.resOff + sum.offset] as number) < 1 || (s[m.resOff + window.offset] as number) < 2)
        return true;
      const v = at(sum, 0, s);
      const a = initial + at(window, 0, s);
      const b = initial + at(window, 1, s);
      const lo = (a < b ? a : b) - BigInt(slack);
      const hi = (a < b ? b : a) + BigInt(slack);
      return v >= lo && v <= hi;
    };
  });
}
