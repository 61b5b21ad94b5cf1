// The parser and compiler against any text: a program or errors with spans inside the text,
// never an exception; and the printer against the parser: printing a parsed program and parsing
// it again gives the same program.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProgram } from './compile.ts';
import { parse } from './parser.ts';
import { printProgram } from './printer.ts';
import { KEYWORDS } from './words.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import type { Scenario } from '../scenarios/types.ts';

const classic = findScenario('percpu-classic') as Scenario;

/** The tree without its spans (the printer's layout moves every offset). */
function shape(x: unknown): unknown {
  return JSON.parse(
    JSON.stringify(x, (k, v: unknown) => {
      if (k === 'span' || k === 'calleeSpan') return undefined;
      if (k === 'text' && typeof v === 'string' && /^(0x)?[0-9a-fA-F]+[uUlL]*$/.test(v))
        return undefined;
      return typeof v === 'bigint' ? `${v}n` : v;
    }),
  );
}

const SAMPLES = [
  `C SB\n{}\nP0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y); }\nP1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); smp_mb(); r0 = READ_ONCE(*x); }\nexists (0:r0=0 /\\ 1:r0=0)\n`,
  // A whole catalogue entry: structs, per-CPU fields, locks, loops, the counter clause.
  classic.text?.(resolveParams(classic, {})) ?? '',
  `DEFINE_PER_CPU(long, nr);
long c = -1;
IRQ0() { this_cpu_add(nr, 5); }
P0() { unsigned long flags; local_irq_save(flags); c = c ? 2 : ~c; local_irq_restore(flags); }
P1() on cpu 0 { do { c = c << 1 | 1; } while (c < 100 && !(c & 4)); goto out; out: ; }
`,
];

// The statement keywords are words.ts's, so a keyword the language gains is fuzzed too.
const fragments = [
  'P0()',
  '{',
  '}',
  '(',
  ')',
  ';',
  ',',
  'int',
  's64',
  'x',
  'r0',
  '=',
  '==',
  '+',
  '-',
  '*',
  '&',
  '->',
  '.',
  ...KEYWORDS,
  'READ_ONCE(',
  'WRITE_ONCE(',
  'spin_lock(&l)',
  '0',
  '1',
  '42',
  'exists',
  '(0:r0=1)',
  '/\\',
  '\\/',
  '~',
  '(*',
  '*)',
  '/*',
  '*/',
  '//',
  '\n',
  ' ',
  '#define N 3\n',
  'DEFINE_PER_CPU(int, c);',
  'this_cpu_inc(c);',
  'struct s',
  'counter {',
  'observe',
  'invariant final a:',
  '"',
  'C name\n',
  'on cpu 1',
  'IRQ0()',
  'goto',
  'lab:',
  '?',
  ':',
  '[',
  ']',
];

describe('the parser and the compiler on any text', () => {
  it('give a program or errors with spans inside the text, never an exception', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(fc.constantFrom(...fragments), { maxLength: 60 }).map((a) => a.join(' ')),
        ),
        (text) => {
          const r = compileProgram(text);
          if (!r.ok) {
            expect(r.errors.length).toBeGreaterThan(0);
            for (const e of r.errors) {
              expect(e.span.start).toBeGreaterThanOrEqual(0);
              expect(e.span.end).toBeLessThanOrEqual(Math.max(text.length, e.span.start));
              expect(e.message.length).toBeGreaterThan(0);
            }
          }
        },
      ),
      { seed: 19, numRuns: 2000 },
    );
  });

  it('survive any edit of a real program', () => {
    const edit = fc.record({
      sample: fc.nat({ max: SAMPLES.length - 1 }),
      at: fc.nat(),
      cut: fc.nat({ max: 12 }),
      insert: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...fragments)),
    });
    fc.assert(
      fc.property(edit, ({ sample, at, cut, insert }) => {
        const src = SAMPLES[sample] as string;
        const i = at % (src.length + 1);
        const text = src.slice(0, i) + insert + src.slice(i + cut);
        const r = compileProgram(text);
        if (!r.ok) for (const e of r.errors) expect(e.span.start).toBeLessThanOrEqual(text.length);
      }),
      { seed: 2011, numRuns: 3000 },
    );
  });

  it('print what they parse so that it parses back to the same program', () => {
    for (const src of SAMPLES) {
      const r = parse(src);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(compileProgram(src).ok).toBe(true);
      const again = parse(printProgram(r.program));
      if (!again.ok) throw new Error(`${JSON.stringify(again.errors)}\n${printProgram(r.program)}`);
      expect(shape(again.program)).toEqual(shape(r.program));
    }
    // And so for the edited programs that still parse.
    fc.assert(
      fc.property(
        fc.nat({ max: SAMPLES.length - 1 }),
        fc.nat(),
        fc.constantFrom(...fragments),
        (sample, at, insert) => {
          const src = SAMPLES[sample] as string;
          const i = at % (src.length + 1);
          const r = parse(src.slice(0, i) + insert + src.slice(i));
          if (!r.ok) return;
          const again = parse(printProgram(r.program));
          expect(again.ok).toBe(true);
          if (again.ok) expect(shape(again.program)).toEqual(shape(r.program));
        },
      ),
      { seed: 7, numRuns: 3000 },
    );
  });
});
