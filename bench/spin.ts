// npm run bench:spin: the explorer against SPIN, same sitting, on global-plain (nr_files++ as a
// plain load and store) with 3 CPUs × 5 and 6 adds and 4 CPUs × 3: every interleaving of the
// steps, no interventions. The lab runs as a user runs it, `lab explore … --workers N` for each N
// of --workers (the time includes starting the CLI; the search's own time is beside it); SPIN
// runs an equivalent Promela model (bench/spin/global-plain.pml: one load and one store a step,
// the loop counter local) built with `cc -O2 -DSAFETY`, partial-order reduction on, with one core
// and with -DNCORE=2 for each N above 1. The SPIN rows need `spin` and a C compiler (Debian:
// apt-get install spin); without them the lab's rows print alone.
//
//   npm run bench:spin -- [--workers 1,2] [--repeat R] [--only 3x5,3x6,4x3]

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findCompiler } from './native.ts';

const MODEL = fileURLToPath(new URL('./spin/global-plain.pml', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

interface Size {
  readonly cpus: number;
  readonly adds: number;
}

interface Row {
  readonly who: string;
  readonly seconds: number;
  readonly states: number;
  /** The search alone (the lab's stats.ms), when known. */
  readonly searchSeconds?: number;
  readonly bytes?: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function timed<T>(run: () => T): { value: T; seconds: number } {
  const t0 = performance.now();
  const value = run();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

function lab(size: Size, workers: number, repeat: number): Row {
  const runs = Array.from({ length: repeat }, () =>
    timed(() => {
      const args = [TSX, CLI, 'explore', 'global-plain', '--set', `cpus=${String(size.cpus)}`];
      args.push('--set', `iterations=${String(size.adds)}`, '--set', 'initial=0');
      args.push('--workers', String(workers), '--json', '--quiet');
      const out = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (out.status !== 0 && out.status !== 1) throw new Error(`lab explore: ${out.stderr}`);
      const doc = JSON.parse(out.stdout) as {
        complete: boolean;
        workers: { count: number };
        stats: { states: number; ms: number; bytes: number };
      };
      if (!doc.complete) throw new Error('lab explore did not complete');
      return doc;
    }),
  );
  const last = runs.at(-1)?.value;
  // The workers that searched: a run done before its threads started says 1.
  const count = last?.workers.count ?? workers;
  return {
    who: `lab, ${String(count)} worker${count > 1 ? 's' : ''}`,
    seconds: median(runs.map((r) => r.seconds)),
    searchSeconds: median(runs.map((r) => r.value.stats.ms / 1000)),
    states: last?.stats.states ?? 0,
    bytes: last ? last.stats.bytes / last.stats.states : undefined,
  };
}

/** Builds pan for one size and core count in `dir`; returns its path. */
function buildPan(dir: string, cc: string, size: Size, cores: number): string {
  const name = `pan-${String(size.cpus)}x${String(size.adds)}-${String(cores)}`;
  const defines = [`-DCPUS=${String(size.cpus)}`, `-DADDS=${String(size.adds)}`];
  const gen = spawnSync('spin', [...defines, '-a', 'global-plain.pml'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (gen.status !== 0) throw new Error(`spin -a: ${gen.stderr || gen.stdout}`);
  const flags = ['-O2', '-DSAFETY', ...(cores > 1 ? [`-DNCORE=${String(cores)}`] : [])];
  const built = spawnSync(cc, [...flags, '-o', name, 'pan.c'], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`${cc} pan.c: ${built.stderr}`);
  return join(dir, name);
}

function spin(dir: string, cc: string, size: Size, cores: number, repeat: number): Row {
  const pan = buildPan(dir, cc, size, cores);
  const runs = Array.from({ length: repeat }, () =>
    timed(() => {
      const out = spawnSync(pan, ['-m100000'], { cwd: dir, encoding: 'utf8' });
      const stored = /(\d+) states, stored/.exec(out.stdout);
      if (out.status !== 0 || !stored) throw new Error(`pan: ${out.stdout}${out.stderr}`);
      // With several cores, pan prints a total line after each core's own.
      const all = [...out.stdout.matchAll(/(\d+) states, stored/g)].map((m) => Number(m[1]));
      return cores > 1 ? Math.max(...all) : Number(stored[1]);
    }),
  );
  return {
    who: cores > 1 ? `SPIN, NCORE=${String(cores)}` : 'SPIN, 1 core',
    seconds: median(runs.map((r) => r.seconds)),
    states: runs.at(-1)?.value ?? 0,
  };
}

function spinVersion(): string | null {
  const v = spawnSync('spin', ['-V'], { encoding: 'utf8' });
  return v.status === 0 ? v.stdout.trim() : null;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '1,2' },
      repeat: { type: 'string', default: '1' },
      only: { type: 'string', default: '3x5,3x6,4x3' },
    },
  });
  const workers = values.workers.split(',').map(Number);
  const repeat = Number(values.repeat);
  const sizes = values.only.split(',').map((s): Size => {
    const [cpus, adds] = s.split('x').map(Number);
    if (!cpus || !adds) throw new Error(`--only takes sizes like 3x5, not ${s}`);
    return { cpus, adds };
  });
  if (workers.some((w) => !(w >= 1 && w <= 8)) || !(repeat >= 1)) {
    throw new Error('--workers takes 1 to 8 (comma-separated), --repeat a count');
  }
  const version = spinVersion();
  const cc = findCompiler();
  const dir = mkdtempSync(join(tmpdir(), 'percpu-lab-spin-'));
  try {
    copyFileSync(MODEL, join(dir, 'global-plain.pml'));
    const env = version && cc ? `${version}, ${cc} -O2` : 'no SPIN or no C compiler: lab only';
    console.log(`global-plain, no interventions; ${env}; ${String(repeat)} run(s) each, median`);
    console.log('');
    console.log('| size | who | seconds | search alone | states | states/s | bytes a state |');
    console.log('|---|---|---|---|---|---|---|');
    for (const size of sizes) {
      const rows: Row[] = workers.map((w) => lab(size, w, repeat));
      if (version && cc) {
        for (const w of workers) rows.push(spin(dir, cc, size, w, repeat));
      }
      for (const r of rows) {
        const rate = r.states / (r.searchSeconds ?? r.seconds);
        console.log(
          `| ${String(size.cpus)} × ${String(size.adds)} | ${r.who} | ${r.seconds.toFixed(2)} | ` +
            `${r.searchSeconds?.toFixed(2) ?? '–'} | ${r.states.toLocaleString('en')} | ` +
            `${(rate / 1e6).toFixed(2)} M | ${r.bytes?.toFixed(0) ?? '–'} |`,
        );
      }
    }
    console.log('');
    console.log(
      'SPIN counts its own states (its model merges the loop counter into the steps and reduces\n' +
        'partial orders), so compare times, not state counts.',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
