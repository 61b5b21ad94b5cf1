// `lab explore --memory lkmm` in words, as the command prints it (called in this process): counts
// in the singular where there is one, an outcome's line ends where its words do, and a refusal's
// advice is one the thing refused can take (a catalogue id takes no #pragma).

import { describe, expect, it } from 'vitest';
import { AxiomaticRefusal } from '../axiomatic/check.ts';
import { openProgram, scenarioNamed } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { refusalWords } from './commands/explore.ts';
import { lab } from './lab.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const status = await lab(argv, {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
  });
  return { status, out, err: err.trim() };
}

describe('lab explore under lkmm, in words', () => {
  it('global-atomic: one outcome in the singular, and no line ends in an empty colon', async () => {
    const r = await run('explore', 'global-atomic', '--memory', 'lkmm');
    expect(r.status, r.err).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^global-atomic under lkmm: 6 consistent executions of .*, 1 outcome, in \d+ ms$/,
    );
    expect(lines.slice(1)).toEqual(['', 'nr=4 exact=4  (ok)', '    6 executions']);
    expect(r.out).not.toMatch(/: *$/m);
  });

  it('percpu-sum-fuzzy refused: the advice is a parameter its id takes, not a #pragma', async () => {
    const r = await run('explore', 'percpu-sum-fuzzy', '--memory', 'lkmm');
    expect(r.status).toBe(2);
    expect(r.err).toBe(
      "lab: percpu-sum-fuzzy: the kernel's memory model (lkmm) cannot answer this program: more than 250,000 execution graphs: too many to explore; try a smaller program: --set adds=1. Try --memory sc or --memory tso.",
    );
  }, 120_000);

  it('a loop past its bound: a program is told the pragma, a catalogue id how to get its text', () => {
    const refusal = new AxiomaticRefusal(
      'every execution goes round a loop more than 2 times, the bound',
      'loop-bound',
    );
    const entry = scenarioNamed('percpu-classic');
    expect(refusalWords(entry, resolveParams(entry, { memory: 'lkmm' }), refusal)).toBe(
      'every execution goes round a loop more than 2 times, the bound; a catalogue entry takes no #pragma: `lab export percpu-classic > percpu-classic.c` writes its text, where #pragma lab loop_bound raises the bound, then `lab explore percpu-classic.c --memory lkmm`',
    );
    const opened = openProgram('int x;\nP0() { WRITE_ONCE(x, 1); }\n');
    if (!opened.ok) throw new Error('the program does not compile');
    const program = opened.scenario;
    expect(refusalWords(program, resolveParams(program, {}), refusal)).toBe(
      'every execution goes round a loop more than 2 times, the bound: raise it with #pragma lab loop_bound',
    );
  });
});
