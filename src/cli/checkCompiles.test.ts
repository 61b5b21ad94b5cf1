// How many times `lab check` compiles a file: once for each model it runs the program under.
// The model asked for (or the file's default) answers with the program it opened; under sc and
// tso the explorer's end states are recounted by the axiomatic engine, which reads the program
// compiled for it (memory lkmm), once more. Compiles are counted by wrapping the compiler.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const compiles = vi.hoisted(() => ({ models: [] as string[] }));
vi.mock('../lang/compile.ts', async (original) => {
  const real = await original<typeof import('../lang/compile.ts')>();
  return {
    ...real,
    compileProgram: (...args: Parameters<typeof real.compileProgram>) => {
      compiles.models.push(args[1]?.memory ?? 'sc');
      return real.compileProgram(...args);
    },
  };
});

const { checkFile } = await import('./commands/check.ts');

const dir = mkdtempSync(join(tmpdir(), 'lab-compiles-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** A new file each time (the open program is kept by its text): SB, in herd7's form or the lab's. */
function file(litmus: boolean): string {
  const path = join(dir, `t${++files}.litmus`);
  const text = litmus
    ? `C SB${files}
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }
exists (0:r0=0 /\\ 1:r0=0)
`
    : `C sb-${files}
#define V 1
int x;
int y;
P0() { int r0; WRITE_ONCE(x, V); r0 = READ_ONCE(y); }
P1() { int r0; WRITE_ONCE(y, V); r0 = READ_ONCE(x); }
exists (0:r0=0 /\\ 1:r0=0)
`;
  writeFileSync(path, text);
  return path;
}

/** The models a check compiled the file under. */
function compiled(path: string, memory?: string): string[] {
  compiles.models = [];
  checkFile(path, memory === undefined ? {} : { memory });
  return compiles.models;
}

describe('lab check compiles a file once per model', () => {
  it('a herd7 file: once under lkmm, its default; under sc or tso, once more for the recount', () => {
    expect(compiled(file(true))).toEqual(['lkmm']);
    expect(compiled(file(true), 'lkmm')).toEqual(['lkmm']);
    expect(compiled(file(true), 'sc')).toEqual(['sc', 'lkmm']);
    expect(compiled(file(true), 'tso')).toEqual(['tso', 'lkmm']);
  });

  it('a program in the lab’s form: under sc, its default, and lkmm for the recount', () => {
    expect(compiled(file(false))).toEqual(['sc', 'lkmm']);
    expect(compiled(file(false), 'lkmm')).toEqual(['lkmm']);
  });

  it('a file checked again, or under a model it was compiled for, is not compiled again', () => {
    const path = file(true);
    expect(compiled(path, 'sc')).toEqual(['sc', 'lkmm']);
    expect(compiled(path, 'sc')).toEqual([]);
    expect(compiled(path, 'lkmm')).toEqual([]);
    expect(compiled(path, 'tso')).toEqual(['tso']);
  });

  it('other #define values are another program: compiled for them, once per model', () => {
    const path = file(false);
    expect(compiled(path, 'lkmm')).toEqual(['lkmm']);
    compiles.models = [];
    checkFile(path, { memory: 'lkmm', set: ['V=2'] });
    expect(compiles.models).toEqual(['lkmm']);
  });
});
