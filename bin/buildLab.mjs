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

/**
 * The bundle's modules: each becomes `<name>.mjs` in the bundle's folder. `main` is the start
 * that `lab` runs (src/cli/bundle/start.ts); it loads the engine, ENGINE below.
 */
export const ENTRIES = {
  main: 'src/cli/bundle/start.ts',
  threads: 'src/cli/live/threads.ts',
  cpuThread: 'src/cli/live/cpuThread.ts',
  sbThread: 'src/cli/live/sbThread.ts',
  shardThread: 'src/cli/explore/shardThread.ts',
  checkThread: 'src/cli/check/checkThread.ts',
};

/**
 * The command line's engine, bundled as a CommonJS script, `lab.cjs`: only a script can be handed
 * V8's code cache in Node 20 (vm.Script's cachedData), and with the cache a start skips compiling
 * the engine. Measured (farm-bench, whole processes, pairs, the cache against none): `lab list`
 * 0.086 s against 0.103 s, a start that runs a tiny search 0.097 s against 0.125 s
 * (docs/benchmarks.md).
 */
export const ENGINE = 'src/cli/bundle/entry.ts';

/** The file that records what a bundle was built from (see `staleReason`). */
const STAMP = 'inputs.json';

/**
 * Files that change a bundle without being its inputs: this build's own settings, and the lock
 * file (npm extracts packages with a fixed old modification time, so an upgraded dependency shows
 * only in the lock file's).
 */
const ALSO = ['bin/buildLab.mjs', 'package-lock.json'];

/**
 * esbuild plugin: the catalogue's two eager lists (src/scenarios/allScenarios.ts and
 * allLessonFiles.ts) as static imports of every entry's files, in entries.ts's order, instead of
 * a top-level await of their dynamic imports, which a CommonJS script cannot hold. The same
 * replacement as the app's (deploy/eagerCatalogue.ts), made from entries.ts's text because this
 * file runs before anything is compiled. test/buildLab.test.ts checks that the bundle lists the
 * catalogue as the sources do.
 */
function eagerCatalogue() {
  const folder = join(ROOT, 'src', 'scenarios');
  const eager = (ext, name, item) => () => {
    const text = readFileSync(join(folder, 'entries.ts'), 'utf8');
    const ids = [...text.matchAll(/import\('\.\/catalogue\/([\w-]+)\.ts'\)/g)].map((m) => m[1]);
    const rows = [...text.matchAll(/^\s+id: '([\w-]+)',$/gm)].map((m) => m[1]);
    if (ids.length === 0 || ids.join() !== rows.join())
      throw new Error('src/scenarios/entries.ts: its rows and their imports do not match');
    const imports = ids.map((id, i) => `import m${String(i)} from './catalogue/${id}.${ext}';`);
    const items = ids.map((id, i) => item(id, `m${String(i)}`));
    return {
      loader: 'ts',
      resolveDir: folder,
      contents: `${imports.join('\n')}\nexport const ${name} = [${items.join(', ')}];\n`,
    };
  };
  return {
    name: 'eager-catalogue',
    setup(build) {
      build.onLoad(
        { filter: /[\\/]src[\\/]scenarios[\\/]allScenarios\.ts$/ },
        eager('ts', 'allScenarios', (_id, v) => v),
      );
      build.onLoad(
        { filter: /[\\/]src[\\/]scenarios[\\/]allLessonFiles\.ts$/ },
        eager('json', 'allLessonFiles', (id, v) => `{ id: ${JSON.stringify(id)}, file: ${v} }`),
      );
    },
  };
}

/**
 * Rewrites the JavaScript file `path` in ASCII: each character beyond it (esbuild escapes those in
 * strings and names, and leaves them in the comments it keeps) becomes its \u escape, which in a
 * comment is text and elsewhere the same character. An ASCII file is read without decoding
 * (src/cli/bundle/start.ts): 2 ms where decoding the engine's megabyte as UTF-8 took 6.
 */
function asciiOnly(path) {
  const text = readFileSync(path, 'utf8');
  const escaped = text.replace(
    /[^\0-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (escaped !== text) writeFileSync(path, escaped);
}

/**
 * Bundles the CLI into `outdir` (made if missing) and records its inputs there. With `train`, a
 * process then runs the training commands (src/cli/bundle/train.ts) and saves V8's code cache of
 * the engine as `lab.cache`; a training that fails is said with `say`, and the bundle runs
 * without a cache.
 */
export async function buildLab(outdir, { train = false, say = () => undefined } = {}) {
  const builtAt = Date.now();
  // esbuild is loaded only to build: a start with a fresh bundle does not pay for it.
  const { build } = createRequire(import.meta.url)('esbuild');
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    metafile: true,
  };
  const [modules, engine] = await Promise.all([
    build({
      ...common,
      entryPoints: Object.fromEntries(
        Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)]),
      ),
      outdir,
      outExtension: { '.js': '.mjs' },
      format: 'esm',
    }),
    build({
      ...common,
      entryPoints: [join(ROOT, ENGINE)],
      outfile: join(outdir, 'lab.cjs'),
      format: 'cjs',
      // Its threads are found beside it, by the URL of the file that starts them.
      define: { 'import.meta.url': '__labFileUrl' },
      banner: { js: 'var __labFileUrl = require("node:url").pathToFileURL(__filename).href;' },
      plugins: [eagerCatalogue()],
    }),
  ]);
  asciiOnly(join(outdir, 'lab.cjs'));
  if (train) {
    // Loaded here: a start that finds its bundle current does not pay for child_process.
    const { spawnSync } = await import('node:child_process');
    const trained = spawnSync(process.execPath, [join(outdir, 'main.mjs')], {
      env: { ...process.env, LAB_TRAIN: '1' },
      encoding: 'utf8',
    });
    if (trained.status !== 0)
      say(`lab: no code cache, its training failed: ${trained.stderr.trim().split('\n')[0]}`);
  }
  const inputs = [
    ...new Set([...Object.keys(modules.metafile.inputs), ...Object.keys(engine.metafile.inputs)]),
    ...ALSO,
  ];
  writeFileSync(
    join(outdir, STAMP),
    `${JSON.stringify({ builtAt, node: process.version, inputs })}\n`,
  );
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
  for (const file of [...Object.keys(ENTRIES).map((name) => `${name}.mjs`), 'lab.cjs']) {
    if (!existsSync(join(dir, file))) return `${file} is missing`;
  }
  // Its code cache is V8's: another Node turns it down, and a rebuild trains a new one.
  if (stamp.node !== process.version) return `it was built for Node ${String(stamp.node)}`;
  for (const input of stamp.inputs) {
    const stat = statSync(join(ROOT, input), { throwIfNoEntry: false });
    if (stat === undefined) return `${input} is gone`;
    if (stat.mtimeMs > stamp.builtAt) return `${input} changed`;
  }
  return null;
}

/**
 * Makes sure the bundle in BUNDLE_DIR is current, rebuilding it (and training its code cache)
 * when it is not and saying so with `say`. The build goes to a folder of its own, then each file is renamed into place, the
 * record of inputs last: two starts that rebuild at once each put whole files in place, and a
 * half-finished build is never taken for a current one.
 */
export async function ensureLab(say = (line) => process.stderr.write(`${line}\n`)) {
  const why = staleReason();
  if (why === null) return;
  say(`lab: building the command line into ${relative(process.cwd(), BUNDLE_DIR) || '.'} (${why})`);
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const fresh = mkdtempSync(join(ROOT, 'build', 'cli-'));
  try {
    try {
      await buildLab(fresh, { train: true, say });
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
  await ensureLab();
}
