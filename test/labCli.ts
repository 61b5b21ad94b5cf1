// `lab` as a user runs it, for the CLI's tests: a real process, its stdout, stderr and exit
// status. The processes run the CLI bundled (labBundle.ts says why), or through tsx as
// `npm run lab:dev` starts it. The bundle and the files written are removed after the calling test
// file.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { labBundle } from './labBundle.ts';

/** A typed program with a counter: two CPUs each add one to `hits` with a plain load and store. */
export const MY_COUNTER = `C my-counter
int hits;
void count_hit(void) { int v; v = READ_ONCE(hits); WRITE_ONCE(hits, v + 1); }
P0() { count_hit(); }
P1() { count_hit(); }
counter { count hits; add count_hit; }
observe hits = hits;
observe exact;
invariant final no-lost-update;
`;

export interface LabRun {
  readonly status: number | null;
  readonly out: string;
  readonly err: string;
}

function run(command: readonly string[], args: readonly string[]): LabRun {
  const r = spawnSync(process.execPath, [...command, ...args], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** Bundles the CLI for this test file and returns the ways to run it. */
export async function labCli() {
  const bundle = await labBundle();
  const dir = mkdtempSync(join(tmpdir(), 'lab-'));
  afterAll(() => {
    bundle.remove();
    rmSync(dir, { recursive: true, force: true });
  });
  const lab = (...args: string[]) => run([bundle.main], args);
  return {
    lab,
    /** The bundled CLI's entry, for a test that starts it its own way (in a pipeline). */
    main: bundle.main,
    /** Writes `text` to a file of this test file's own folder and returns its path. */
    file: (name: string, text: string): string => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    /** `lab` started as `npm run lab:dev` starts it: through tsx, from the TypeScript sources. */
    tsx: (...args: string[]) => run(['--import', 'tsx', 'src/cli/main.ts'], args),
    /** Runs `lab` with `--json` among `args`, expects exit 0 and returns the parsed document. */
    labJson: (...args: string[]): unknown => {
      const r = lab(...args);
      expect(r.status, r.err).toBe(0);
      return JSON.parse(r.out);
    },
  };
}
