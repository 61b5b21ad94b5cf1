// The live workers' layout: every scenario built with `padded` puts each variable and per-CPU
// element on its own 64-byte line (a struct's fields together on theirs, as C lays them out),
// and every witness replays on it, through the Atomics and 64-bit paths
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
    const lineOf = new Map<string, number>(); // a struct's line, from its first field
    const lines = new Set<number>();
    for (const cell of padded.layout.cells) {
      const start = cell.perCpu ? cell.base : cell.addr;
      const struct = cell.name.includes('.') ? cell.name.slice(0, cell.name.indexOf('.')) : null;
      const line = Math.floor(start / 16);
      if (!cell.perCpu && struct !== null && lineOf.get(struct) === line) continue; // a field beside
      expect(start % 16, `${cell.name} starts a line`).toBe(0);
      expect(lines.has(line), `${cell.name} has its line to itself`).toBe(false);
      lines.add(line);
      if (!cell.perCpu && struct !== null) lineOf.set(struct, line);
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
