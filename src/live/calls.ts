// Judging every sum() a live run makes, as it returns. A run makes millions of calls and the
// state at rest keeps only the last one, so the CPU that finishes a call checks it at once:
// did it return a value between the exact totals when it started and when it returned?
// (The model judges the same with its `sum-within-window` invariant, at every state.)

import { pairValue, minus, plus } from '../machine/int64.ts';
import { initialState } from '../machine/interpreter.ts';
import { Op } from '../machine/isa.ts';
import type { Machine } from '../machine/machine.ts';
import { observe } from '../scenarios/outcome.ts';
import type { Params, Scenario } from '../scenarios/types.ts';
import { inFlightSlack } from './slack.ts';

/** Per task: a check of the call it has just finished (true: fine), or null when none applies. */
export type CallChecks = readonly (((s: Int32Array) => boolean) | null)[];

export function callChecks(sc: Scenario, m: Machine, p: Params): CallChecks {
  const none = Array.from({ length: m.tasks }, () => null);
  const tallies = m.code.flat().map((i) => i.tally);
  // With adds of both signs the total can leave the window between its two ends: not judged,
  // as the model's invariant does not judge it either.
  if (tallies.some((v) => v > 0) && tallies.some((v) => v < 0)) return none;
  const o = observe(sc, m, initialState(m), p);
  if (!('exact' in o)) return none;
  const initial = typeof o.exact === 'bigint' ? o.exact : Number(o.exact);
  const slack = inFlightSlack(m);
  return m.programs.slice(0, m.tasks).map((prog) => {
    const recorded = new Set(
      prog.instrs.filter((i) => i.op === Op.Record || i.op === Op.RecordTotal).map((i) => i.base),
    );
    const mine = m.layout.results.filter((r) => recorded.has(r.offset));
    const sum = mine.find((r) => /^sum\d*$/.test(r.name));
    const window = mine.find((r) => /^window\d*$/.test(r.name));
    if (!sum || !window) return null;
    const at = (slot: { offset: number }, i: number, s: Int32Array) =>
      pairValue(
        s[m.resOff + slot.offset + 1 + 2 * i] as number,
        s[m.resOff + slot.offset + 2 + 2 * i] as number,
      );
    return (s: Int32Array) => {
      if ((s[m.resOff + sum.offset] as number) < 1 || (s[m.resOff + window.offset] as number) < 2)
        return true;
      const v = at(sum, 0, s);
      const a = plus(initial, at(window, 0, s));
      const b = plus(initial, at(window, 1, s));
      const lo = minus(a < b ? a : b, slack);
      const hi = plus(a < b ? b : a, slack);
      return v >= lo && v <= hi;
    };
  });
}
