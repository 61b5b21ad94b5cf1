// The CLI and its worker-thread entries bundled into plain JavaScript by esbuild, for the tests
// that start many processes or threads (src/cli/cli*.test.ts, test/live/). Started through tsx, as
// `npm run lab` starts it, each process and each thread first registers tsx and loads the engine
// from TypeScript: most of a second of CPU per process, and a few hundred milliseconds per CPU
// thread, spent before the command begins. A bundle starts in a tenth of that and runs the same
// source. The tsx route itself stays tested: cli.live.test.ts runs `lab` through tsx once, with
// a CPU thread, and the explorer's shards (test/explore/workers.test.ts) and the store-buffering
// threads (test/live/sb.test.ts) start through their tsx bootstraps.
//
// The bundles sit side by side as the sources' thread bootstraps do (`cpuThread.mjs` beside
// the code that starts it), so the `new URL('./cpuThread.mjs', import.meta.url)` in the bundled
// code finds the bundled thread.

import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url);
const source = (path: string) => new URL(path, root).pathname;

export interface LabBundle {
  /** The CLI's entry: `node <main> list` runs `lab list`. */
  readonly main: string;
  /** src/cli/live/threads.ts, bundled, with its CPU threads beside it (import it by this URL). */
  readonly threads: string;
  /** Deletes the bundle's folder. */
  remove(): void;
}

/** Bundles the CLI into a fresh temporary folder. */
export function labBundle(): LabBundle {
  const dir = mkdtempSync(join(tmpdir(), 'lab-bundle-'));
  buildSync({
    entryPoints: {
      main: source('src/cli/main.ts'),
      threads: source('src/cli/live/threads.ts'),
      cpuThread: source('src/cli/live/cpuThread.ts'),
      shardThread: source('src/cli/explore/shardThread.ts'),
      sbThread: source('src/cli/live/sbThread.ts'),
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return {
    main: join(dir, 'main.mjs'),
    threads: pathToFileURL(join(dir, 'threads.mjs')).href,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
