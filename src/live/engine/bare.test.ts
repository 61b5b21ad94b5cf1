// The bare tier against the interpreter, one operation at a time: every program Live and Scaling
// run (every scenario and variant, padded and packed, 1 to 3 CPUs) does whole operations in bare
// bursts (runs of restarts in place, then one that ends) and in the interpreter's steps, CPU after
// CPU in random order, and the whole state must be the same word for word after each operation:
// memory, registers, preempt_count, the tally the bare tier kept in a register until the end.
// (Races need real threads: test/live/live.test.ts compares the tiers' verdicts there.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveMachine } from '../job.ts';
import { liveParams } from '../liveParams.ts';
import { C_STOP } from '../memory.ts';
import { BARE_CHUNK } from '../wasm/codegen.ts';
import { compiledEngine } from './compiled.ts';
import { Burst, type Engine } from './engine.ts';
import { busyPick } from './busyPick.ts';
import { interpretedEngine } from './interpreted.ts';
import { liveCases, sharedState } from './testLive.ts';

const cases = liveCases([1, 2, 3]);

/** Runs context c with `engine` until its program ends (bare bursts may stop at a loop's edge). */
function toTheEnd(engine: Engine, c: number): void {
  for (let i = 0; i < 1000; i++) if (engine.run(c, 1 << 20, false) === Burst.Stopped) return;
  throw new Error('the operation did not end');
}

describe('the bare tier against the interpreter', () => {
  it.each(cases)('$name: the same state after every operation', ({ machine: m }) => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 40 })), { maxLength: 30 }),
        (ops) => {
          const a = sharedState(m);
          const b = sharedState(m);
          const bare = Array.from({ length: m.cpus }, (_, k) => compiledEngine(m, a, k, 'bare'));
          const model = Array.from({ length: m.cpus }, (_, k) =>
            interpretedEngine(m, b.state, k, b.wide),
          );
          for (const [pick, n] of ops) {
            const next = busyPick(m, a.state, pick);
            if (!next) break;
            const { k, c, alone } = next;
            const x = bare[k] as Engine;
            const y = model[k] as Engine;
            if (alone && n > 0) {
              // n operations restarted in place, counted by the bare tier's loop counter...
              const before = x.counters.repeats;
              expect(x.run(c, n, true)).toBe(Burst.Budget);
              expect(x.counters.repeats - before).toBe(n);
              const target = y.counters.repeats + n;
              while (y.counters.repeats < target) y.run(c, 1, true);
            }
            // ...then one that ends.
            toTheEnd(x, c);
            toTheEnd(y, c);
            expect(Array.from(a.state)).toEqual(Array.from(b.state));
            expect(x.counters.folds).toBe(y.counters.folds);
            expect(x.counters.bumps).toBe(y.counters.bumps);
          }
        },
      ),
      { seed: 34, numRuns: 8 },
    );
  });

  it('an adder sees the stop word at the end of its chunk: the chunk ends, then it ends', () => {
    const m = liveMachine('global-atomic', liveParams('global-atomic', 1, {}));
    const mem = sharedState(m);
    const engine = compiledEngine(m, mem, 0, 'bare');
    expect(engine.run(0, 1000, true)).toBe(Burst.Budget);
    expect(engine.counters.repeats).toBe(1000);
    Atomics.store(mem.words, C_STOP, 1);
    // A budget of a billion operations: only the stop word can end this burst early. The whole
    // loop reads it once a chunk (BARE_CHUNK operations), at the chunk's last restart.
    expect(engine.run(0, 1_000_000_000, true)).toBe(Burst.Stopped);
    expect(engine.counters.repeats).toBe(1000 + BARE_CHUNK - 1);
    // nr_files: 1000, then a chunk of which all but the last restarted in place.
    expect(mem.state[0]).toBe(1000 + BARE_CHUNK);
  });
});
