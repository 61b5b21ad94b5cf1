// The language's promise, fuzzed: any text gets a program or positioned errors, within a bound.
// Inputs are mutants of seed texts (the catalogue's programs, herd7 litmus files): edits of their
// tokens and lines, stacked, with the shapes that broke the lab before (deep nesting, numbers past
// 64 bits, #define cycles and chains, long expressions, local loops, many CPUs, odd characters).
// Each input is compiled as the CLI and the editor do (programScenario), built under each memory
// model, and explored 200 states (under the default model); it is classed as a program, a positioned error,
// `other` (an exception escaped, or an error with no place in the text) or `over` (what it
// compiled to grew past a bound linear in the text: the sign of a cost that is not). Seeded and
// pure, so a run is repeatable: the test runs three thousand inputs, `npm run fuzz` more.

import { LIMITS } from '../lang/module.ts';
import { MAX_SOURCE_CHARS } from '../lang/lexer.ts';
import { KEYWORDS } from '../lang/words.ts';
import { resolveParams } from '../scenarios/params.ts';
import { programScenario } from '../scenarios/program.ts';
import { explore } from './explore.ts';

export type Verdict = 'program' | 'error' | 'other' | 'over';

export interface Classified {
  readonly verdict: Verdict;
  /** For `other` and `over`: what went wrong. */
  readonly why?: string;
}

/** States each program may explore: enough to reach its first faults, few enough to be quick. */
const EXPLORE_STATES = 200;

/** A seeded generator of integers (mulberry32): the same seed, the same inputs. */
export function generator(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(x * n);
  };
}

type Pick = (n: number) => number;

const choose = <T>(pick: Pick, xs: readonly T[]): T => xs[pick(xs.length)] as T;

// The statement keywords are words.ts's, so a keyword the language gains is fuzzed too.
const WORDS = [
  'int',
  'long',
  'u64',
  'unsigned',
  'static',
  'void',
  ...KEYWORDS,
  'P0',
  'P1',
  'IRQ0',
  'NMI0',
  'observe',
  'always',
  'exists',
  'forall',
  'record',
  'sum',
  'READ_ONCE',
  'WRITE_ONCE',
  'smp_mb',
  'smp_wmb',
  'smp_rmb',
  'this_cpu_add',
  'this_cpu_inc',
  'per_cpu',
  'per_cpu_ptr',
  'this_cpu_ptr',
  'smp_processor_id',
  'atomic_inc',
  'atomic_read',
  'spin_lock',
  'spin_unlock',
  'preempt_disable',
  'preempt_enable',
  'local_irq_save',
  'local_irq_restore',
  'for_each_possible_cpu',
  'for_each_online_cpu',
  'DEFINE_PER_CPU',
  'NR_CPUS',
  'x',
  'y',
  'r0',
  'r1',
  'i',
];
const PUNCT = [
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ';',
  ',',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<<',
  '>>',
  '&',
  '|',
  '^',
  '!',
  '~',
  '<',
  '>',
  '==',
  '!=',
  '&&',
  '||',
  '?',
  ':',
  '++',
  '--',
  '+=',
  '/\\',
  '\\/',
];
const NUMBERS = [
  '0',
  '-1',
  '7',
  '64',
  '65',
  '0x7fffffffffffffff',
  '9223372036854775808',
  '18446744073709551616',
  `1${'0'.repeat(40)}`,
  '4294967296',
  '9007199254740993',
  '1000000',
];
const ODD = ['\0', '\u001b', '\r', '\ufeff', '\ud800', '\u2028', '$', '@', '`', '"', "'", '#'];

/** The text in tokens, with the space between them kept: joining them gives the text back. */
function tokens(text: string): string[] {
  return text.match(/\s+|[A-Za-z_]\w*|0x[0-9a-fA-F]+|\d+|[^\s\w]/g) ?? [];
}

/** Inserted whole: the shapes the fuzzing of the language found costly or fatal. */
function shape(pick: Pick): string {
  const n = 1 + pick(400);
  switch (pick(9)) {
    case 0:
      return `${'('.repeat(n)}x${')'.repeat(n)}`;
    case 1:
      return `\n#define D${n} D${n}\n`;
    case 2: {
      const lines = ['#define A0 2'];
      for (let i = 1; i <= 1 + pick(40); i++) lines.push(`#define A${i} (A${i - 1} * A${i - 1})`);
      return `\n${lines.join('\n')}\nlong big = A${lines.length - 1};\n`;
    }
    case 3:
      return `\nlong s;\nP9() { long r; r = ${Array.from({ length: n * 4 }, () => 's').join(' + ')}; s = r; }\n`;
    case 4:
      return `\nP8() { long i; for (i = 0; i < ${choose(pick, NUMBERS)}; i++) { } }\n`;
    case 5:
      return `\n#define NR_CPUS ${1 + pick(70)}\n`;
    case 6:
      return `\n#pragma lab loop_bound ${choose(pick, ['0', '1', '1000', '1001', 'x'])}\n`;
    case 7:
      return `\n#pragma lab bounds irqs=${pick(17)} migrations=${pick(17)}\n`;
    default:
      return `${'{'.repeat(n)}${'}'.repeat(n)}`;
  }
}

/** One edit of the text. */
function edit(text: string, pick: Pick): string {
  const toks = tokens(text);
  const at = toks.length === 0 ? 0 : pick(toks.length);
  const lines = text.split('\n');
  const line = pick(lines.length);
  switch (pick(12)) {
    case 0:
      toks.splice(at, 1);
      return toks.join('');
    case 1:
      toks.splice(at, 0, toks[at] ?? '');
      return toks.join('');
    case 2: {
      const other = pick(Math.max(1, toks.length));
      [toks[at], toks[other]] = [toks[other] ?? '', toks[at] ?? ''];
      return toks.join('');
    }
    case 3:
      toks.splice(at, 0, ' ', choose(pick, [...WORDS, ...PUNCT]), ' ');
      return toks.join('');
    case 4:
      toks[at] = choose(pick, pick(2) === 0 ? NUMBERS : [...WORDS, ...PUNCT]);
      return toks.join('');
    case 5:
      lines.splice(line, 1);
      return lines.join('\n');
    case 6:
      lines.splice(line, 0, ...Array.from({ length: 1 + pick(8) }, () => lines[line] ?? ''));
      return lines.join('\n');
    case 7:
      return text.slice(0, pick(text.length + 1));
    case 8:
      toks.splice(at, 0, choose(pick, ODD));
      return toks.join('');
    case 9: {
      // A thread again under a new name: more CPUs, more of the same code.
      const m = /\bP0\s*\([^)]*\)\s*\{[^]*?\n\}/.exec(text);
      if (!m) return text + shape(pick);
      const copies = Array.from({ length: 1 + pick(70) }, (_, i) =>
        m[0].replace(/^P0/, `P${i + 10}`),
      );
      return `${text}\n${copies.join('\n')}\n`;
    }
    case 10:
      lines.splice(line, 0, shape(pick));
      return lines.join('\n');
    default:
      return text + shape(pick);
  }
}

/** A mutant of a seed: one to six stacked edits, cut to the size the lab takes. */
export function mutant(seed: string, pick: Pick): string {
  let text = seed;
  for (let i = 1 + pick(6); i > 0; i--) text = edit(text, pick);
  return text.slice(0, MAX_SOURCE_CHARS);
}

/** The longest word of the text: a register named after a variable is at most that long. */
function longestWord(text: string): number {
  let longest = 0;
  for (const w of text.match(/\w+/g) ?? []) longest = Math.max(longest, w.length);
  return longest;
}

/**
 * What the lab makes of a text: a program (built under every memory model it offers, explored
 * 200 states), positioned errors, an escape (`other`) or a cost past the bound (`over`).
 */
export function classify(text: string): Classified {
  try {
    const r = programScenario(text);
    if (!r.ok) {
      const unplaced = r.errors.find(
        (e) =>
          e.message === '' ||
          !(e.span.start >= 0 && e.span.start <= e.span.end && e.span.end <= text.length),
      );
      if (r.errors.length === 0 || unplaced)
        return { verdict: 'other', why: `an error with no place: ${unplaced?.message ?? 'none'}` };
      return { verdict: 'error' };
    }
    const sc = r.scenario;
    const memory = sc.params.find((p) => p.name === 'memory');
    const models = memory?.kind === 'choice' ? memory.choices : [undefined];
    const wordMax = longestWord(text) + 8;
    for (const model of models) {
      const p = resolveParams(sc, model === undefined ? {} : { memory: model });
      const { machine } = sc.build(p);
      // The bound: what the program compiled to is linear in its text (each thread within the
      // instruction limit; every register's name short), so compiling it was too.
      for (const prog of machine.programs) {
        if (prog.instrs.length > LIMITS.instructions)
          return { verdict: 'over', why: `${prog.name}: ${prog.instrs.length} instructions` };
        const long = prog.regNames.find((n) => n.length > wordMax);
        if (long !== undefined)
          return {
            verdict: 'over',
            why: `${prog.name}: a register named in ${long.length} characters`,
          };
      }
      // Explored under the default model only: the search is the same code under each.
      if (model === models[0])
        explore(
          sc,
          p,
          { ...sc.bounds, switches: Infinity },
          { maxStates: EXPLORE_STATES, maxMemoryMB: 64 },
        );
    }
    return { verdict: 'program' };
  } catch (e) {
    return { verdict: 'other', why: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

export interface FuzzFigures {
  readonly inputs: number;
  readonly counts: Readonly<Record<Verdict, number>>;
  /** The first few inputs that broke the promise, with why. */
  readonly broken: readonly { readonly text: string; readonly why: string }[];
}

/** The run's inputs in order, seeded by `seed`: the same seed, the same texts. */
export function inputs(seeds: readonly string[], seed: number): Generator<string, never> {
  if (seeds.length === 0) throw new Error('no seed texts to mutate');
  const pick = generator(seed);
  return (function* () {
    for (;;) yield mutant(choose(pick, seeds), pick);
  })();
}

/**
 * Input `k` (from 0) of the run seeded by `seed`, without classifying the ones before it (making
 * a mutant is quick; classifying it may not be): how one input of a long run is looked at again.
 */
export function inputAt(seeds: readonly string[], seed: number, k: number): string {
  const texts = inputs(seeds, seed);
  for (let i = 0; i < k; i++) texts.next();
  return texts.next().value;
}

/**
 * Classifies `count` mutants of the seeds, seeded by `seed`. `each` sees every input and its
 * index (the command line times them); the figures come back whatever happens.
 */
export function fuzz(
  seeds: readonly string[],
  count: number,
  seed: number,
  each?: (text: string, c: Classified, index: number) => void,
): FuzzFigures {
  const texts = inputs(seeds, seed);
  const counts: Record<Verdict, number> = { program: 0, error: 0, other: 0, over: 0 };
  const broken: { text: string; why: string }[] = [];
  for (let i = 0; i < count; i++) {
    const text = texts.next().value;
    const c = classify(text);
    counts[c.verdict]++;
    if ((c.verdict === 'other' || c.verdict === 'over') && broken.length < 20)
      broken.push({ text, why: c.why ?? '' });
    each?.(text, c, i);
  }
  return { inputs: count, counts, broken };
}
