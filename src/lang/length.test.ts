// A program's length costs the compiler in proportion. Each term of a sum needs a scratch
// register, and naming the n-th one used to cost n steps of n characters: 800 terms took 26 s,
// 3,000 terms (12 kB, well within the 65,536 characters the lab takes) would have taken minutes.
// Longer sums nest deeper than a test worker's stack and get the positioned "nests too deeply".

import { describe, expect, it } from 'vitest';
import { randomRun } from '../machine/randomRun.ts';
import { cellValue, globalNamed } from '../machine/read.ts';
import { compileProgram } from './compile.ts';
import type { CompiledProgram } from './compiled.ts';
import { MAX_SOURCE_CHARS } from './lexer.ts';

/** A thread that sums `terms` reads of `x` (which starts at 1) and writes the sum back. */
function longSum(terms: number, term = 'x', op = '+'): string {
  const sum = Array.from({ length: terms }, () => term).join(` ${op} `);
  return `long x = 1;\nP0() { long r; r = ${sum}; WRITE_ONCE(x, r); }\nobserve x = x;\n`;
}

function compiled(text: string): CompiledProgram {
  const r = compileProgram(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

/** `x` after the one thread has run to its end (with one thread, every schedule is this one). */
function finalX(text: string): bigint | number {
  const { machine } = compiled(text);
  const run = randomRun(machine, () => 0, { irqs: 0, nmis: 0, preemptions: 0, migrations: 0 });
  expect(run.terminal).toBe(true);
  return cellValue(run.state, globalNamed(machine, 'x'));
}

function registersOf(text: string): number {
  return compiled(text).machine.programs.reduce((n, p) => n + p.regNames.length, 0);
}

describe('a long expression', () => {
  it('of 3,000 terms compiles and sums every term', () => {
    const text = longSum(3_000);
    expect(text.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS);
    expect(BigInt(finalX(text))).toBe(3000n);
  });

  it('of `|` or of READ_ONCE terms compiles too', () => {
    expect(BigInt(finalX(longSum(1_500, 'x', '|')))).toBe(1n);
    expect(BigInt(finalX(longSum(1_500, 'READ_ONCE(x)')))).toBe(1500n);
  });

  it('names its scratch registers in a few characters each', () => {
    // Was one prime per repeat: the 300th scratch register was `%t` and 300 primes.
    const names = compiled(longSum(300)).machine.programs.flatMap((p) => p.regNames);
    expect(names).toContain("%t'''");
    expect(names).toContain("%t'299");
    expect(Math.max(...names.map((n) => n.length))).toBeLessThanOrEqual("%t'299".length);
    expect(new Set(names).size).toBe(names.length);
  });

  it('needs registers in proportion to its terms', () => {
    const [a, b, c] = [500, 1_000, 1_500].map((n) => registersOf(longSum(n)));
    expect((c as number) - (b as number)).toBe((b as number) - (a as number));
  });

  it('too deep to compile is reported at its statement, with what to do', () => {
    // 12,000 terms nest past any test worker's stack; the sum is on line 2, after `r = `.
    const text = longSum(12_000, '1');
    expect(text.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS);
    const r = compileProgram(text);
    if (r.ok) return; // a stack deep enough to compile it is no failure
    const [error] = r.errors;
    expect(error?.message).toMatch(/nests too deeply/);
    expect(error?.span.start).toBe(text.indexOf('r = 1'));
    expect(error?.hint).toMatch(/several statements/);
  });
});
