// Every catalogue entry is a program: the text it exports ("Edit a copy", `lab export`) compiled
// as a typed program explores to the entry's own answer, and so does that text printed back from
// its syntax tree. A copy a reader edits starts where the entry is, bounds included. The entry's
// own answer is its record in golden.json, which golden.test.ts holds the entry's exploration to.

import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.ts';
import { exploreJson } from '../../src/explore/json.ts';
import { parse } from '../../src/lang/parser.ts';
import { printProgram } from '../../src/lang/printer.ts';
import { catalogue } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';
import { programScenario } from '../../src/scenarios/program.ts';
import type { Params, Scenario } from '../../src/scenarios/types.ts';
import { recorded } from './golden.ts';

/** Outcomes (observables and what they break) and always-violations, in a fixed order. */
function compared(j: {
  readonly complete: boolean;
  readonly outcomes: readonly {
    readonly observables: Record<string, unknown>;
    readonly violations: readonly { readonly id: string }[];
  }[];
  readonly always: readonly { readonly id: string }[];
}): unknown {
  return {
    complete: j.complete,
    outcomes: j.outcomes.map((o) => ({
      observables: o.observables,
      violations: o.violations.map((v) => v.id),
    })),
    always: j.always.map((a) => a.id),
  };
}

function answer(sc: Scenario, p: Params): unknown {
  return compared(exploreJson(explore(sc, p, { ...sc.bounds, switches: Infinity })));
}

/** The typed program of `text`, or the compiler's first message. */
function asProgram(text: string): Scenario {
  const r = programScenario(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors[0]));
  return r.scenario;
}

const cases = catalogue.flatMap((sc) => {
  const variant = sc.params.find((q) => q.name === 'variant');
  const names = variant?.kind === 'choice' ? variant.choices : [undefined];
  return names.map((v) => ({ id: sc.id, sc, variant: v ?? '*' }));
});

describe('the catalogue as text', () => {
  it.each(cases)('$id ($variant): its text explores to the same answer', ({ sc, variant }) => {
    const p = resolveParams(sc, variant === '*' ? {} : { variant });
    const text = sc.text?.(p);
    if (text === undefined) throw new Error(`${sc.id} has no text`);
    const copy = asProgram(text);
    const q = resolveParams(copy, {});
    expect(copy.bounds).toEqual(sc.bounds);
    const expected = compared(recorded(sc, p));
    expect(answer(copy, q)).toEqual(expected);
    // Printed from its syntax tree (what the editor's formatter writes), it is the same program.
    const tree = parse(text);
    if (!tree.ok) throw new Error('the text does not parse');
    const printed = asProgram(printProgram(tree.program));
    expect(answer(printed, resolveParams(printed, {}))).toEqual(expected);
  });
});
