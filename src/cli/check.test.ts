// `lab check` as the command prints it (checkCommand, called in this process): for a herd7 file
// under lkmm, the lines herd7 prints for the same file (herdtools7's C-MP+o-wmb-o+o-o.litmus)
// with the lab's Model line; the explorer's answer under sc; what has no answer, in the command
// line's words.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCommand } from './commands/check.ts';
import { UsageError } from './errors.ts';

const MP = new URL('../../test/fuzz/litmus/C-MP+o-wmb-o+o-o.litmus', import.meta.url).pathname;

const dir = mkdtempSync(join(tmpdir(), 'lab-check-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The answer without its Time line, which says how long it took. */
const untimed = (text: string) => text.replace(/^Time .*\n/m, '');

describe('lab check', () => {
  it('answers a herd7 file under lkmm as herd7 does, then its Model line and Hash', () => {
    expect(untimed(checkCommand([MP]))).toBe(
      [
        'Test C-MP+o-wmb-o+o-o Allowed',
        'States 4',
        '1:r2=0; 1:r3=0;',
        '1:r2=0; 1:r3=2;',
        '1:r2=2; 1:r3=0;',
        '1:r2=2; 1:r3=2;',
        'Ok',
        'Witnesses',
        'Positive: 1 Negative: 3',
        'Condition exists (1:r2=2 /\\ 1:r3=0)',
        'Observation C-MP+o-wmb-o+o-o Sometimes 1 3',
        'Model lkmm',
        'Hash=d688a7cf8067f7f13cd94acdae80bf8a',
      ].join('\n'),
    );
  });

  it('answers under sc with the explorer, counting executions, and says whether it was whole', () => {
    const doc = JSON.parse(checkCommand([MP, '--memory', 'sc', '--json'])) as Record<
      string,
      unknown
    >;
    expect(doc).toMatchObject({
      model: 'sc',
      counts: 'executions',
      observation: 'Never',
      positive: 0,
      negative: 3,
      complete: true,
      stopped: null,
    });
    expect(doc.text).toBeUndefined();
  });

  it('words what has no answer with the file’s name and what to do', () => {
    // (A herd7 file without a condition asks herd7's default, forall (true): see herdWhole.test.)
    const bare = file('bare.c', 'int x;\nP0() { WRITE_ONCE(x, 1); }\n');
    expect(() => checkCommand([bare])).toThrow(
      new UsageError(
        `${bare} has no final condition: add one, as \`exists (0:r0=0 /\\ 1:r0=0)\` (or use lab explore)`,
      ),
    );
    const many = file(
      'many.c',
      'C many\nint x;\nP0() { int r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15; r0 = READ_ONCE(x); r1 = READ_ONCE(x); r2 = READ_ONCE(x); r3 = READ_ONCE(x); r4 = READ_ONCE(x); r5 = READ_ONCE(x); r6 = READ_ONCE(x); r7 = READ_ONCE(x); r8 = READ_ONCE(x); r9 = READ_ONCE(x); r10 = READ_ONCE(x); r11 = READ_ONCE(x); r12 = READ_ONCE(x); r13 = READ_ONCE(x); r14 = READ_ONCE(x); r15 = READ_ONCE(x); }\nP1() { WRITE_ONCE(x, 1); }\nexists (x=1)\n',
    );
    expect(() => checkCommand([many, '--memory', 'lkmm'])).toThrow(
      /: the kernel's memory model \(lkmm\) cannot answer this program: .*more than 20000 ways to run.*\. Try --memory sc or --memory tso\.$/,
    );
  });
});
