import { describe, expect, it } from 'vitest';
import { probeMachine, probeProgress, probeText } from './probe.ts';
import { initialState } from '../machine/interpreter.ts';

describe('the visibility probe', () => {
  it('reads how far the ping-pong has gone from the echo word', () => {
    const m = probeMachine(10);
    const s = initialState(m);
    expect(probeProgress(m, s)).toBe(0);
    const ack = m.layout.cells.find((c) => c.name === 'ack');
    if (!ack || ack.perCpu) throw new Error('no ack cell');
    s[ack.addr] = 7;
    expect(probeProgress(m, s)).toBe(7);
  });

  it('tells a load kept in a register from a machine too busy to finish', () => {
    const base = { writes: 100_000, seen: null, engine: 'compiled', tier: 'bare' } as const;
    expect(probeText({ ...base, unfinished: { why: 'stalled', at: 4_321, ms: 10_000 } })).toBe(
      'Visibility check failed: CPU0 and CPU1 stopped passing values back and forth at 4,321 of 100,000 (nothing moved for 10 s): a plain load kept its value in a register, so races could not show.',
    );
    expect(probeText({ ...base, unfinished: { why: 'slow', at: 60_000, ms: 300_000 } })).toBe(
      'Visibility check not finished: CPU0 and CPU1 passed 60,000 of 100,000 values back and forth with plain loads and stores in 300 s and were still going: the machine is too busy to finish it, which says nothing about the loads. Try again on a quieter machine.',
    );
    expect(probeText({ ...base, seen: 100_000 })).toMatch(
      /^Visibility check: .* CPU1 saw 100,000 of the 100,000 values/,
    );
  });
});
