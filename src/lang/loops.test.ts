// A loop that takes no step gets the loop bound, as docs/language.md promises, even when it
// counts to a constant: a million turns of local arithmetic are one step that never ends, and
// the explorer used to stop on them with "the machine stopped" and no line.

import { describe, expect, it } from 'vitest';
import { explore } from '../explore/explore.ts';
import { programOutcomes } from '../explore/testkit.ts';
import { resolveParams } from '../scenarios/params.ts';
import { programScenario } from '../scenarios/program.ts';

/** Explores a program (memory model as given) and returns whether it completed and why not. */
function run(text: string, memory = 'sc') {
  const r = programScenario(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const sc = r.scenario;
  const res = explore(sc, resolveParams(sc, { memory }), { ...sc.bounds, switches: Infinity });
  return {
    stopped: res.stopped,
    reasons: res.outcomes.flatMap((o) => o.violations.map((v) => `${v.id}: ${v.reason}`)),
  };
}

describe('a loop that takes no step', () => {
  it('stops at the loop bound when it counts to a million', () => {
    const text = 'int x;\nP0() { long i;\n  for (i = 0; i < 1000000; i++) { }\n  x = 1; }\n';
    expect(run(text)).toEqual({
      stopped: 'loop-bound',
      reasons: [
        'loop-bound: P0 stopped at the bound of the loop on line 3: raise #pragma lab loop_bound to see further',
      ],
    });
  });

  it('stops at the loop bound when its only statement is a barrier with no step (sc)', () => {
    const text = 'int x;\nP0() {\n  for (;;) { smp_mb(); } }\n';
    expect(run(text).stopped).toBe('loop-bound');
  });

  it('still counts exactly when it ends within the bound', () => {
    const text =
      'int x;\nP0() { long i; long r = 0;\n  for (i = 0; i < 5; i++) r = r + i;\n  x = r; }\nobserve x = x;\n';
    expect(programOutcomes(text)).toEqual(new Set(['x=10']));
  });
});
