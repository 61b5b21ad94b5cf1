// npm run bench:lkmm-engines [-- DIR] [--only ID,ID] [--skip ID,ID] [--rows] [--fuzz N --seed S]:
// the two engines of memory lkmm side by side (src/axiomatic/check.ts: `candidates`
// enumerates every candidate execution and judges it, `explore` builds execution graphs event
// by event), on a directory of litmus tests (default: ../shared/litmus/lkmm, herdtools7's 79
// Linux-kernel tests; their totals, and each test with --rows) and on every catalogue entry and
// variant. For each: time, consistent executions, what the engine visited that was not
// consistent (candidates judged inconsistent; for `explore`, complete graphs judged
// inconsistent, partial graphs dropped and graphs left blocked), the ratio visited ÷
// consistent, and whether the two answers are the same (end states with their counts and the
// flags; `cut` when only the loop cut differs, which the enumerating engine also reports for
// runs whose guessed values no execution has). With --fuzz N, also N programs fuzzed from the
// catalogue's texts and the litmus files (seed S), compared the same way.
// For scale: herd7 7.58 (native OCaml) answers the 79 in about 5 s on this machine.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { answerKey } from '../src/axiomatic/answerKey.ts';
import {
  AxiomaticRefusal,
  type AxiomaticEngine,
  type AxiomaticLimits,
  type AxiomaticResult,
  checkUnder,
} from '../src/axiomatic/check.ts';
import { generator, mutant } from '../src/explore/fuzz.ts';
import { compileProgram } from '../src/lang/compile.ts';
import type { CompiledProgram } from '../src/lang/compiled.ts';
import { touchesMemory, writesMemory } from '../src/machine/isa.ts';
import { catalogue } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';
import { fuzzSeeds } from '../test/fuzz/seeds.ts';

const { values, positionals } = parseArgs({
  options: {
    only: { type: 'string' },
    skip: { type: 'string' },
    rows: { type: 'boolean', default: false },
    fuzz: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
  allowPositionals: true,
});
const dir = positionals[0] ?? join(import.meta.dirname, '..', '..', 'shared', 'litmus', 'lkmm');
const only = values.only?.split(',');
const skip = values.skip?.split(',') ?? [];
const wanted = (id: string) => (!only || only.includes(id)) && !skip.includes(id);

type Run =
  | { readonly r: AxiomaticResult; readonly ms: number }
  | { readonly refused: string; readonly ms: number };

function run(p: CompiledProgram, engine: AxiomaticEngine, limits?: AxiomaticLimits): Run {
  const t0 = performance.now();
  try {
    const r = checkUnder('lkmm', p, limits, engine);
    return { r, ms: performance.now() - t0 };
  } catch (e) {
    if (e instanceof AxiomaticRefusal) return { refused: e.message, ms: performance.now() - t0 };
    throw e;
  }
}

/** Visited but not consistent, for each engine (see the header). */
function notConsistent(r: AxiomaticResult): number {
  return r.candidates - r.executions + r.pruned;
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const ratio = (r: AxiomaticResult): string =>
  r.executions > 0 ? ((r.executions + notConsistent(r)) / r.executions).toFixed(2) : '-';

function cell(x: Run): string {
  if ('refused' in x) return `${pad(Math.round(x.ms), 8)} ${'refused'.padStart(24)}`;
  return `${pad(Math.round(x.ms), 8)} ${pad(x.r.executions, 7)} ${pad(notConsistent(x.r), 8)} ${pad(ratio(x.r), 7)}`;
}

/** yes, cut (only the loop cut differs), NO, or blank when an engine refused. */
function same(a: Run, b: Run): string {
  if (!('r' in a) || !('r' in b)) return '';
  if (answerKey(a.r) === answerKey(b.r)) return 'yes';
  return answerKey({ ...a.r, loopCut: false }) === answerKey({ ...b.r, loopCut: false })
    ? 'cut'
    : 'NO';
}

const header = `${'program'.padEnd(36)} ${pad('cand ms', 8)} ${pad('exec', 7)} ${pad('not', 8)} ${pad('ratio', 7)} | ${pad('expl ms', 8)} ${pad('exec', 7)} ${pad('not', 8)} ${pad('ratio', 7)} same`;
const refusals = new Map<string, string>();
const line = (name: string, a: Run, b: Run): void => {
  console.log(`${name.slice(0, 36).padEnd(36)} ${cell(a)} | ${cell(b)} ${same(a, b)}`);
  if ('refused' in a) refusals.set(`${name} (candidates)`, a.refused);
  if ('refused' in b) refusals.set(`${name} (explore)`, b.refused);
};

// ---- herd7's litmus tests: the totals, each test with --rows -----------------------------------
if (!only) {
  if (existsSync(dir)) {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.litmus'))
      .sort();
    const t = { cand: 0, expl: 0, differ: 0, exec: 0, notCand: 0, notExpl: 0 };
    if (values.rows) console.log(header);
    for (const f of files) {
      const c = compileProgram(readFileSync(join(dir, f), 'utf8'), { memory: 'lkmm' });
      if (!c.ok) continue;
      const a = run(c.program, 'candidates');
      const b = run(c.program, 'explore');
      t.cand += a.ms;
      t.expl += b.ms;
      if (same(a, b) !== 'yes') t.differ++;
      if ('r' in a) t.notCand += notConsistent(a.r);
      if ('r' in b) {
        t.exec += b.r.executions;
        t.notExpl += notConsistent(b.r);
      }
      if (values.rows) line(f.replace(/\.litmus$/, ''), a, b);
    }
    console.log(
      `${files.length} litmus tests (${dir}): candidates ${(t.cand / 1000).toFixed(2)} s, ${t.notCand} not consistent; explore ${(t.expl / 1000).toFixed(2)} s, ${t.notExpl} not consistent; ${t.exec} executions; answers that differ: ${t.differ}\n`,
    );
  } else console.log(`(no litmus directory ${dir})\n`);
}

// ---- every catalogue entry and variant -----------------------------------------------------------
console.log(header);
const totals = { cand: 0, expl: 0, both: 0, candBoth: 0, explBoth: 0 };
let differ = 0;
for (const sc of catalogue) {
  if (!sc.program || !wanted(sc.id)) continue;
  const variant = sc.params.find((q) => q.name === 'variant');
  const choices = variant && variant.kind === 'choice' ? variant.choices : [null];
  for (const v of choices) {
    const params = resolveParams(sc, { memory: 'lkmm', ...(v === null ? {} : { variant: v }) });
    const p = sc.program(params);
    const a = run(p, 'candidates');
    const b = run(p, 'explore');
    totals.cand += a.ms;
    totals.expl += b.ms;
    if ('r' in a && 'r' in b) {
      totals.both++;
      totals.candBoth += a.ms;
      totals.explBoth += b.ms;
    }
    if (same(a, b) === 'NO') differ++;
    line(v === null ? sc.id : `${sc.id} ${v}`, a, b);
  }
}
console.log(
  `\ncatalogue: candidates ${(totals.cand / 1000).toFixed(2)} s, explore ${(totals.expl / 1000).toFixed(2)} s; on the ${totals.both} both answer: ${(totals.candBoth / 1000).toFixed(2)} s and ${(totals.explBoth / 1000).toFixed(2)} s; answers that differ beyond the loop cut: ${differ}`,
);
if (refusals.size > 0) {
  console.log('refused:');
  for (const [n, why] of refusals) console.log(`  ${n}: ${why}`);
}

// ---- fuzzed programs -------------------------------------------------------------------------------
if (values.fuzz !== undefined) {
  const want = Number(values.fuzz);
  const seeds = [
    ...fuzzSeeds(),
    ...(existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.litmus'))
          .map((f) => readFileSync(join(dir, f), 'utf8'))
      : []),
  ];
  const pick = generator(Number(values.seed));
  // The enumerating engine lists every co order of a location at once: small programs only.
  const limits: AxiomaticLimits = {
    unroll: 2,
    maxRuns: 300,
    maxCombinations: 5000,
    maxCandidates: 5000,
  };
  const count = (p: CompiledProgram, f: (op: number) => boolean) =>
    p.machine.programs.reduce((n, t) => n + t.instrs.filter((i) => f(i.op)).length, 0);
  let compared = 0;
  let cutOnly = 0;
  const bad: string[] = [];
  for (let k = 0; compared < want && k < 100 * want; k++) {
    const text = mutant(seeds[pick(seeds.length)] as string, pick);
    const c = compileProgram(text, { memory: 'lkmm' });
    if (!c.ok || c.program.threads.length > 4) continue;
    if (count(c.program, writesMemory) > 12 || count(c.program, touchesMemory) > 60) continue;
    const a = run(c.program, 'candidates', limits);
    if (!('r' in a)) continue;
    const b = run(c.program, 'explore', limits);
    compared++;
    const s = same(a, b);
    if (s === 'cut' && 'r' in b && b.r.loopCut) bad.push(text);
    else if (s === 'cut') cutOnly++;
    else if (s !== 'yes') bad.push(text);
  }
  console.log(
    `\nfuzzed (seed ${values.seed}): ${compared} programs compared, ${cutOnly} with a loop cut only the enumerating engine reports, ${bad.length} answers that differ`,
  );
  for (const t of bad) console.log(`---\n${t}`);
}
