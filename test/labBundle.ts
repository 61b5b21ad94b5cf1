// The CLI and its worker-thread entries bundled into plain JavaScript by esbuild, for the tests
// that start many processes or threads (src/cli/cli*.test.ts, test/live/). Started through tsx, as
// `npm run lab:dev` starts it, each process and each thread first registers tsx and loads the engine
// from TypeScript: most of a second of CPU per process, and a few hundred milliseconds per CPU
// thread, spent before the command begins. A bundle starts in a tenth of that and runs the same
// source. The tsx route itself stays tested: cli.live.test.ts runs `lab` through tsx once, with
// a CPU thread, and the explorer's shards (test/explore/workers.test.ts) and the store-buffering
// threads (test/live/sb.test.ts) start through their tsx bootstraps.
//
// The build, and its list of entries, is the one `lab` runs from (bin/buildLab.mjs), made here
// in a folder of each test file's own so that test files running at once do not share one.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildLab } from '../bin/buildLab.mjs';

export interface LabBundle {
  /** The CLI's entry: `node <main> list` runs `lab list`. */
  readonly main: string;
  /** src/cli/live/threads.ts, bundled, with its CPU threads beside it (import it by this URL). */
  readonly threads: string;
  /** Deletes the bundle's folder. */
  remove(): void;
}

/**
 * Bundles the CLI into a fresh temporary folder, with the build `lab` itself runs from (without
 * the code cache's training: its processes start without the cache, as LAB_CODE_CACHE=0 does).
 */
export async function labBundle(): Promise<LabBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'lab-bundle-'));
  await buildLab(dir);
  return {
    main: join(dir, 'main.mjs'),
    threads: pathToFileURL(join(dir, 'threads.mjs')).href,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
