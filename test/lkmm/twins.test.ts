// Litmus twins of catalogue entries: the core of each (its per-CPU slots written as separate
// variables, herd7 having no per-CPU data) as a herd7 C litmus file, with herd7 7.58's answer
// under the kernel's memory model beside it (`.expected`, made with `herd7 -conf
// linux-kernel.cfg`). The lab must answer each byte for byte as herd7 did (the Time line aside),
// so what it says of the catalogue under lkmm rests on the model as herd7 runs it.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/cli/commands/check.ts';

const dir = import.meta.dirname;
const twins = readdirSync(dir).filter((f) => f.endsWith('.litmus'));

/** herd7's text without its Time line, and the lab's without its Time and Model lines. */
const herdText = (t: string) =>
  t
    .split('\n')
    .filter((l) => !l.startsWith('Time ') && !l.startsWith('Model '))
    .join('\n')
    .trim();

describe('litmus twins of catalogue entries, answered as herd7 answers them', () => {
  it('has the twins', () => {
    expect(twins.sort()).toEqual([
      'global-atomic.litmus',
      'global-plain.litmus',
      'percpu-classic-sum.litmus',
      'percpu-rwsem-marked.litmus',
      'percpu-rwsem-plain.litmus',
    ]);
  });

  it.each(twins)('%s', (f) => {
    const { answer } = checkFile(join(dir, f), {});
    expect(answer.model).toBe('lkmm');
    expect(herdText(answer.text)).toBe(herdText(readFileSync(join(dir, `${f}.expected`), 'utf8')));
  });
});
