// The live workers' layout: every scenario built with `padded` puts each cell and per-CPU element
// on its own 64-byte line, and every witness replays on it, through the Atomics and 64-bit paths
// the workers take, to the same observables as on the compact model.

import { describe, expect, it } from 'vitest';
import { apply } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import { parseSchedule } from '../machine/schedule.ts';
import { catalogue } from './index.ts';
import { jsonObservables, observe } from './outcome.ts';
import { resolveParams } from './params.ts';

const cases = catalogue.flatMap((sc) =>
  sc.witnesses.map((w) => ({ sc, w, name: `${sc.id} / ${w.name}` })),
);

describe('padded layout', () => {
  it.each(cases)('$name ends the same padded and compact', ({ sc, w }) => {
    const p = resolveParams(sc, w.params);
    const compact = sc.build(p).machine;
    const padded = sc.build(p, { padded: true }).machine;
    for (const cell of padded.layout.cells) {
      const start = cell.perCpu ? cell.base : cell.addr;
      expect(start % 16, `${cell.name} starts a line`).toBe(0);
      if (cell.perCpu) expect(cell.stride).toBe(16);
    }
    const run = (m: typeof compact, wide: boolean) => {
      const s = initialState(m);
      const view = wide ? new BigInt64Array(s.buffer, 0, Math.floor(s.length / 2)) : null;
      for (const ev of parseSchedule(w.schedule)) apply(m, s, ev, null, view);
      return jsonObservables(observe(sc, m, s, p));
    };
    expect(run(padded, true)).toEqual(run(compact, false));
  });
});
