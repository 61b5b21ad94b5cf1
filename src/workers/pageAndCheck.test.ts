// The page and `lab check` answer one file alike: under sc the page's Explore panel (the explore
// worker's API, run in Node as the worker runs it) and under lkmm its axiomatic answer (the
// axiomatic worker's session) print herd7's answer with the same states and counts as
// `lab check`'s checkProgram (src/explore/check.ts), for a herd7 litmus file and for a program in
// the lab's own form. Only the Time and Hash lines, which the page leaves out, differ.

import { describe, expect, it } from 'vitest';
import { createAxiomaticApi } from '../axiomatic/pageSession.ts';
import { checkProgram } from '../explore/check.ts';
import type { HerdAnswer } from '../lang/herdAnswer.ts';
import { defaultMemory } from '../lang/litmusText.ts';
import { openProgram } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import litmus from '../../test/fuzz/litmus/C-MP+o-wmb-o+o-o.litmus?raw';
import { exploreApi } from './exploreApi.ts';

/** Store buffering in the lab's own form, with a parameter. */
const TYPED = `C typed-sb
#define V 1
int x;
int y;
P0() { int r0; WRITE_ONCE(x, V); r0 = READ_ONCE(y); }
P1() { int r0; WRITE_ONCE(y, V); r0 = READ_ONCE(x); }
exists (0:r0=0 /\\ 1:r0=0)
`;

/** herd7's answer without the lines only `lab check` prints. */
function counted(a: HerdAnswer | null | undefined) {
  if (!a) throw new Error('no answer');
  const lines = a.text.split('\n').filter((l) => !/^(Time |Hash=)/.test(l));
  return { ...a, text: lines.join('\n') };
}

/** `lab check --memory <memory>` on a file with this text (src/cli/commands/check.ts). */
function labCheck(text: string, memory: string): HerdAnswer {
  const opened = openProgram(text);
  if (!opened.ok) throw new Error('does not compile');
  const sc = opened.scenario;
  const r = checkProgram(sc, resolveParams(sc, { memory }));
  if (!r.ok) throw new Error(r.why);
  return r.answer;
}

/** The page's answer under sc, as the Explore panel asks for it (the program's own bounds). */
async function pageUnderSc(text: string): Promise<HerdAnswer | null> {
  const opened = openProgram(text);
  if (!opened.ok) throw new Error('does not compile');
  const r = await exploreApi.run({
    scenario: 'program',
    program: text,
    params: { memory: 'sc' },
    bounds: { ...opened.scenario.bounds, switches: null },
    maxStates: null,
  });
  return r.herd;
}

/** The page's answer under lkmm: the axiomatic worker's. */
function pageUnderLkmm(text: string): HerdAnswer | null {
  const a = createAxiomaticApi().answer({
    scenario: 'program',
    program: text,
    params: { memory: 'lkmm' },
  });
  if (!a.ok) throw new Error(a.refusal);
  return a.herd;
}

describe('the page and lab check print the same answer for one file', () => {
  it.each([
    ['a herd7 litmus file', litmus],
    ['a program in the lab’s own form', TYPED],
  ])('%s, under sc and under lkmm', async (_what, text) => {
    const sc = labCheck(text, 'sc');
    expect(counted(await pageUnderSc(text))).toEqual(counted(sc));
    // Executions, as herd7 counts them, on both: the page once counted end states under sc.
    expect(sc.counts).toBe('executions');
    const lkmm = labCheck(text, 'lkmm');
    expect(counted(pageUnderLkmm(text))).toEqual(counted(lkmm));
    expect(lkmm.counts).toBe('executions');
  });

  it('opens each under the model lab check gives it by default', () => {
    expect([defaultMemory(litmus), defaultMemory(TYPED)]).toEqual(['lkmm', 'sc']);
  });
});
