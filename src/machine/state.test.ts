import { describe, expect, it } from 'vitest';
import { apply, enabledEvents } from './events.ts';
import { initialState } from './interpreter.ts';
import { copyState, hashHex, hashKey, hashState, restoreState, statesEqual } from './state.ts';
import { abs } from './builder.ts';
import { kit } from './testkit.ts';

const k = kit(2, (L) => {
  const x = L.cell('x', 'x', 's32');
  const body = (b: import('./builder.ts').ProgramBuilder) => {
    const r = b.reg('r');
    b.repeat(3, () => void b.load(r, abs(x)).add(r, r, 1).store(abs(x), r, { tally: 1 }));
  };
  return { tasks: [body, body] };
});

describe('state copy, equality and hash', () => {
  it('a copy is independent and equal; restore brings a state back', () => {
    const s = initialState(k.m);
    const c = copyState(s);
    expect(statesEqual(s, c)).toBe(true);
    apply(k.m, s, 0);
    expect(statesEqual(s, c)).toBe(false);
    restoreState(s, c);
    expect(statesEqual(s, c)).toBe(true);
  });

  it('equal states hash equal, and every distinct reachable state gets its own hash', () => {
    // Walk every reachable state of the machine (a few hundred) and check the hash separates them.
    const seen = new Map<string, Int32Array>();
    const stack = [initialState(k.m)];
    const out: number[] = [];
    while (stack.length > 0) {
      const s = stack.pop() as Int32Array;
      const h = hashHex(s);
      const prev = seen.get(h);
      if (prev) {
        expect(statesEqual(prev, s)).toBe(true);
        continue;
      }
      seen.set(h, s);
      const n = enabledEvents(k.m, s, out);
      for (let i = 0; i < n; i++) {
        const t = copyState(s);
        apply(k.m, t, out[i] as number);
        stack.push(t);
      }
    }
    expect(seen.size).toBeGreaterThan(50);
    const keys = new Set([...seen.values()].map(hashKey));
    expect(keys.size).toBe(seen.size);
  });

  it('changing any single word changes the 64-bit hash', () => {
    const s = initialState(k.m);
    const base = new Int32Array(2);
    hashState(s, base);
    const h = new Int32Array(2);
    for (let i = 0; i < s.length; i++) {
      const t = copyState(s);
      t[i] = (t[i] as number) ^ 1;
      hashState(t, h);
      expect(h[0] !== base[0] || h[1] !== base[1]).toBe(true);
    }
  });
});
