// npm run bench:lkmm [-- DIR] [--rounds N]: the axiomatic engine on a directory of litmus tests
// (default: ../shared/litmus/lkmm, herdtools7's 79 Linux-kernel tests) in one process, as herd7
// runs a list of tests: each round compiles and answers every test under the kernel's memory
// model. Prints the median round's total, the slowest test (median over rounds), and candidate
// executions judged per second. For scale: herd7 7.58 (native OCaml) answers the 79 in about
// 5 s on this machine, 0.07 s a test, the slowest 0.34 s.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkLkmm } from '../src/axiomatic/check.ts';
import { compileProgram } from '../src/lang/compile.ts';

const { values, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '5' } },
  allowPositionals: true,
});
const dir = positionals[0] ?? join(import.meta.dirname, '..', '..', 'shared', 'litmus', 'lkmm');
if (!existsSync(dir))
  throw new Error(`no directory ${dir}: give one, as npm run bench:lkmm -- DIR`);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number');
const tests = readdirSync(dir)
  .filter((f) => f.endsWith('.litmus'))
  .sort()
  .map((f) => ({ name: f.replace(/\.litmus$/, ''), text: readFileSync(join(dir, f), 'utf8') }));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const totals: number[] = [];
const perTest = new Map<string, number[]>();
let candidates = 0;
let checkMs = 0;
for (let round = 0; round < rounds; round++) {
  const t0 = performance.now();
  for (const t of tests) {
    const s = performance.now();
    const c = compileProgram(t.text, { memory: 'lkmm' });
    if (!c.ok) throw new Error(`${t.name}: ${c.errors[0]?.message ?? 'does not compile'}`);
    const c0 = performance.now();
    const r = checkLkmm(c.program);
    const e = performance.now();
    // Candidates a second over the last round, when the code is warm.
    if (round === rounds - 1) {
      candidates += r.candidates;
      checkMs += e - c0;
    }
    perTest.set(t.name, [...(perTest.get(t.name) ?? []), e - s]);
  }
  totals.push(performance.now() - t0);
}
const slowest = [...perTest].map(([n, ms]) => [n, median(ms)] as const).sort((a, b) => b[1] - a[1]);
console.log(`Node ${process.version}; ${tests.length} tests from ${dir}; ${rounds} rounds`);
console.log(
  `total a round: median ${(median(totals) / 1000).toFixed(2)} s (min ${(Math.min(...totals) / 1000).toFixed(2)}, max ${(Math.max(...totals) / 1000).toFixed(2)}), ` +
    `${(median(totals) / tests.length).toFixed(1)} ms a test`,
);
console.log('slowest tests (median of rounds):');
for (const [n, ms] of slowest.slice(0, 5)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${n}`);
console.log(
  `candidate executions judged: ${candidates} in ${(checkMs / 1000).toFixed(2)} s of checking (last round): ${Math.round(candidates / (checkMs / 1000))} a second`,
);
