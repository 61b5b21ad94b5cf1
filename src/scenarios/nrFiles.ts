// What the four 2006 nr_files scenarios share: their parameters, and their program text but for
// the counter itself: the #defines the parameters give, one thread per CPU that opens
// `iterations` files, what an outcome reports (`nr`, the count held in memory, and `exact`, what
// it should be) and the verdict that every file is counted.
//
// Source thread: LKML "[patch 2/2] fix file counting", January 2006 (Dipankar Sarma's atomic_t
// nr_files, Eric Dumazet's per-CPU lazy nr_files <43D92DD6.6090607@cosmosbay.com>, and the
// 2.6.16 filp_count_lock they replaced).

import { intParam, intSpec } from './params.ts';
import type { Params } from './types.ts';

export const NR_FILES_SOURCE =
  'LKML "[patch 2/2] fix file counting", Jan 2006 (Dipankar Sarma; Eric Dumazet <43D92DD6.6090607@cosmosbay.com>)';

export const cpusParam = intSpec('cpus', 2, [1, 64], 'Number of CPUs; each runs one task');

export const iterationsParam = intSpec(
  'iterations',
  2,
  [0, 10000],
  'How many times each CPU opens a file (increments the counter)',
);

export const initialParam = intSpec(
  'initial',
  0,
  [-1_000_000_000, 1_000_000_000],
  'Initial value of nr_files',
);

export const params = [cpusParam, iterationsParam, initialParam];

/** The witnesses' machine: two CPUs open one file each, nr_files starting at 100. */
export const TWO_OPENS_FROM_100: Params = { cpus: 2, iterations: 1, initial: 100 };

/** One nr_files entry's program, but for what every entry shares. */
export interface NrFilesProgram {
  readonly id: string;
  /** Its opening comment's lines. */
  readonly about: readonly string[];
  /** #defines beyond NR_CPUS, ITERATIONS and INITIAL. */
  readonly defines?: readonly string[];
  /** The counter's variables and the functions that count, in C. */
  readonly code: string;
  /** What a CPU calls to open a file: `file_opened()` unless the entry says otherwise. */
  readonly open?: string;
  /** The counter declaration's lines (`count nr_files;`, `add file_opened;`). */
  readonly counter: readonly string[];
  /** What an outcome reports beyond `exact`: `nr` at least. */
  readonly observe: readonly string[];
  /** Verdicts beyond no-lost-update. */
  readonly invariants?: readonly string[];
}

/** An nr_files entry's program for parameter set p. */
export function nrFilesText(p: Params, e: NrFilesProgram): string {
  const open = e.open ?? 'file_opened()';
  const threads = Array.from({ length: intParam(p, 'cpus') }, (_, k) =>
    [
      `P${k}()\t\t\t\t/* opens ITERATIONS files */`,
      '{',
      '\tint i;',
      '',
      '\tfor (i = 0; i < ITERATIONS; i++)',
      `\t\t${open};`,
      '}',
    ].join('\n'),
  );
  const sections = [
    `C ${e.id}`,
    ['/*', ...e.about.map((l) => (l === '' ? ' *' : ` * ${l}`)), ' */'].join('\n'),
    [
      `#define NR_CPUS ${intParam(p, 'cpus')}`,
      `#define ITERATIONS ${intParam(p, 'iterations')}\t\t/* files each CPU opens */`,
      `#define INITIAL ${intParam(p, 'initial')}\t\t/* nr_files at the start */`,
      ...(e.defines ?? []),
    ].join('\n'),
    e.code.trim(),
    ...threads,
    ['counter {', ...e.counter.map((l) => `\t${l}`), '}'].join('\n'),
    [...e.observe, 'observe exact;'].join('\n'),
    ['invariant final no-lost-update;', ...(e.invariants ?? [])].join('\n'),
  ];
  return `${sections.join('\n\n')}\n`;
}
