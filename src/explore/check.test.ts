// Checking a program under a memory model, as `lab check` does through src/explore/check.ts:
// which engine answers each model, when the explorer's end states are recounted as executions,
// and what has no answer.

import { describe, expect, it } from 'vitest';
import { programScenario } from '../scenarios/program.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';
import { type Checked, checkProgram } from './check.ts';

function scenarioOf(text: string): Scenario {
  const r = programScenario(text);
  if (!r.ok) throw new Error(r.errors[0]?.message);
  return r.scenario;
}

function check(text: string, memory: string): Checked {
  const sc = scenarioOf(text);
  const r = checkProgram(sc, resolveParams(sc, { memory }));
  if (!r.ok) throw new Error(r.why);
  return r;
}

const SB = `C SB
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }
exists (0:r0=0 /\\ 1:r0=0)
`;

/** A reader inside an RCU read-side section, and an updater that waits for a grace period. */
const RCU = `C rcu-gp
{}
P0(int *x, int *y) { WRITE_ONCE(*y, 1); synchronize_rcu(); WRITE_ONCE(*x, 1); }
P1(int *x, int *y)
{
	int r0;
	int r1;
	rcu_read_lock();
	r0 = READ_ONCE(*x);
	r1 = READ_ONCE(*y);
	rcu_read_unlock();
}
exists (1:r0=1 /\\ 1:r1=0)
`;

describe('checking a program under a memory model', () => {
  it('answers lkmm with the axiomatic engine: executions, with Time and Hash lines', () => {
    const { answer, complete, stopped } = check(SB, 'lkmm');
    expect([answer.model, answer.counts, answer.observation]).toEqual([
      'lkmm',
      'executions',
      'Sometimes',
    ]);
    expect([answer.positive, answer.negative]).toEqual([1, 3]);
    expect([complete, stopped]).toEqual([true, null]);
    expect(answer.text).toMatch(/^Time SB \d+\.\d\d$/m);
    expect(answer.text).toMatch(/^Hash=[0-9a-f]{32}$/m);
  });

  it('answers sc and tso with the explorer, recounting its end states as executions', () => {
    const sc = check(SB, 'sc').answer;
    expect([sc.model, sc.counts, sc.observation, sc.positive, sc.negative]).toEqual([
      'sc',
      'executions',
      'Never',
      0,
      3,
    ]);
    expect(sc.text).toMatch(/^Model sc$/m);
    const tso = check(SB, 'tso').answer;
    expect([tso.model, tso.counts, tso.observation, tso.positive, tso.negative]).toEqual([
      'tso',
      'executions',
      'Sometimes',
      1,
      3,
    ]);
  });

  it('counts outcomes, each once, under sc where the program has RCU (the machine runs its grace periods)', () => {
    const { answer } = check(RCU, 'sc');
    expect([answer.counts, answer.observation]).toEqual(['states', 'Never']);
    expect(answer.positive + answer.negative).toBe(answer.states.length);
    expect(answer.text).toMatch(
      /^Model sc \(Positive and Negative count outcomes, each once, not executions\)$/m,
    );
    expect(check(RCU, 'lkmm').answer.counts).toBe('executions');
  });

  it('says Loop under sc where the recount left out runs past the loop bound, as under lkmm', () => {
    const spin = `C spin
{}
P0(int *x) { int r0; r0 = READ_ONCE(*x); while (r0 == 0) r0 = READ_ONCE(*x); }
P1(int *x) { WRITE_ONCE(*x, 1); }
exists (0:r0=1)
`;
    for (const memory of ['sc', 'lkmm']) {
      const { answer } = check(spin, memory);
      expect([answer.counts, answer.loop, answer.positive, answer.negative]).toEqual([
        'executions',
        true,
        3,
        0,
      ]);
      expect(answer.text).toMatch(/^Loop Ok$/m);
    }
  });

  it('says why a program has no answer: no condition, or the engine refuses it', () => {
    // The lab's own program without a condition has none to answer…
    const sc = scenarioOf('int x;\nP0() { WRITE_ONCE(x, 1); }\n');
    expect(checkProgram(sc, resolveParams(sc, { memory: 'lkmm' }))).toEqual({
      ok: false,
      why: 'no-condition',
    });
    // …while a herd7 file without one asks herd7's default, forall (true).
    const bare = scenarioOf(SB.replace(/exists.*\n/, ''));
    const answered = checkProgram(bare, resolveParams(bare, { memory: 'lkmm' }));
    expect(answered.ok && answered.answer.condition).toBe('forall (true)');
    // Sixteen reads of x, each 0 or 1: more ways to run than the engine enumerates.
    const many = scenarioOf(
      `C many\nint x;\nP0() { int r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15; r0 = READ_ONCE(x); r1 = READ_ONCE(x); r2 = READ_ONCE(x); r3 = READ_ONCE(x); r4 = READ_ONCE(x); r5 = READ_ONCE(x); r6 = READ_ONCE(x); r7 = READ_ONCE(x); r8 = READ_ONCE(x); r9 = READ_ONCE(x); r10 = READ_ONCE(x); r11 = READ_ONCE(x); r12 = READ_ONCE(x); r13 = READ_ONCE(x); r14 = READ_ONCE(x); r15 = READ_ONCE(x); }\nP1() { WRITE_ONCE(x, 1); }\nexists (x=1)\n`,
    );
    expect(checkProgram(many, resolveParams(many, { memory: 'lkmm' }))).toEqual({
      ok: false,
      why: 'refused',
      reason: expect.stringMatching(/more than 20000 ways to run/) as unknown,
    });
  });
});
