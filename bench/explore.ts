// npm run bench:explore: how fast exhaustive exploration runs in Node.
//
// Prints states per second for percpu-classic with 3 CPUs, batch 4 and a summer, then the time
// to explore every scenario at its default parameters and explore bounds.

import { explore } from '../src/explore/explore.ts';
import { catalogue, findScenario } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';

const unbounded = { switches: Infinity };

const classic = findScenario('percpu-classic');
if (!classic) throw new Error('percpu-classic is missing');
const p = resolveParams(classic, { cpus: '3', batch: '4', summer: '2', adds: '3' });
explore(classic, p, { ...classic.bounds, ...unbounded }); // warm up the JIT
const r = explore(classic, p, { ...classic.bounds, ...unbounded });
const rate = (r.stats.states / Math.max(1, r.stats.ms)) * 1000;
console.log(
  `percpu-classic, 3 CPUs, batch 4, 2 adders × 3 adds and a summer, bounds ${JSON.stringify(classic.bounds)}:`,
);
console.log(
  `  ${r.stats.states} states, ${r.stats.transitions} transitions in ${r.stats.ms} ms: ${(rate / 1e6).toFixed(2)} M states/s, ${r.outcomes.length} outcomes`,
);

console.log('\nevery scenario at its default parameters and bounds:');
let total = 0;
for (const sc of catalogue) {
  const t = explore(sc, resolveParams(sc), { ...sc.bounds, ...unbounded });
  total += t.stats.ms;
  const broken = t.outcomes.filter((o) => o.violations.length > 0).length + t.always.length;
  console.log(
    `  ${sc.id.padEnd(22)} ${String(t.stats.states).padStart(8)} states ${String(t.stats.ms).padStart(6)} ms  ${t.outcomes.length} outcomes, ${broken} violating${t.complete ? '' : ' (INCOMPLETE)'}`,
  );
}
console.log(`  total ${total} ms`);
