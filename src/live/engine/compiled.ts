// The compiled engine: this CPU's contexts compiled to WebAssembly (wasm/codegen.ts) and run
// on the shared memory itself. What a burst leaves to JavaScript, it finishes here with the
// model's own functions, so the state after a burst is the interpreter's to the word.
//
// In the exact tier a burst's budget is steps; in the bare tier it is operations (restarts in
// place), the steps are not counted (`steps` stays 0), and an adder ends its burst early when
// the run's stop word is set.

import {
  cpuBase,
  ctxBase,
  CPU_IRQ_ON,
  CPU_PENDING,
  contextName,
  CTX_PC,
  type Machine,
} from '../../machine/machine.ts';
import { deliverIrq, finish, MachineFault, step } from '../../machine/interpreter.ts';
import { isLocal, Op } from '../../machine/isa.ts';
import { compileCpu, COUNTERS, Exit, Flag } from '../wasm/codegen.ts';
import { C_STOP } from '../memory.ts';
import { instantiate, WASM_PAGE, type WasmMemory } from '../wasm/runtime.ts';
import { Burst, type Counters, type Engine, type Tier, zeroCounters } from './engine.ts';

type Burster = (budget: number, flags: number) => number;
interface ExportedGlobal {
  value: number;
}

export interface CompiledMemory {
  /** The shared WebAssembly memory the state lives in. */
  readonly wasm: WasmMemory;
  /** The state vector over it, and where it starts in bytes. */
  readonly state: Int32Array;
  readonly stateByte: number;
  /** The 64-bit view of the state (for the interpreter's fault diagnosis). */
  readonly wide: BigInt64Array | null;
}

/** Byte address of the run's stop word in a live memory (the control line's C_STOP). */
const STOP_BYTE = 4 * C_STOP;

export function compiledEngine(
  m: Machine,
  mem: CompiledMemory,
  k: number,
  tier: Tier = 'exact',
  /** Where to add up what the bursts did (two tiers of one CPU share one set). */
  counters: Counters = zeroCounters(),
): Engine {
  const bytes = compileCpu({
    machine: m,
    cpu: k,
    stateByte: mem.stateByte,
    memoryPages: mem.wasm.buffer.byteLength / WASM_PAGE,
    tier,
    stopByte: STOP_BYTE,
  });
  const bare = tier === 'bare';
  const exports = instantiate(bytes, mem.wasm);
  const bursts = m.code.map((_, c) => exports[`c${c}`] as Burster);
  const globals = COUNTERS.map((name) => exports[name] as ExportedGlobal);
  const s = mem.state;
  const b = cpuBase(m, k);
  const seen = new Int32Array(COUNTERS.length);

  /** The instruction at pc broke a rule: the interpreter says which, in its own words. */
  const fault = (c: number): never => {
    const pc = s[ctxBase(m, c) + CTX_PC] as number;
    const ins = m.code[c]?.[pc];
    if (ins && (ins.op === Op.Div || ins.op === Op.Mod)) throw new MachineFault('division by zero');
    if (ins && isLocal(ins.op)) throw new MachineFault('a local loop never reaches a visible step');
    step(m, s, k, null, mem.wide);
    throw new MachineFault(`${contextName(m, c)} faulted at instruction ${pc}`);
  };

  /** What counter i gained since the last burst: the globals are i32 and wrap within seconds. */
  const delta = (i: number) => {
    const v = (globals[i] as ExportedGlobal).value;
    const d = (v - (seen[i] as number)) | 0;
    seen[i] = v;
    return d;
  };

  const engine = {
    kind: 'compiled' as const,
    tier,
    steps: 0,
    counters,
    run(c: number, budget: number, repeat: boolean): number {
      const flags = (repeat ? Flag.Repeat : 0) | (s[b + CPU_PENDING] !== 0 ? Flag.Pending : 0);
      const r = (bursts[c] as Burster)(budget, flags);
      if (!bare) engine.steps = budget - (r >> 3);
      counters.folds += delta(0);
      counters.bumps += delta(1);
      counters.spins += delta(2);
      counters.repeats += delta(3);
      counters.retried += delta(4);
      counters.maxRetries = Math.max(counters.maxRetries, (globals[5] as ExportedGlobal).value);
      switch (r & 7) {
        case Exit.Budget:
          return Burst.Budget;
        case Exit.Ended:
          // As `step` ends it: the task finishes (or the handler returns), then an IRQ that
          // interrupts re-enabled in this step is taken.
          finish(m, s, k, c);
          if (s[b + CPU_PENDING] !== 0 && s[b + CPU_IRQ_ON] !== 0) deliverIrq(m, s, k);
          return Burst.Stopped;
        case Exit.Deliver:
          deliverIrq(m, s, k);
          return Burst.Stopped;
        default:
          return fault(c);
      }
    },
  };
  return engine;
}
