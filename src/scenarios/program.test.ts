// A typed program as a scenario: its #defines become its parameters, and any text gets a
// scenario or positioned errors, never an exception (the fuzzing of the language found both).

import { describe, expect, it } from 'vitest';
import { initialState } from '../machine/interpreter.ts';
import { resolveParams } from './params.ts';
import { programScenario } from './program.ts';
import type { Params, Scenario } from './types.ts';

function scenarioOf(text: string): Scenario {
  const r = programScenario(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.scenario;
}

/** The observables of a scenario's initial state, by name, as text. */
function initially(sc: Scenario, p: Params): Record<string, string> {
  const { machine } = sc.build(p);
  const s = initialState(machine);
  return Object.fromEntries(sc.observables(p).map((o) => [o.name, String(o.read(machine, s, p))]));
}

/** The errors of a text that must not compile, as `start-end: message`. */
function errorsOf(text: string): string[] {
  const r = programScenario(text);
  if (r.ok) throw new Error('expected errors');
  return r.errors.map((e) => `${e.span.start}-${e.span.end}: ${e.message}`);
}

describe('a program as a scenario', () => {
  it('a #define cycle is a positioned error, not a crash', () => {
    expect(errorsOf('#define X X\nP0() { }\n')).toEqual([
      '10-11: `X` is defined in terms of itself.',
    ]);
    expect(errorsOf('#define A B\n#define B A\nP0() { }\n')).toEqual([
      '22-23: `A` is defined in terms of itself.',
    ]);
  });

  it('an unused #define that is not a constant is a positioned error, not a crash', () => {
    expect(errorsOf('int y;\n#define X y\nP0() { }\n')).toEqual(['17-18: `y` is not a constant.']);
  });
});

describe('a program’s numbers', () => {
  it('a #define beyond 64 bits is a positioned error, not a crash', () => {
    const huge = `1${'0'.repeat(309)}`;
    expect(errorsOf(`#define H ${huge}\nint x;\nP0() { x = 1; }\n`)).toEqual([
      `10-320: \`${huge}\` exceeds 64 bits.`,
    ]);
    expect(errorsOf('int x;\nP0() { x = 0x10000000000000000; }\n')).toEqual([
      '18-37: `0x10000000000000000` exceeds 64 bits.',
    ]);
    // A #define's value is read on its own; its errors still point into the program.
    expect(errorsOf('#define X 3$\nP0() { }\n')).toEqual([
      '11-12: the character `$` cannot start anything here.',
    ]);
  });

  it('a number of 64 bits is a number', () => {
    expect(programScenario('int x;\nP0() { x = 0xffffffffffffffff; }\n').ok).toBe(true);
    expect(programScenario('int x;\nP0() { x = 18446744073709551615UL; }\n').ok).toBe(true);
  });
});

describe('a program’s #defines as parameters', () => {
  const text = `#define BIG 9223372036854775807
#define ODD 9007199254740993
#define N 3
long x = BIG;
long y = ODD;
long z = N;
P0() { WRITE_ONCE(x, READ_ONCE(x) - 1); }
observe x = x;
observe y = y;
observe z = z;
`;

  it('a #define beyond ±2^53 keeps its exact value: a constant of the text, not a parameter', () => {
    const sc = scenarioOf(text);
    expect(sc.params.map((q) => q.name)).toEqual(['N', 'memory']);
    expect(initially(sc, resolveParams(sc))).toEqual({
      x: '9223372036854775807',
      y: '9007199254740993',
      z: '3',
    });
  });

  it('a #define within ±2^53 is a parameter a user may set', () => {
    const sc = scenarioOf(text);
    expect(initially(sc, resolveParams(sc, { N: '-9007199254740991' }))).toMatchObject({
      z: '-9007199254740991',
    });
  });
});
