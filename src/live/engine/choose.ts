// Which engine a live CPU runs: compiled unless asked otherwise or the memory cannot take it
// (a bare SharedArrayBuffer, where WebAssembly cannot import it).

import type { Machine } from '../../machine/machine.ts';
import type { LiveMemory } from '../memory.ts';
import { compiledEngine } from './compiled.ts';
import type { Engine, EngineKind } from './engine.ts';
import { interpretedEngine } from './interpreted.ts';

export function chooseEngine(mem: LiveMemory, m: Machine, k: number, kind: EngineKind): Engine {
  if (kind === 'compiled' && mem.wasm) {
    const { wasm, state, stateByte, wide } = mem;
    return compiledEngine(m, { wasm, state, stateByte, wide }, k);
  }
  return interpretedEngine(m, mem.state, k, mem.wide);
}
