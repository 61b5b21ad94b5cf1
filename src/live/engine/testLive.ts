// What the engines' differential tests share (bare.test.ts, wasm/loop.test.ts): every program
// Live and Scaling run, as machines to compare, and a state in shared WebAssembly memory to run
// them in. For tests only; it is here so that both compare the same programs.

import { initialState } from '../../machine/interpreter.ts';
import type { Machine } from '../../machine/machine.ts';
import { catalogue } from '../../scenarios/index.ts';
import type { Scenario } from '../../scenarios/types.ts';
import { liveMachine } from '../job.ts';
import { liveParams } from '../liveParams.ts';
import { SLOT_LAYOUTS } from '../memory.ts';
import { liveSpecOf } from '../specs.ts';
import { bufferOf, sharedWasmMemory } from '../wasm/runtime.ts';

export interface LiveCase {
  readonly name: string;
  readonly machine: Machine;
}

/**
 * Every live instance of the catalogue: each scenario's variants, each slot layout, and the CPU
 * counts `counts` gives (a scenario that fixes its count gets its own).
 */
export function liveCases(counts: readonly number[]): LiveCase[] {
  return catalogue.flatMap((sc: Scenario) => {
    const spec = liveSpecOf(sc.id);
    if (!spec) return [];
    const variants = sc.params.find((p) => p.name === 'variant');
    const choices = variants?.kind === 'choice' ? variants.choices : [undefined];
    const cpuCounts = spec.fixedCpus === null ? counts : [spec.fixedCpus];
    return choices.flatMap((v) =>
      cpuCounts.flatMap((cpus) =>
        SLOT_LAYOUTS.map((layout) => ({
          name: `${sc.id}${v === undefined ? '' : ` (${v})`}, ${String(cpus)} CPUs, ${layout}`,
          machine: liveMachine(
            sc.id,
            liveParams(sc.id, cpus, v === undefined ? {} : { variant: v }),
            layout,
          ),
        })),
      ),
    );
  });
}

/** A machine's initial state in shared WebAssembly memory, after a control line of 128 bytes. */
export function sharedState(m: Machine) {
  const stateByte = 128;
  const wasm = sharedWasmMemory(stateByte + m.size * 4 + 64);
  if (!wasm) throw new Error('no shared WebAssembly memory');
  const buffer = bufferOf(wasm);
  const state = new Int32Array(buffer, stateByte, m.size);
  state.set(initialState(m));
  const wide = new BigInt64Array(buffer, stateByte, Math.floor(m.size / 2));
  return { wasm, state, stateByte, wide, words: new Int32Array(buffer, 0, 32) };
}
