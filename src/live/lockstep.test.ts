import { describe, expect, it } from 'vitest';
import { initialState } from '../machine/interpreter.ts';
import { CPU_PREEMPT, cpuBase, CTX_PC, ctxBase } from '../machine/machine.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { firstDifference } from './lockstep.ts';

describe('lockstep comparison', () => {
  const sc = findScenario('percpu-classic');
  if (!sc) throw new Error('missing');
  const m = sc.build(resolveParams(sc, {}), { padded: true }).machine;
  const model = initialState(m);

  it('finds no difference between equal states', () => {
    expect(firstDifference(m, model, model.slice())).toBeNull();
  });

  it('names the first differing word: a cell, a CPU field, a context field', () => {
    const count = m.layout.cells.find((c) => c.name === 'fbc.count');
    if (!count || count.perCpu) throw new Error('no count');
    const hw = model.slice();
    hw[count.addr + 1] = 7;
    expect(firstDifference(m, model, hw)).toBe('fbc->count (hi): the model has 0, the workers 7');
    const cpu = model.slice();
    cpu[cpuBase(m, 1) + CPU_PREEMPT] = 1;
    expect(firstDifference(m, model, cpu)).toMatch(/^CPU1 preempt_count/);
    const ctx = model.slice();
    ctx[ctxBase(m, 1) + CTX_PC] = 99;
    expect(firstDifference(m, model, ctx)).toMatch(/^P1 pc: the model has \d+, the workers 99/);
  });
});
