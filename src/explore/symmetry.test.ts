// The canonical form must be the same for every renaming of a state (else symmetric states would
// not merge, or worse, different classes would), and must itself be a renaming of the state.

import { describe, expect, it } from 'vitest';
import { apply, enabledEvents } from '../machine/events.ts';
import { initialState } from '../machine/interpreter.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { findSymmetry, type Symmetry } from './symmetry.ts';

const configs: [string, Record<string, string>][] = [
  ['global-plain', { cpus: '4', iterations: '2' }],
  ['global-spinlock', { cpus: '3' }],
  ['global-atomic', { cpus: '4' }],
  ['percpu-classic', { cpus: '3', summer: '-1', adds: '3' }],
];

describe('symmetry', () => {
  it.each(configs)('%s %j: one canonical form per class of renamed states', (id, set) => {
    const sc = findScenario(id);
    if (!sc) throw new Error(id);
    const { machine: m } = sc.build(resolveParams(sc, set));
    const start = initialState(m);
    const sym = findSymmetry(m, 0, start) as Symmetry;
    expect(typeof sym).toBe('object');
    // Random walks: each state and every renaming of it must canonicalise alike.
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      return (((seed >>> 8) % n) + n) % n;
    };
    const s = start.slice();
    const evs: number[] = [];
    const tmp = new Int32Array(m.size);
    const image = new Int32Array(m.size);
    let checked = 0;
    for (let i = 0; i < 400; i++) {
      const n = enabledEvents(m, s, evs);
      if (n === 0) s.set(start);
      else apply(m, s, evs[rand(n)] as number);
      const last = rand(m.cpus);
      const c = s.slice();
      const { g, last: cl } = sym.canonical(c, last, tmp);
      // It is a renaming of s...
      sym.image(g, s, image);
      expect(Array.from(image)).toEqual(Array.from(c));
      expect(cl).toBe(sym.cpu(g, last));
      // ... and every renaming of s gives the same form.
      for (let h = 0; h < sym.perms.length; h++) {
        const r = new Int32Array(m.size);
        sym.image(h, s, r);
        const got = sym.canonical(r, sym.cpu(h, last), tmp);
        expect(Array.from(r)).toEqual(Array.from(c));
        expect(got.last).toBe(cl);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(400);
  });
});
