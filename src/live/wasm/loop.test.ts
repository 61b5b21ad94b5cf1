// The bare tier's whole loop against the per-instruction compiled code of the exact tier: every
// program Live and Scaling run (each live scenario and variant, padded and packed, on one CPU),
// restarted in place for the same number of operations, in one burst and across bursts and
// chunks, must leave the same state word for word (memory, the tally, registers, preempt_count)
// and the same counts (folds, sequence bumps, restarts). One CPU: races need two, and
// test/live/wholeLoop.test.ts races the loop on two threads.

import { describe, expect, it } from 'vitest';
import { compiledEngine } from '../engine/compiled.ts';
import { Burst, type Engine } from '../engine/engine.ts';
import { liveCases, sharedState } from '../engine/testLive.ts';
import { BARE_CHUNK } from './codegen.ts';

/** Every live program on one CPU (the scenario's own count when it fixes one): each variant. */
const cases = liveCases([1]);

/** The per-instruction code: one step a call, until `ops` more operations restarted in place. */
function stepOps(engine: Engine, c: number, ops: number): void {
  const target = engine.counters.repeats + ops;
  for (let i = 0; engine.counters.repeats < target; i++) {
    if (i > 200 * ops + 1000) throw new Error('the operations did not end');
    engine.run(c, 1, true);
  }
}

/** Runs `ops` operations in whole-loop bursts (a burst may return early, at a spin's patience). */
function loopOps(engine: Engine, c: number, ops: number): void {
  const target = engine.counters.repeats + ops;
  for (let i = 0; engine.counters.repeats < target; i++) {
    if (i > 1000) throw new Error('the operations did not end');
    expect(engine.run(c, target - engine.counters.repeats, true)).toBe(Burst.Budget);
  }
}

function toTheEnd(engine: Engine, c: number): void {
  for (let i = 0; i < 100_000; i++) if (engine.run(c, 1, false) === Burst.Stopped) return;
  throw new Error('the operation did not end');
}

describe('the whole loop against the per-instruction code', () => {
  // Bursts of one operation, of less than a chunk, of a chunk and one more, of several chunks,
  // and several bursts in a row; each series then runs one operation more to its end, where both
  // codes stand at the same instruction (a restart leaves the exact tier past the leading local
  // instructions, the bare tier before them).
  const series = [[1], [BARE_CHUNK - 1], [BARE_CHUNK + 1], [5 * BARE_CHUNK + 7], [300, 1, 700]];
  it.each(cases)('$name: the same state after the same operations', ({ machine: m }) => {
    const task = 0;
    for (const bursts of series) {
      const a = sharedState(m);
      const b = sharedState(m);
      const loop = compiledEngine(m, a, 0, 'bare');
      const steps = compiledEngine(m, b, 0, 'exact');
      for (const ops of bursts) {
        loopOps(loop, task, ops);
        stepOps(steps, task, ops);
      }
      const done = bursts.reduce((x, y) => x + y, 0);
      expect(loop.counters.repeats).toBe(done);
      expect(steps.counters.repeats).toBe(done);
      // The last operation, not restarted: the task ends as the model ends it.
      toTheEnd(loop, task);
      toTheEnd(steps, task);
      expect(Array.from(a.state)).toEqual(Array.from(b.state));
      expect(loop.counters.folds).toBe(steps.counters.folds);
      expect(loop.counters.bumps).toBe(steps.counters.bumps);
    }
  });
});
