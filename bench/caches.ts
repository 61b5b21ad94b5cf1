// npm run bench:caches: what the explorer's cache of components (src/explore/transitions.ts)
// buys, entry by entry. Each catalogue entry (default parameters, every variant, no migrations
// and no hotplug: where the cache runs) and global-plain at the sizes `bench:spin` uses are
// explored in this process with the cache on and off, in turn, --rounds times (3), after one
// unmeasured run of each; the table gives each side's median and the median of the rounds'
// ratios. Entries whose search takes under 20 ms without the cache (median of the rounds) are
// left out: their ratio is noise.
//
//   npm run bench:caches -- [--rounds N] [--only id,id]

import { parseArgs } from 'node:util';
import { explore } from '../src/explore/explore.ts';
import { type CatalogueCase, catalogueCases } from '../src/explore/testkit.ts';
import { findScenario } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';
import type { Scenario } from '../src/scenarios/types.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, only: { type: 'string' } },
});
const rounds = Number(values.rounds);
if (!(rounds >= 1)) throw new Error('--rounds takes a count');
const only = values.only?.split(',');

interface Case extends CatalogueCase {
  readonly name: string;
}

// The cache runs where tasks stay on their CPUs: no migrations, no hotplug.
const cases: Case[] = catalogueCases((sc) => [
  { ...sc.bounds, migrations: 0, hotplugs: 0, switches: Infinity },
])
  .filter((c) => !only || only.includes(c.sc.id))
  .map((c) => ({
    ...c,
    name: c.set.variant === undefined ? c.sc.id : `${c.sc.id} ${c.set.variant}`,
  }));
const plain = findScenario('global-plain') as Scenario;
const none = { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: Infinity };
if (!only || only.includes('global-plain'))
  for (const [cpus, adds] of [
    [3, 5],
    [3, 6],
    [4, 3],
  ] as const)
    cases.push({
      name: `global-plain ${String(cpus)} × ${String(adds)}`,
      sc: plain,
      set: { cpus: String(cpus), iterations: String(adds), initial: '0' },
      bounds: none,
    });

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

console.log(`The explorer with its cache on and off, ${String(rounds)} rounds each, in turn`);
console.log('');
console.log('| entry | states | on, ms | off, ms | on ÷ off (range) |');
console.log('|---|---|---|---|---|');
for (const c of cases) {
  const p = resolveParams(c.sc, c.set);
  const run = (caches: 'on' | 'off') => {
    const t0 = performance.now();
    const r = explore(c.sc, p, c.bounds, { caches, maxStates: 5_000_000 });
    return { ms: performance.now() - t0, states: r.stats.states };
  };
  const first = run('on');
  run('off');
  const on: number[] = [];
  const off: number[] = [];
  const ratio: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const a = run('on').ms;
    const b = run('off').ms;
    on.push(a);
    off.push(b);
    ratio.push(a / b);
  }
  if (median(off) < 20) continue;
  const range = `${Math.min(...ratio).toFixed(2)}–${Math.max(...ratio).toFixed(2)}`;
  console.log(
    `| ${c.name} | ${first.states.toLocaleString('en')} | ${median(on).toFixed(0)} | ` +
      `${median(off).toFixed(0)} | **${median(ratio).toFixed(2)}** (${range}) |`,
  );
}
