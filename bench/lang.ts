// npm run bench:lang: how fast the language turns text into a machine, which the editor does at
// every pause in typing and the catalogue at every parameter change.
//
// Prints, for each catalogue entry's text at its defaults and for a 200-line program (the
// percpu_counter entry with twelve CPUs, whose threads and CPU walks make it the longest), the
// median time to lex, parse and compile it (both passes, the clauses, the machine), over 200
// compiles after 20 to warm up.

import { compileProgram } from '../src/lang/compile.ts';
import { catalogue, findScenario } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function time(text: string): { ms: number; lines: number } {
  for (let i = 0; i < 20; i++) compileProgram(text);
  const runs: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    const r = compileProgram(text);
    runs.push(performance.now() - t);
    if (!r.ok) throw new Error(JSON.stringify(r.errors[0]));
  }
  return { ms: median(runs), lines: text.split('\n').length };
}

const rows: [string, { ms: number; lines: number }][] = [];
for (const sc of catalogue) rows.push([sc.id, time(sc.text?.(resolveParams(sc, {})) ?? '')]);
const classic = findScenario('percpu-classic');
if (!classic?.text) throw new Error('percpu-classic is missing');
const big = classic.text(resolveParams(classic, { cpus: '12', summer: '11' }));
rows.push(['percpu-classic, 12 CPUs', time(big)]);

console.log(`compile (lex + parse + compile), median of 200 (Node ${process.version})`);
for (const [name, r] of rows)
  console.log(`  ${name.padEnd(24)} ${String(r.lines).padStart(4)} lines  ${r.ms.toFixed(3)} ms`);
