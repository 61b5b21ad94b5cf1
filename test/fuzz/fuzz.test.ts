// The language's promise under fuzzing (src/explore/fuzz.ts): three thousand mutants of the catalogue's
// programs and of herd7 litmus files, with a fixed seed, each get a program or positioned
// errors, never an escaped exception or a compiled size past the bound. `npm run fuzz` runs more.

import { describe, expect, it } from 'vitest';
import { fuzzSeeds } from './seeds.ts';
import { classify, fuzz, generator, inputAt, mutant } from '../../src/explore/fuzz.ts';

describe('fuzzing the language', () => {
  it('every input gets a program or a positioned error, within the bound', () => {
    const seeds = fuzzSeeds();
    expect(seeds.length).toBeGreaterThanOrEqual(20);
    const figures = fuzz(seeds, 3000, 33);
    expect(figures.broken).toEqual([]);
    expect(figures.counts.other + figures.counts.over).toBe(0);
    // Mutants are neither all broken nor all untouched: both verdicts are common.
    expect(figures.counts.program).toBeGreaterThan(150);
    expect(figures.counts.error).toBeGreaterThan(750);
    // About 10 s on a quiet two-core machine, near a minute beside an end-to-end run: the
    // timeout only stops a hang.
  }, 180_000);

  it('is repeatable: the same seed gives the same inputs', () => {
    const a = generator(5);
    const b = generator(5);
    const seed = 'int x;\nP0() { x = 1; }\n';
    expect(mutant(seed, a)).toBe(mutant(seed, b));
    // One input of a run is made again without classifying those before it.
    const seeds = fuzzSeeds();
    const seen: string[] = [];
    fuzz(seeds, 4, 7, (text, _c, index) => (seen[index] = text));
    expect(seen).toHaveLength(4);
    expect(inputAt(seeds, 7, 3)).toBe(seen[3]);
    expect(inputAt(seeds, 7, 0)).toBe(seen[0]);
  });

  it('tells an escape and a cost past the bound from an error', () => {
    // The shapes fuzzing found, fixed: each is a program or an error now.
    expect(classify('#define X X\nP0() { }\n').verdict).toBe('error');
    expect(
      classify('int x;\nP0() { long i; for (i = 0; i < 1000000; i++) { } x = 1; }\n').verdict,
    ).toBe('program');
    expect(classify('int x;\0\nP0() { }\n').verdict).toBe('error');
  });
});
