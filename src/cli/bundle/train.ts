// The commands the bundle's build runs once, in one process, before it saves V8's code cache of
// the engine (start.ts): every function they compile is in the cache, so a later start runs it
// without compiling it. A listing, a search of the catalogue's first entry (told in text and in
// JSON), and a check of a herd7 litmus file under the kernel's model: the paths a user's first
// commands take. What they print is thrown away; a command that fails fails the training, and
// the build goes on without a cache.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lab } from '../lab.ts';

/** Message passing, as herd7's MP+poonceonces: the smallest test that takes the model's paths. */
const LITMUS = `C MP+poonceonces

{}

P0(int *x, int *y)
{
\tWRITE_ONCE(*x, 1);
\tWRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
\tint r0;
\tint r1;

\tr0 = READ_ONCE(*y);
\tr1 = READ_ONCE(*x);
}

exists (1:r0=1 /\\ 1:r1=0)
`;

/** A search small enough to take a few milliseconds, on the catalogue's first entry. */
const EXPLORE = ['explore', 'global-plain', '--set', 'cpus=2', '--set', 'iterations=2'];
const ONE_WORKER = ['--workers', '1'];

/** Runs the training commands; throws on the first that does not end as it should. */
export async function train(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lab-train-'));
  try {
    const litmus = join(dir, 'MP+poonceonces.litmus');
    writeFileSync(litmus, LITMUS);
    const runs: [readonly string[], number][] = [
      [['list'], 0],
      // One worker: the search in this process, whose functions are the ones lab.cjs holds;
      // told in text and in JSON, as people and scripts ask for it.
      [[...EXPLORE, ...ONE_WORKER], 0],
      [[...EXPLORE, ...ONE_WORKER, '--json'], 0],
      [['check', litmus], 0],
    ];
    for (const [argv, status] of runs) {
      let err = '';
      const got = await lab(argv, {
        stdout: () => undefined,
        stderr: (text) => {
          err += text;
        },
      });
      if (got !== status) {
        throw new Error(`lab ${argv.join(' ')} ended with ${String(got)}: ${err.trim()}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
