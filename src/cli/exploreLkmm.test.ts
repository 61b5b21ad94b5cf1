// `lab explore --memory lkmm` in words, as the command prints it (called in this process): counts
// in the singular where there is one, and an outcome's line ends where its words do.

import { describe, expect, it } from 'vitest';
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
});
