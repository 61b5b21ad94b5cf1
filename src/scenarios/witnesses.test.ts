// Every witness of every scenario replays to exactly its expected observables, and breaks exactly
// the invariants it claims to break.

import { describe, expect, it } from 'vitest';
import { isTerminal } from '../machine/events.ts';
import { replay } from '../machine/replay.ts';
import { parseSchedule } from '../machine/schedule.ts';
import { catalogue } from './index.ts';
import { alwaysViolations, finalViolations, jsonObservables, observe } from './outcome.ts';
import { resolveParams } from './params.ts';

const cases = catalogue.flatMap((sc) =>
  sc.witnesses.map((w) => ({ sc, w, name: `${sc.id} / ${w.name}` })),
);

describe('witnesses', () => {
  it.each(cases)('replay($name) ends with its expected observables', ({ sc, w }) => {
    const p = resolveParams(sc, w.params);
    const { machine } = sc.build(p);
    const { states, steps } = replay(machine, parseSchedule(w.schedule));
    // Every step is narrated in full: no template placeholder is left unfilled (a CPU set such
    // as cpu_online_mask's {0,2} is a value, not a placeholder).
    for (const st of steps) expect(st.text.replace(/\{[\d,]*\}/g, '')).not.toMatch(/[{}]/);
    const last = states[states.length - 1] as Int32Array;
    expect(isTerminal(machine, last)).toBe(true);
    const o = observe(sc, machine, last, p);
    expect(jsonObservables(o)).toMatchObject(jsonObservables(w.expect));
    // Always-invariants broken anywhere along the way, then final ones.
    const broken = new Set<string>();
    for (const s of states) for (const v of alwaysViolations(sc, machine, s, p)) broken.add(v.id);
    for (const v of finalViolations(sc, o, p, machine, last)) broken.add(v.id);
    expect([...broken].sort()).toEqual([...w.violates].sort());
  });

  it('every scenario has at least one witness, and witness names are unique', () => {
    for (const sc of catalogue) {
      expect(sc.witnesses.length).toBeGreaterThan(0);
      expect(new Set(sc.witnesses.map((w) => w.name)).size).toBe(sc.witnesses.length);
    }
  });
});
