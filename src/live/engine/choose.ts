// Which engine a live CPU runs: compiled unless asked otherwise or the memory cannot take it
// (a bare SharedArrayBuffer, where WebAssembly cannot import it); and, compiled, in which tiers:
// the exact one always (any event may land at any instruction), the bare one too when the run
// asks for it (no event can fall due: the CPU loop runs it while nothing is asked or scheduled).

import type { Machine } from '../../machine/machine.ts';
import type { LiveMemory } from '../memory.ts';
import { compiledEngine } from './compiled.ts';
import { type Engine, type EngineKind, type Tier, zeroCounters } from './engine.ts';
import { interpretedEngine } from './interpreted.ts';

/** One engine: the bare tier where asked and possible, else the exact one. */
export function chooseEngine(
  mem: LiveMemory,
  m: Machine,
  k: number,
  kind: EngineKind,
  tier: Tier = 'exact',
): Engine {
  const { exact, bare } = chooseEngines(mem, m, k, kind, tier);
  return bare ?? exact;
}

/** A CPU's engines: the exact tier, and the bare one when `tier` asks for it (compiled only). */
export function chooseEngines(
  mem: LiveMemory,
  m: Machine,
  k: number,
  kind: EngineKind,
  tier: Tier,
): { exact: Engine; bare: Engine | null } {
  if (kind === 'compiled' && mem.wasm) {
    const { wasm, state, stateByte, wide } = mem;
    const on = { wasm, state, stateByte, wide };
    const counters = zeroCounters();
    return {
      exact: compiledEngine(m, on, k, 'exact', counters),
      bare: tier === 'bare' ? compiledEngine(m, on, k, 'bare', counters) : null,
    };
  }
  return { exact: interpretedEngine(m, mem.state, k, mem.wide), bare: null };
}
