// npm run bench:spin: the explorer against SPIN, same sitting, on global-plain (nr_files++ as a
// plain load and store) with 3 CPUs × 5 and 6 adds and 4 CPUs × 3: every interleaving of the
// steps, no interventions. The lab runs as a user runs it, `lab explore … --workers N` for each N
// of --workers (the time includes starting the CLI; the search's own time is beside it); SPIN
// runs the same question as `lab export global-plain --format promela` writes it (src/explore/
// promela: the machine's state word for word, one d_step a step, the final invariant asserted at
// every end state) built with `cc -O2 -fwrapv -DSAFETY`, partial-order reduction on (it removes no
// state here: every step reads or writes the shared word), with one core and with -DNCORE=2 for
// each N above 1. The SPIN rows need `spin` and a C compiler (Debian: apt-get install spin);
// without them the lab's rows print alone.
//
//   npm run bench:spin -- [--workers 1,2] [--repeat R] [--only 3x5,3x6,4x3] [--pairs N]
//
// --pairs N then runs the lab (one worker) and pan (one core) in turn N times per size and prints
// the median of the rounds' ratios: what to judge by on a machine whose speed drifts.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findCompiler } from './native.ts';
import { promelaModel } from '../src/explore/promela/model.ts';
import { resolveParams } from '../src/scenarios/params.ts';
import globalPlain from '../src/scenarios/catalogue/global-plain.ts';
import { ensureLab } from '../bin/buildLab.mjs';

// The bin a user runs: the bundle, not tsx's compile; rebuilt here first if a source changed, so
// that no timed run includes the build.
const CLI = fileURLToPath(new URL('../bin/lab.mjs', import.meta.url));
await ensureLab();

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

/** pan's state vector, in bytes (what SPIN stores a state as, before compression). */
function vectorBytes(out: string): number | undefined {
  const v = /State-vector (\d+) byte/.exec(out);
  return v ? Number(v[1]) : undefined;
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

interface LabRun {
  complete: boolean;
  workers: { count: number };
  stats: { states: number; ms: number; bytes: number };
}

/** One `lab explore` of global-plain at `size`, as a user runs it; timed as a whole process. */
function labOnce(size: Size, workers: number): { value: LabRun; seconds: number } {
  return timed(() => {
    const args = [CLI, 'explore', 'global-plain', '--set', `cpus=${String(size.cpus)}`];
    args.push('--set', `iterations=${String(size.adds)}`, '--set', 'initial=0');
    args.push('--workers', String(workers), '--json', '--quiet');
    const out = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (out.status !== 0 && out.status !== 1) throw new Error(`lab explore: ${out.stderr}`);
    const doc = JSON.parse(out.stdout) as LabRun;
    if (!doc.complete) throw new Error('lab explore did not complete');
    return doc;
  });
}

function lab(size: Size, workers: number, repeat: number): Row {
  const runs = Array.from({ length: repeat }, () => labOnce(size, workers));
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
  const params = resolveParams(globalPlain, {
    cpus: String(size.cpus),
    iterations: String(size.adds),
    initial: '0',
  });
  const bounds = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: Infinity };
  writeFileSync(join(dir, 'global-plain.pml'), promelaModel(globalPlain, params, bounds));
  const gen = spawnSync('spin', ['-a', 'global-plain.pml'], { cwd: dir, encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`spin -a: ${gen.stderr || gen.stdout}`);
  const flags = ['-O2', '-fwrapv', '-DSAFETY', ...(cores > 1 ? [`-DNCORE=${String(cores)}`] : [])];
  const built = spawnSync(cc, [...flags, '-o', name, 'pan.c'], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`${cc} pan.c: ${built.stderr}`);
  return join(dir, name);
}

/** One run of pan (built by `buildPan`) in `dir`; timed as a whole process. */
function panOnce(pan: string, dir: string, cores: number) {
  return timed(() => {
    // -A: the export asserts no-lost-update, which global-plain breaks; pan would stop at the
    // first broken end state, and the lab's search does not stop, so neither does this one.
    const out = spawnSync(pan, ['-m100000', '-A'], { cwd: dir, encoding: 'utf8' });
    const stored = /(\d+) states, stored/.exec(out.stdout);
    if (out.status !== 0 || !stored) throw new Error(`pan: ${out.stdout}${out.stderr}`);
    // With several cores, pan prints a total line after each core's own.
    const all = [...out.stdout.matchAll(/(\d+) states, stored/g)].map((m) => Number(m[1]));
    return {
      states: cores > 1 ? Math.max(...all) : Number(stored[1]),
      bytes: vectorBytes(out.stdout),
    };
  });
}

function spin(dir: string, cc: string, size: Size, cores: number, repeat: number): Row {
  const pan = buildPan(dir, cc, size, cores);
  const runs = Array.from({ length: repeat }, () => panOnce(pan, dir, cores));
  return {
    who: cores > 1 ? `SPIN, NCORE=${String(cores)}` : 'SPIN, 1 core',
    seconds: median(runs.map((r) => r.seconds)),
    states: runs.at(-1)?.value.states ?? 0,
    bytes: runs.at(-1)?.value.bytes,
  };
}

/**
 * `--pairs N`: N rounds of the lab (one worker) and pan (one core) in turn, per size, and the
 * median and range of each round's ratio. This machine's speed drifts in phases of about a
 * second; a ratio taken within a round survives that where two medians taken apart do not.
 */
function pairs(dir: string, cc: string, sizes: readonly Size[], n: number): void {
  console.log('');
  console.log(`Paired: ${String(n)} rounds of lab (one worker) then SPIN (one core), per size`);
  console.log('');
  console.log(
    '| size | lab ÷ SPIN, whole process (range) | search alone ÷ SPIN | lab s | SPIN s |',
  );
  console.log('|---|---|---|---|---|');
  for (const size of sizes) {
    const pan = buildPan(dir, cc, size, 1);
    const whole: number[] = [];
    const search: number[] = [];
    const labs: number[] = [];
    const pans: number[] = [];
    for (let i = 0; i < n; i++) {
      const l = labOnce(size, 1);
      const p = panOnce(pan, dir, 1);
      whole.push(l.seconds / p.seconds);
      search.push(l.value.stats.ms / 1000 / p.seconds);
      labs.push(l.seconds);
      pans.push(p.seconds);
    }
    const range = `${Math.min(...whole).toFixed(2)}–${Math.max(...whole).toFixed(2)}`;
    console.log(
      `| ${String(size.cpus)} × ${String(size.adds)} | **${median(whole).toFixed(2)}** (${range}) | ` +
        `${median(search).toFixed(2)} | ${median(labs).toFixed(2)} | ${median(pans).toFixed(2)} |`,
    );
  }
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
      pairs: { type: 'string', default: '0' },
    },
  });
  const workers = values.workers.split(',').map(Number);
  const repeat = Number(values.repeat);
  const rounds = Number(values.pairs);
  const sizes = values.only.split(',').map((s): Size => {
    const [cpus, adds] = s.split('x').map(Number);
    if (!cpus || !adds) throw new Error(`--only takes sizes like 3x5, not ${s}`);
    return { cpus, adds };
  });
  if (workers.some((w) => !(w >= 1 && w <= 8)) || !(repeat >= 1) || !(rounds >= 0)) {
    throw new Error('--workers takes 1 to 8 (comma-separated), --repeat and --pairs a count');
  }
  const version = spinVersion();
  const cc = findCompiler();
  const dir = mkdtempSync(join(tmpdir(), 'percpu-lab-spin-'));
  try {
    const env = version && cc ? `${version}, ${cc} -O2` : 'no SPIN or no C compiler: lab only';
    console.log(`global-plain, no interventions; ${env}; ${String(repeat)} run(s) each, median`);
    console.log('');
    console.log('| size | who | seconds | search alone | states | states/s | bytes a state |');
    console.log('|---|---|---|---|---|---|---|');
    const ratios: string[] = [];
    for (const size of sizes) {
      const rows: Row[] = workers.map((w) => lab(size, w, repeat));
      if (version && cc) {
        for (const w of workers) rows.push(spin(dir, cc, size, w, repeat));
        const one = rows.find((r) => r.who === 'lab, 1 worker');
        const pan = rows.find((r) => r.who === 'SPIN, 1 core');
        if (one && pan)
          ratios.push(
            `${String(size.cpus)} × ${String(size.adds)}: lab ÷ SPIN, one worker, ${(one.seconds / pan.seconds).toFixed(2)} ` +
              `(the search alone: ${((one.searchSeconds ?? one.seconds) / pan.seconds).toFixed(2)}); ` +
              `bytes a state: lab ${one.bytes?.toFixed(0) ?? '–'}, SPIN ${pan.bytes?.toFixed(0) ?? '–'}`,
          );
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
    if (ratios.length > 0) console.log(['', ...ratios].join('\n'));
    if (rounds > 0 && version && cc) pairs(dir, cc, sizes, rounds);
    console.log('');
    console.log(
      'SPIN stores one state per machine state (its partial-order reduction removes none on\n' +
        'global-plain: pan built with -DNOREDUCE stores as many); the lab stores one per machine\n' +
        'state and CPU of the last step, which its witnesses need to have the fewest switches.\n' +
        "SPIN's bytes a state are pan's state vector, uncompressed.",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
