import { describe, expect, it } from 'vitest';
import { invert } from './builder.ts';
import { Cond } from './isa.ts';

describe('invert(cond)', () => {
  it('pairs every condition with its opposite, both ways', () => {
    expect(invert(Cond.Lt)).toBe(Cond.Ge);
    expect(invert(Cond.Gt)).toBe(Cond.Le);
    expect(invert(Cond.AbsLt)).toBe(Cond.AbsGe);
    for (const c of Object.values(Cond)) {
      expect(invert(c)).not.toBe(c);
      expect(invert(invert(c))).toBe(c);
    }
  });

  it('refuses a condition it does not know', () => {
    expect(() => invert(99)).toThrow('unknown condition 99');
  });
});
