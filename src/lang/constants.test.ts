// Constant expressions (#define values, initialisers, bounds) are folded when the program is
// compiled, with the machine's arithmetic: 64-bit two's complement (docs/language.md).

import { describe, expect, it } from 'vitest';
import { compileProgram } from './compile.ts';

/** The value of `#define` `name` in a program of `defines` and one thread. */
function constantOf(defines: string, name: string): bigint | null {
  const r = compileProgram(`${defines}\nlong x;\nP0() { x++; }\n`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program.module.constantName(name, { start: 0, end: 0 });
}

describe('constant folding', () => {
  it('wraps to 64-bit two’s complement, as the machine’s arithmetic does', () => {
    expect(constantOf('#define W (0x7fffffffffffffff + 1)', 'W')).toBe(-(2n ** 63n));
    expect(constantOf('#define W ((0x7fffffffffffffff + 1) < 0)', 'W')).toBe(1n);
    expect(constantOf('#define W (-(-0x7fffffffffffffff - 1))', 'W')).toBe(-(2n ** 63n));
    expect(constantOf('#define W (4294967296 * 4294967296 + 5)', 'W')).toBe(5n);
    expect(constantOf('#define W (1 << 63)', 'W')).toBe(-(2n ** 63n));
  });

  it('of a doubling chain of #defines stays a 64-bit number, however long the chain', () => {
    const chain = ['#define A0 2'];
    for (let i = 1; i <= 40; i++) chain.push(`#define A${i} (A${i - 1} * A${i - 1})`);
    // 2^(2^40) keeps no bit of the low 64: the machine's product is 0.
    expect(constantOf(chain.join('\n'), 'A40')).toBe(0n);
    expect(constantOf(chain.join('\n'), 'A6')).toBe(0n);
    expect(constantOf(chain.join('\n'), 'A5')).toBe(2n ** 32n);
  });
});
