// The start of `lab` from its bundle (build/cli/main.mjs; bin/lab.mjs imports it): loads the
// engine, lab.cjs beside it, with V8's code cache of it, lab.cache, and runs the command.
//
// A start without the cache parses the engine's megabyte of JavaScript and compiles, one by one,
// the functions a command calls; with it V8 takes their bytecode from the cache instead (about
// 25 ms of every start: bin/buildLab.mjs has the figures). The cache is made once, when the
// bundle is built: a process runs the training commands (train.ts) and saves what they compiled
// (LAB_TRAIN=1, below). A cache V8 turns down (another Node, other V8 flags) costs nothing but
// the time it would have saved; LAB_CODE_CACHE=0 starts without it.
//
// This file imports nothing of the engine: everything it imports is in this small module, and
// the engine comes only through the script.

import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** What lab.cjs exports (entry.ts). */
interface Engine {
  runLab(argv: readonly string[]): Promise<number>;
  train(): Promise<void>;
}

const code = fileURLToPath(new URL('./lab.cjs', import.meta.url));
const cache = fileURLToPath(new URL('./lab.cache', import.meta.url));

/** Runs lab.cjs as Node runs a CommonJS file, with the cache when it is given one. */
function load(cachedData: Buffer | undefined): { engine: Engine; script: Script } {
  const bytes = readFileSync(code);
  // The build writes it in ASCII (bin/buildLab.mjs), which needs no decoding.
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // Node's own wrapper, on the file's first line, so that its lines keep their numbers.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${text}\n})`;
  const script = new Script(wrapped, { filename: code, cachedData });
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(code), module, code, dirname(code));
  return { engine: module.exports as Engine, script };
}

/** The cache, or undefined where there is none (a bundle built without training). */
function cached(): Buffer | undefined {
  if (process.env.LAB_CODE_CACHE === '0') return undefined;
  try {
    return readFileSync(cache);
  } catch {
    return undefined;
  }
}

if (process.env.LAB_TRAIN === '1') {
  const { engine, script } = load(undefined);
  await engine.train();
  // Whole, or not at all: a start that reads the cache while it is written must not see half.
  writeFileSync(`${cache}.part`, script.createCachedData());
  renameSync(`${cache}.part`, cache);
} else {
  process.exitCode = await load(cached()).engine.runLab(process.argv.slice(2));
}
