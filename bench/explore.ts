// npm run bench:explore: how far exhaustive exploration goes, as a model checker's ladder.
//
// Series: global-plain with 2, 3 and 4 CPUs × 1–8 iterations; percpu-classic and percpu-seq with
// 3 and 4 CPUs × 1, 2, 3… adds per CPU (no summer in between: adders and one sum). No
// interventions: every interleaving of the steps, as SPIN explores an equivalent Promela model.
// Each rung runs without and with the reductions (--symmetry --por) and prints states,
// transitions, seconds, states/s and bytes a state (what the visited set and queue hold). A
// series stops after the first rung that takes longer than --limit seconds (60) or stops at the
// memory limit.
//
// Options: --limit S, --max-memory MB (1024, the product's default), --only <scenario>,
// --memory sc|tso (the memory model: tso gives each CPU a store buffer, and flushes are choices).

import { parseArgs } from 'node:util';
import { explore, type ExploreResult } from '../src/explore/explore.ts';
import { findScenario } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';

const { values } = parseArgs({
  options: {
    limit: { type: 'string', default: '60' },
    'max-memory': { type: 'string', default: '1024' },
    only: { type: 'string' },
    memory: { type: 'string', default: 'sc' },
  },
});
const memory = values.memory;
if (memory !== 'sc' && memory !== 'tso') throw new Error('--memory takes sc or tso');
const limitMs = Number(values.limit) * 1000;
const maxMemoryMB = Number(values['max-memory']);
if (!(limitMs > 0) || !(maxMemoryMB > 0)) throw new Error('--limit and --max-memory take numbers');

interface Series {
  readonly scenario: string;
  readonly cpus: number;
  /** The parameter that grows, and its values. */
  readonly grows: 'iterations' | 'adds';
  readonly steps: readonly number[];
  readonly fixed: Readonly<Record<string, string>>;
}

const series: Series[] = [];
for (const cpus of [2, 3, 4]) {
  series.push({
    scenario: 'global-plain',
    cpus,
    grows: 'iterations',
    steps: [1, 2, 3, 4, 5, 6, 7, 8],
    fixed: { initial: '0' },
  });
}
for (const scenario of ['percpu-classic', 'percpu-seq']) {
  for (const cpus of [3, 4]) {
    series.push({
      scenario,
      cpus,
      grows: 'adds',
      steps: [1, 2, 3, 4, 5, 6, 7, 8],
      // The last CPU sums once; the others add.
      fixed: { summer: String(cpus - 1) },
    });
  }
}

const none = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: Infinity };

function row(label: string, r: ExploreResult, ms: number): string {
  const rate = Math.round(r.stats.states / (ms / 1000));
  const perState = (r.stats.bytes / r.stats.states).toFixed(0);
  const end = r.complete ? 'complete' : `INCOMPLETE (${r.stopped ?? ''})`;
  return `  ${label.padEnd(26)} ${String(r.stats.states).padStart(10)} ${String(r.stats.transitions).padStart(11)} ${(ms / 1000).toFixed(2).padStart(8)} ${String(rate).padStart(10)} ${perState.padStart(6)}  ${end}`;
}

console.log(`Node ${process.version}; limit ${limitMs / 1000} s a rung, memory ${maxMemoryMB} MB`);
console.log(
  `  ${'rung'.padEnd(26)} ${'states'.padStart(10)} ${'transitions'.padStart(11)} ${'seconds'.padStart(8)} ${'states/s'.padStart(10)} ${'B/st'.padStart(6)}`,
);
// Warm the JIT up on a small run so the first rung is not timed cold.
{
  const sc = findScenario('global-plain');
  if (sc) explore(sc, resolveParams(sc, { cpus: '3', iterations: '3' }), none);
}
for (const s of series) {
  if (values.only && s.scenario !== values.only) continue;
  const sc = findScenario(s.scenario);
  if (!sc) throw new Error(`${s.scenario} is missing`);
  console.log(`${s.scenario}, ${s.cpus} CPUs:`);
  for (const n of s.steps) {
    const p = resolveParams(sc, { ...s.fixed, memory, cpus: String(s.cpus), [s.grows]: String(n) });
    let slow = false;
    for (const [name, opts] of [
      ['', {}],
      [' --symmetry --por', { symmetry: true, por: true }],
    ] as const) {
      const t0 = performance.now();
      const r = explore(sc, p, none, { ...opts, maxMemoryMB });
      const ms = performance.now() - t0;
      const label = `${s.cpus} × ${n} ${s.grows}${name}`;
      const used = Object.entries(r.reductions)
        .filter(([, u]) => !u.on)
        .map(([k]) => `${k} off`)
        .join(', ');
      console.log(row(label, r, ms) + (used ? `  (${used})` : ''));
      if (name === '' && (ms > limitMs || !r.complete)) slow = true;
    }
    if (slow) break;
  }
}
