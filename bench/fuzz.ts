// npm run fuzz -- [--inputs N] [--seed S] [--input K]: the language's promise
// (src/explore/fuzz.ts) on N mutants of the catalogue's programs and the litmus files in
// test/fuzz/litmus, seeded by S. Prints the figures (inputs, % program, % positioned error, other,
// over the bound), the slowest inputs by index, and every input that broke the promise. Exit 1
// when one did. With --input K: input K alone (from 0, of the run seeded by S), its verdict and
// time, and its text in full, so that a slow or broken input of a long run can be looked at again.

import { parseArgs } from 'node:util';
import { classify, fuzz, inputAt, type Verdict } from '../src/explore/fuzz.ts';
import { fuzzSeeds } from '../test/fuzz/seeds.ts';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string' },
    seed: { type: 'string' },
    input: { type: 'string' },
  },
});
const inputs = Number(values.inputs ?? 20_000);
const seed = Number(values.seed ?? 1);
const only = values.input === undefined ? undefined : Number(values.input);
if (
  !Number.isInteger(inputs) ||
  inputs < 1 ||
  !Number.isInteger(seed) ||
  (only !== undefined && !(Number.isInteger(only) && only >= 0))
) {
  console.error('fuzz: --inputs takes a count from 1, --seed an integer, --input an index from 0');
  process.exit(2);
}

const seeds = fuzzSeeds();

if (only !== undefined) {
  const text = inputAt(seeds, seed, only);
  const started = performance.now();
  const c = classify(text);
  const ms = performance.now() - started;
  console.log(
    `fuzz: input ${only} of seed ${seed}, ${text.length} chars: ${c.verdict}${c.why ? ` (${c.why})` : ''}, ${ms.toFixed(0)} ms`,
  );
  console.log(text);
  process.exit(c.verdict === 'other' || c.verdict === 'over' ? 1 : 0);
}

const slowest: { ms: number; index: number; verdict: Verdict; text: string }[] = [];
let last = performance.now();
const started = last;
const figures = fuzz(seeds, inputs, seed, (text, c, index) => {
  const now = performance.now();
  slowest.push({ ms: now - last, index, verdict: c.verdict, text });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 5);
  last = now;
});
const total = performance.now() - started;

const pct = (n: number) => `${((100 * n) / figures.inputs).toFixed(2)} %`;
const { program, error, other, over } = figures.counts;
console.log(
  `fuzz: ${figures.inputs} inputs from ${seeds.length} seed texts, seed ${seed}, ${(total / 1000).toFixed(1)} s`,
);
console.log(`  program           ${String(program).padStart(7)}  ${pct(program)}`);
console.log(`  positioned error  ${String(error).padStart(7)}  ${pct(error)}`);
console.log(`  other (escaped)   ${String(other).padStart(7)}  ${pct(other)}`);
console.log(`  over the bound    ${String(over).padStart(7)}  ${pct(over)}`);
console.log(
  `slowest inputs (wall time on this machine, a figure, not a bound; --input K shows one again):`,
);
for (const s of slowest)
  console.log(
    `  ${s.ms.toFixed(0).padStart(6)} ms  #${String(s.index).padEnd(6)} ${s.verdict.padEnd(7)}  ${s.text.length} chars: ${JSON.stringify(s.text.slice(0, 60))}…`,
  );
for (const b of figures.broken) console.log(`BROKEN (${b.why}):\n${b.text}\n`);
process.exit(other + over > 0 ? 1 : 0);
