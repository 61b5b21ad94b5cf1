// npm run fuzz -- [--inputs N] [--seed S]: the language's promise (src/explore/fuzz.ts) on N
// mutants of the catalogue's programs and the litmus files in test/fuzz/litmus, seeded by S.
// Prints the figures (inputs, % program, % positioned error, other, over the bound), the slowest
// inputs, and every input that broke the promise. Exit 1 when one did.

import { parseArgs } from 'node:util';
import { fuzz, type Verdict } from '../src/explore/fuzz.ts';
import { fuzzSeeds } from '../test/fuzz/seeds.ts';

const { values } = parseArgs({
  options: { inputs: { type: 'string' }, seed: { type: 'string' } },
});
const inputs = Number(values.inputs ?? 20_000);
const seed = Number(values.seed ?? 1);
if (!Number.isInteger(inputs) || inputs < 1 || !Number.isInteger(seed)) {
  console.error('fuzz: --inputs takes a count from 1, --seed an integer');
  process.exit(2);
}

const seeds = fuzzSeeds();
const slowest: { ms: number; verdict: Verdict; text: string }[] = [];
let last = performance.now();
const started = last;
const figures = fuzz(seeds, inputs, seed, (text, c) => {
  const now = performance.now();
  slowest.push({ ms: now - last, verdict: c.verdict, text });
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
console.log('slowest inputs (wall time on this machine, a figure, not a bound):');
for (const s of slowest)
  console.log(
    `  ${s.ms.toFixed(0).padStart(6)} ms  ${s.verdict.padEnd(7)}  ${s.text.length} chars: ${JSON.stringify(s.text.slice(0, 60))}…`,
  );
for (const b of figures.broken) console.log(`BROKEN (${b.why}):\n${b.text}\n`);
process.exit(other + over > 0 ? 1 : 0);
