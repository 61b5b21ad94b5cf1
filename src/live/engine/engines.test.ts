// The compiled CPUs are the interpreter, proven step by step: every program of the catalogue
// (every scenario and variant, as Explore and Live build them, compact and padded) runs compiled
// and interpreted from the same states through the same random events, and the whole state is
// compared after every event. Bursts of many steps, restarts in place and faults are compared too.

import { compile, type Machine } from '../../machine/machine.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abs, ProgramBuilder } from '../../machine/builder.ts';
import { apply, Ev, eventCpu, eventType, isTerminal } from '../../machine/events.ts';
import { initialState, MachineFault, topContext } from '../../machine/interpreter.ts';
import { LayoutBuilder } from '../../machine/layout.ts';
import { allowedEvents, budgetSlot } from '../../machine/budget.ts';
import { catalogue } from '../../scenarios/index.ts';
import { resolveParams } from '../../scenarios/params.ts';
import type { Params, Scenario } from '../../scenarios/types.ts';
import { liveParams } from '../liveParams.ts';
import { liveSpecOf } from '../specs.ts';
import { validWasm, sharedWasmMemory, bufferOf } from '../wasm/runtime.ts';
import { compileCpu } from '../wasm/codegen.ts';
import { compiledEngine } from './compiled.ts';
import { Burst, type Engine } from './engine.ts';
import { busyPick } from './busyPick.ts';
import { interpretedEngine } from './interpreted.ts';

/** Every instance a live CPU or a test may compile: defaults, variants, live loops, witnesses. */
function instances(sc: Scenario): { name: string; params: Params }[] {
  const variants = sc.params.find((p) => p.name === 'variant');
  const choices = variants?.kind === 'choice' ? variants.choices : [undefined];
  const out: { name: string; params: Params }[] = [];
  for (const v of choices) {
    const set: Params = v === undefined ? {} : { variant: v };
    const label = v === undefined ? sc.id : `${sc.id} (${v})`;
    out.push({ name: label, params: resolveParams(sc, set) });
    if (liveSpecOf(sc.id)) {
      for (const cpus of [1, 2, 3])
        out.push({ name: `${label} live ${cpus} CPUs`, params: liveParams(sc.id, cpus, set) });
    }
  }
  for (const w of sc.witnesses)
    out.push({ name: `${sc.id} witness ${w.name}`, params: resolveParams(sc, w.params) });
  return out;
}

const cases = catalogue.flatMap((sc) =>
  instances(sc).flatMap(({ name, params }) =>
    [false, true].map((padded) => ({
      name: `${name}${padded ? ', padded' : ''}`,
      // Compiled CPUs are real cores: a free run's machine is sc (store buffers are the
      // model's, stepped by the interpreter in Explore and lockstep replays).
      machine: sc.build(params, { padded, memory: 'sc' }).machine,
    })),
  ),
);

/** A state in shared WebAssembly memory, at a line offset as in a live run. */
function sharedState(m: Machine, from: Int32Array) {
  const stateByte = 128;
  const wasm = sharedWasmMemory(stateByte + m.size * 4 + 64);
  if (!wasm) throw new Error('no shared WebAssembly memory');
  const buffer = bufferOf(wasm);
  const state = new Int32Array(buffer, stateByte, m.size);
  state.set(from);
  const wide = new BigInt64Array(buffer, stateByte, Math.floor(m.size / 2));
  return { wasm, state, stateByte, wide };
}

/**
 * Fails with vitest's diff of the two states when they differ. The states are compared after
 * every event of every run: a deep equality each time was most of this file's time.
 */
function expectSameState(actual: Int32Array, expected: Int32Array) {
  if (actual.length === expected.length && actual.every((v, i) => v === expected[i])) return;
  expect(Array.from(actual)).toEqual(Array.from(expected));
}

/** Bounds on interventions so that random runs end. */
const LIMITS = [3, 2, 3, 3];

describe('compiled CPUs against the interpreter', () => {
  it('emit valid WebAssembly for every program', () => {
    for (const { machine } of cases) {
      for (let k = 0; k < machine.cpus; k++) {
        expect(validWasm(compileCpu({ machine, cpu: k, stateByte: 128, memoryPages: 1 }))).toBe(
          true,
        );
      }
    }
  });

  it.each(cases)('$name: same state after every event', ({ machine: m }) => {
    // One engine per CPU for every run, as a live CPU keeps its engine over a whole run: each
    // run starts again from the initial state. (Compiling them again for every run was two
    // thirds of this file's time.)
    const mem = sharedState(m, initialState(m));
    const engines = Array.from({ length: m.cpus }, (_, k) => compiledEngine(m, mem, k));
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 400 }), (choices) => {
        const model = initialState(m);
        mem.state.set(model);
        const used = [0, 0, 0, 0];
        const legal: number[] = [];
        for (let i = 0; i < 3000 && !isTerminal(m, model); i++) {
          allowedEvents(m, model, LIMITS, used, legal);
          if (legal.length === 0) break;
          const ev = legal[(choices[i] ?? i) % legal.length] as number;
          const slot = budgetSlot(ev);
          if (slot >= 0) used[slot] = (used[slot] as number) + 1;
          if (eventType(ev) === Ev.Step) {
            const k = eventCpu(ev);
            const c = topContext(m, model, k);
            const engine = engines[k] as Engine;
            engine.run(c, 1, false);
            // A local-atomic instruction's two halves are one burst of two steps.
            apply(m, model, ev);
            if (engine.steps === 2) apply(m, model, ev);
            expect(engine.steps).toBeGreaterThanOrEqual(1);
          } else apply(m, mem.state, ev);
          if (eventType(ev) !== Ev.Step) apply(m, model, ev);
          expectSameState(mem.state, model);
        }
      }),
      { seed: 10, numRuns: 25 },
    );
  });

  // Budgets up to 300 reach deep into the repeats; budgets of a few steps end bursts inside and
  // at the edges of basic blocks, where the compiled code leaves a block's fast path for the
  // checked one.
  it.each([
    ...cases
      .filter((c) => c.name.includes('live') && c.name.endsWith('padded'))
      .map((c) => ({ ...c, most: 300, runs: 20 })),
    ...cases.map((c) => ({ ...c, name: `${c.name}, short bursts`, most: 12, runs: 6 })),
  ])(
    '$name: bursts and restarts in place as the interpreter makes them',
    ({ machine: m, most, runs }) => {
      // One engine of each kind per CPU for every run, each run from the initial state.
      const a = sharedState(m, initialState(m));
      const b = sharedState(m, initialState(m));
      const compiled = Array.from({ length: m.cpus }, (_, k) => compiledEngine(m, a, k));
      const interpreted = Array.from({ length: m.cpus }, (_, k) =>
        interpretedEngine(m, b.state, k, b.wide),
      );
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: most }), fc.boolean()), {
            maxLength: 60,
          }),
          (bursts) => {
            a.state.set(initialState(m));
            b.state.set(a.state);
            for (const [pick, budget, repeat] of bursts) {
              const next = busyPick(m, a.state, pick);
              if (!next) break;
              const { k, c } = next;
              // The loop allows restarts only for a task alone on its CPU.
              const again = repeat && next.alone;
              const x = (compiled[k] as Engine).run(c, budget, again);
              const y = (interpreted[k] as Engine).run(c, budget, again);
              expect(x).toBe(y);
              expect((compiled[k] as Engine).steps).toBe((interpreted[k] as Engine).steps);
              expect((compiled[k] as Engine).counters).toEqual((interpreted[k] as Engine).counters);
              expectSameState(a.state, b.state);
              if (x === Burst.Budget)
                expect((compiled[k] as Engine).steps).toBeGreaterThanOrEqual(budget);
            }
          },
        ),
        { seed: 11, numRuns: runs },
      );
    },
  );

  it('a fault is reported in the interpreter’s words, with nothing of the step done', () => {
    const L = new LayoutBuilder(1, true);
    const lock = L.cell('lock', 'lock', 'lock');
    const p = new ProgramBuilder('T0', { wordBits: 64 });
    p.spinUnlock(abs(lock));
    const m = compile({
      cpus: 1,
      wordBits: 64,
      layout: L.build(),
      tasks: [{ name: 'T0', cpu: 0, program: p.build() }],
    });
    const mem = sharedState(m, initialState(m));
    const before = Array.from(mem.state);
    expect(() => compiledEngine(m, mem, 0).run(0, 10, false)).toThrow(MachineFault);
    expect(() => compiledEngine(m, mem, 0).run(0, 10, false)).toThrow(/does not hold/);
    expect(Array.from(mem.state)).toEqual(before);
  });
});
