// The command line bundled into plain JavaScript by esbuild: what `lab` (bin/lab.mjs), `npm
// install`'s prepare step and the tests that start many processes (test/labBundle.ts) run. Started
// through tsx, each process first compiles the engine's TypeScript, about 1.5 s on this project's
// machines before a command begins; the bundle starts in a tenth of a second.
//
// One list of entries for every user: the CLI and each worker thread it starts. The bundles sit
// side by side as the sources' thread bootstraps do (`cpuThread.mjs` beside the code that starts
// it), so a `new URL('./cpuThread.mjs', import.meta.url)` in the bundled code finds the bundled
// thread. Plain JavaScript, so that the launcher can run it before anything is compiled.

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where `lab` runs from: git-ignored, rebuilt when a source is newer. */
export const BUNDLE_DIR = join(ROOT, 'build', 'cli');

/** The bundle's entries: each becomes `<name>.mjs` in the bundle's folder. */
export const ENTRIES = {
  main: 'src/cli/main.ts',
  threads: 'src/cli/live/threads.ts',
  cpuThread: 'src/cli/live/cpuThread.ts',
  sbThread: 'src/cli/live/sbThread.ts',
  shardThread: 'src/cli/explore/shardThread.ts',
  checkThread: 'src/cli/check/checkThread.ts',
};

/**
 * The file that records what a bundle was built from: the time its build began and every file
 * esbuild read, so that a later start can tell whether one changed by their modification times.
 */
const STAMP = 'inputs.json';

/**
 * Files that change a bundle without being its inputs: this build's own settings, and the lock
 * file (npm extracts packages with a fixed old modification time, so an upgraded dependency shows
 * only in the lock file's).
 */
const ALSO = ['bin/buildLab.mjs', 'package-lock.json'];

/** Bundles the CLI's entries into `outdir` (made if missing) and records its inputs there. */
export function buildLab(outdir) {
  const builtAt = Date.now();
  // esbuild is loaded only to build: a start with a fresh bundle does not pay for it.
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  const result = buildSync({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)]),
    ),
    absWorkingDir: ROOT,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    metafile: true,
  });
  const inputs = [...Object.keys(result.metafile.inputs), ...ALSO];
  writeFileSync(join(outdir, STAMP), `${JSON.stringify({ builtAt, inputs })}\n`);
}

/**
 * Why the bundle in `dir` must be rebuilt, or null when it is current: a missing bundle, or an
 * input modified (or removed) since its build began. A stat a file, about 250 of them.
 */
export function staleReason(dir = BUNDLE_DIR) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(dir, STAMP), 'utf8'));
  } catch {
    return 'it has not been built';
  }
  for (const name of Object.keys(ENTRIES)) {
    if (!existsSync(join(dir, `${name}.mjs`))) return `${name}.mjs is missing`;
  }
  for (const input of stamp.inputs) {
    const stat = statSync(join(ROOT, input), { throwIfNoEntry: false });
    if (stat === undefined) return `${input} is gone`;
    if (stat.mtimeMs > stamp.builtAt) return `${input} changed`;
  }
  return null;
}

/**
 * Makes sure the bundle in BUNDLE_DIR is current, rebuilding it when it is not and saying so
 * with `say`. The build goes to a folder of its own, then each file is renamed into place, the
 * record of inputs last: two starts that rebuild at once each put whole files in place, and a
 * half-finished build is never taken for a current one.
 */
export function ensureLab(say = (line) => process.stderr.write(`${line}\n`)) {
  const why = staleReason();
  if (why === null) return;
  say(`lab: building the command line into ${relative(process.cwd(), BUNDLE_DIR) || '.'} (${why})`);
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const fresh = mkdtempSync(join(ROOT, 'build', 'cli-'));
  try {
    try {
      buildLab(fresh);
    } catch {
      // esbuild has printed what it could not build, with file and line.
      rmSync(fresh, { recursive: true, force: true });
      say('lab: the build failed (above); `npm run lab:dev` runs the sources through tsx');
      process.exit(1);
    }
    mkdirSync(BUNDLE_DIR, { recursive: true });
    const files = readdirSync(fresh).filter((f) => f !== STAMP);
    for (const f of [...files, STAMP]) renameSync(join(fresh, f), join(BUNDLE_DIR, f));
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

// `node bin/buildLab.mjs`: npm's prepare step (npm install, npm ci) builds the bundle once. An
// install without the development dependencies (--omit=dev) has no esbuild, nor tsx: it cannot
// run lab, but it is not refused for that.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    createRequire(import.meta.url).resolve('esbuild');
  } catch {
    process.stderr.write('lab: esbuild is not installed (--omit=dev?): the bundle is not built\n');
    process.exit(0);
  }
  ensureLab();
}
