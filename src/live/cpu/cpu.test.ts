// One live CPU on this thread: the loop's bookkeeping, deterministic where one CPU makes it so.
// (Races between CPUs are tested on real threads in test/live.)

import { describe, expect, it } from 'vitest';
import { ProgramBuilder, abs } from '../../machine/builder.ts';
import { isTerminal } from '../../machine/events.ts';
import { initialState } from '../../machine/interpreter.ts';
import { LayoutBuilder } from '../../machine/layout.ts';
import { compile, CTX_TALLY, ctxBase } from '../../machine/machine.ts';
import { findScenario } from '../../scenarios/index.ts';
import { readCell } from '../../machine/read.ts';
import { runCpu } from './cpu.ts';
import { exited, faultedCpu, requestStop } from '../control.ts';
import { allocateLive, C_GO, C_QUIESCED, C_READY, C_STOP, Stat } from '../memory.ts';
import { liveParams } from '../liveParams.ts';

const clock = { now: () => 0 };

describe('a live CPU', () => {
  it('with the stop flag already up, finishes the operation in progress and comes to rest', () => {
    const sc = findScenario('global-atomic');
    if (!sc) throw new Error('missing');
    const p = liveParams('global-atomic', 1);
    const m = sc.build(p, { padded: true }).machine;
    const mem = allocateLive(m, initialState(m));
    // Here is the only CPU: no start barrier to wait at.
    mem.words[C_GO] = 1;
    requestStop(mem);
    runCpu(mem, m, 0, clock);
    expect(mem.words[C_READY]).toBe(1);
    expect(exited(mem)).toBe(1);
    expect(isTerminal(m, mem.state)).toBe(true);
    // One add, counted in memory, in the tally and in the statistics.
    expect(readCell(m, mem.state, 'nr_files')).toBe(1);
    expect(mem.state[ctxBase(m, 0) + CTX_TALLY]).toBe(1);
    expect(mem.stats[mem.statLine(0) + Stat.Adds]).toBe(1);
  });

  it('that faults marks the run failed and stops the others', () => {
    const L = new LayoutBuilder(1, true);
    const lock = L.cell('lock', 'lock', 'lock');
    const b = new ProgramBuilder('T0', { wordBits: 64 });
    b.spinUnlock(abs(lock)); // releases a lock it does not hold: a scenario bug
    const m = compile({
      cpus: 1,
      wordBits: 64,
      layout: L.build(),
      tasks: [{ name: 'T0', cpu: 0, program: b.build() }],
    });
    const mem = allocateLive(m, initialState(m));
    mem.words[C_GO] = 1;
    expect(() => {
      runCpu(mem, m, 0, clock);
    }).toThrow(/does not hold/);
    // As the page sees it: CPU0 failed, the run is stopping, and CPU0 has stopped.
    expect(faultedCpu(mem)).toBe(0);
    expect(mem.words[C_STOP]).toBe(1);
    expect(exited(mem)).toBe(1);
    // It will start no migration: the other CPUs need not wait for it to stop.
    expect(mem.words[C_QUIESCED]).toBe(1);
  });
});
