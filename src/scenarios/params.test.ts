import { describe, expect, it } from 'vitest';
import { findScenario } from './index.ts';
import { ParamError, paramRange, paramsText, resolveParams, splitAssignment } from './params.ts';
import type { ParamSpec, Scenario } from './types.ts';

const lazy = findScenario('lazy-nr-files') as Scenario;

describe('parameters', () => {
  it('defaults, then preset, then overrides', () => {
    expect(resolveParams(lazy)).toEqual({
      cpus: 2,
      iterations: 2,
      initial: 0,
      threshold: 1,
      memory: 'sc',
    });
    expect(resolveParams(lazy, { cpus: '4', memory: 'tso' }, 'kernel')).toEqual({
      cpus: 4,
      iterations: 2,
      initial: 0,
      threshold: 16,
      memory: 'tso',
    });
  });

  it.each([
    [{ cpus: 'abc' }, "cpus must be an integer from 1 to 64, got 'abc'"],
    [{ cpus: '65' }, 'cpus must be from 1 to 64, got 65'],
    [{ cpus: '1.5' }, "cpus must be an integer from 1 to 64, got '1.5'"],
    [{ memory: 'arm' }, "memory must be one of sc, tso, lkmm; got 'arm'"],
    [
      { bogus: '1' },
      "lazy-nr-files has no parameter 'bogus'; its parameters: cpus, iterations, initial, threshold, memory",
    ],
  ])('rejects %j with a message naming it', (overrides, message) => {
    expect(() => resolveParams(lazy, overrides)).toThrow(new ParamError(message));
  });

  it('rejects an unknown preset, listing the known ones', () => {
    expect(() => resolveParams(lazy, {}, 'huge')).toThrow(
      "lazy-nr-files has no preset 'huge'; presets: kernel",
    );
  });

  it('splits name=value and refuses anything else', () => {
    expect(splitAssignment('slots=10,31,-5,0')).toEqual(['slots', '10,31,-5,0']);
    expect(() => splitAssignment('cpus')).toThrow("--set takes name=value, got 'cpus'");
  });

  it('writes parameters as the text links and --set carry: all of them, or what a link must keep', () => {
    const p = resolveParams(lazy, { cpus: '3', threshold: '16' });
    expect(paramsText(p)).toMatchObject({ cpus: '3', threshold: '16' });
    // Against the scenario, only what differs from its defaults, and it reads back the same.
    const text = paramsText(p, lazy);
    expect(text).toEqual({ cpus: '3', threshold: '16' });
    expect(resolveParams(lazy, text)).toEqual(p);
  });
});

describe('a parameter range in words', () => {
  it('groups thousands, and calls bounds past 32 bits "any"', () => {
    const sc = findScenario('percpu-classic') as Scenario;
    const spec = (name: string) => sc.params.find((p) => p.name === name);
    expect(paramRange(spec('batch') as ParamSpec)).toBe('1 to 1,000,000,000');
    expect(paramRange(spec('count') as ParamSpec)).toBe('any whole number');
    expect(
      paramRange({ kind: 'choice', name: 'v', description: '', default: 'a', choices: ['a', 'b'] }),
    ).toBe('one of a, b');
  });
});
