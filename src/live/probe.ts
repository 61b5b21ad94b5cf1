// The visibility probe: does a compiled plain load really read shared memory each time, or could
// the JavaScript engine keep the value in a register across the iterations of a loop (legal for
// non-atomic accesses)? Every race this lab shows depends on the answer, so the tests run it in
// Node and in Chromium, and `lab bench` and the Scaling view report it.
//
// A ping-pong over two words: CPU0 stores 1, 2, …, N into `x` with plain stores, and after each
// store waits (a plain load in a loop) until CPU1 echoes the value into `ack`; CPU1 waits (a plain
// load in a loop) for each new value of `x` and echoes it. Every value must be seen, one by one:
// a load kept in a register would never see the next one, and the probe would not finish.

import { ctxBase, compile, CTX_DONE, type Machine } from '../machine/machine.ts';
import { abs, Label, ProgramBuilder } from '../machine/builder.ts';
import { Cond } from '../machine/isa.ts';
import { LayoutBuilder } from '../machine/layout.ts';
import { readResults } from '../machine/read.ts';
import { C_EXITED, C_GO, C_READY, type LiveMemory } from './memory.ts';
import type { Engine, EngineKind, Tier } from './engine/engine.ts';

/** The scenario id a CPU job names to run the probe (not in the catalogue). */
export const PROBE_ID = 'probe:visibility';

/** The probe's machine: CPU0 writes `writes` values, CPU1 echoes each. Padded, as live runs are. */
export function probeMachine(writes: number): Machine {
  const L = new LayoutBuilder(2, true);
  const x = L.cell('x', 'x', 's32');
  const ack = L.cell('ack', 'ack', 's32');
  const seenSlot = L.result('seen', 'values seen');

  const writer = new ProgramBuilder('writer');
  const i = writer.reg('i');
  const echo = writer.reg('echo');
  const next = new Label();
  const wait = new Label();
  writer.mov(i, 0).bind(next).add(i, i, 1).store(abs(x), i);
  writer.bind(wait).load(echo, abs(ack)).branch(Cond.Ne, echo, i, wait);
  writer.branch(Cond.Lt, i, writes, next);

  const reader = new ProgramBuilder('reader');
  const v = reader.reg('v');
  const last = reader.reg('last');
  const seen = reader.reg('seen');
  const look = new Label();
  reader.mov(last, 0).mov(seen, 0);
  reader.bind(look).load(v, abs(x)).branch(Cond.Eq, v, last, look);
  reader.add(seen, seen, 1).mov(last, v).store(abs(ack), v);
  reader.branch(Cond.Lt, v, writes, look);
  reader.record(seenSlot, seen);

  return compile({
    cpus: 2,
    wordBits: 64,
    layout: L.build(),
    tasks: [
      { name: 'writer', cpu: 0, program: writer.build() },
      { name: 'reader', cpu: 1, program: reader.build() },
    ],
  });
}

/**
 * One probe CPU: waits at the start barrier, then runs its task to the end in bursts (no events,
 * no repeats), and returns. A reader that never sees the last write never returns: the caller
 * gives up after a timeout.
 */
export function runProbeCpu(mem: LiveMemory, m: Machine, k: number, engine: Engine): void {
  const w = mem.words;
  try {
    Atomics.add(w, C_READY, 1);
    Atomics.notify(w, C_READY);
    while (Atomics.load(w, C_GO) === 0) Atomics.wait(w, C_GO, 0, 50);
    const done = ctxBase(m, k) + CTX_DONE;
    while (mem.state[done] === 0) engine.run(k, 1 << 20, false);
  } finally {
    Atomics.add(w, C_EXITED, 1);
    Atomics.notify(w, C_EXITED);
  }
}

/** The last value CPU1 echoed: how far the ping-pong has gone (it only grows). */
export function probeProgress(m: Machine, state: Int32Array): number {
  const ack = m.layout.cells.find((c) => c.name === 'ack');
  return ack && !ack.perCpu ? Atomics.load(state, ack.addr) : 0;
}

export interface ProbeResult {
  /** Values CPU0 stored. */
  readonly writes: number;
  /** Values CPU1 saw and echoed (all of them, one by one), or null if it did not finish. */
  readonly seen: number | null;
  /**
   * Where an unfinished probe was: the value the echo stood still at (`stalled`, for the stall
   * window: a load kept in a register stops the ping-pong for good), or how far a ping-pong still
   * moving had got when the probe's whole time ran out (`slow`: the machine was too busy).
   */
  readonly unfinished?: {
    readonly why: 'stalled' | 'slow';
    readonly at: number;
    readonly ms: number;
  };
  readonly engine: EngineKind;
  /** The tier its loads ran in (wasm/codegen.ts); absent in reports from before tiers. */
  readonly tier?: Tier;
}

/** What the reader recorded, once both CPUs ended (null: it did not finish). */
export function probeSeen(m: Machine, state: Int32Array): number | null {
  const got = readResults(m, state, 'seen');
  return got.length > 0 ? Number(got[0]) : null;
}

/** The probe's result in words. */
export function probeText(r: ProbeResult): string {
  const n = r.writes.toLocaleString('en-US');
  if (r.seen === null) {
    const u = r.unfinished;
    const at = (u?.at ?? 0).toLocaleString('en-US');
    const s = ((u?.ms ?? 0) / 1000).toFixed(0);
    if (u?.why === 'slow')
      return `Visibility check not finished: CPU0 and CPU1 passed ${at} of ${n} values back and forth with plain loads and stores in ${s} s and were still going: the machine is too busy to finish it, which says nothing about the loads. Try again on a quieter machine.`;
    return `Visibility check failed: CPU0 and CPU1 stopped passing values back and forth at ${at} of ${n} (nothing moved for ${s} s): a plain load kept its value in a register, so races could not show.`;
  }
  const how = r.tier === undefined ? r.engine : `${r.engine} (${r.tier} tier)`;
  return `Visibility check: with ${how} plain loads and stores, CPU1 saw ${r.seen.toLocaleString('en-US')} of the ${n} values CPU0 stored, each as it was written, and echoed it back: loads read shared memory every time.`;
}
