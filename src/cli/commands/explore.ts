// `lab explore <id>`: every interleaving within bounds, each outcome with its cheapest witness
// (fewest interventions, then switches, then steps).

import { parseArgs } from 'node:util';
import { type Bounds, explore } from '../../explore/explore.ts';
import { exploreJson } from '../../explore/json.ts';
import { intOption, paramsArg, parseCommand, scenarioArg, scenarioOptions } from '../args.ts';
import { toJson } from '../json.ts';

export function exploreCommand(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(() =>
    parseArgs({
      args: [...argv],
      options: {
        ...scenarioOptions,
        irqs: { type: 'string' },
        nmis: { type: 'string' },
        preemptions: { type: 'string' },
        migrations: { type: 'string' },
        switches: { type: 'string' },
        'max-states': { type: 'string' },
        simplest: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    }),
  );
  const sc = scenarioArg(positionals[0]);
  const params = paramsArg(sc, values.set, values.preset);
  const bounds: Bounds = {
    irqs: intOption('irqs', values.irqs, sc.bounds.irqs, 8),
    nmis: intOption('nmis', values.nmis, sc.bounds.nmis, 8),
    preemptions: intOption('preemptions', values.preemptions, sc.bounds.preemptions, 8),
    migrations: intOption('migrations', values.migrations, sc.bounds.migrations, 8),
    switches:
      values.switches === undefined ? Infinity : intOption('switches', values.switches, 0, 1000),
  };
  const maxStates = intOption('max-states', values['max-states'], 2_000_000, 50_000_000);
  const r = explore(sc, params, bounds, { maxStates, simplest: values.simplest === true });
  const j = exploreJson(r);
  const outcomes = j.outcomes;
  const doc = {
    scenario: sc.id,
    params,
    bounds: { ...bounds, switches: Number.isFinite(bounds.switches) ? bounds.switches : null },
    complete: j.complete,
    simplest: values.simplest === true,
    stats: j.stats,
    outcomes,
    always: j.always,
    livelocks: j.livelocks,
  };
  if (values.json) return toJson(doc);
  const b = doc.bounds;
  const simplest = values.simplest === true;
  const ending = r.complete
    ? ''
    : simplest
      ? ' (stopped at the simplest violation)'
      : ' (INCOMPLETE: state limit reached)';
  const out = [
    `${sc.id}: ${r.stats.states} states, ${r.stats.transitions} transitions in ${r.stats.ms} ms${ending}`,
    `bounds: irqs ${b.irqs}, nmis ${b.nmis}, preemptions ${b.preemptions}, migrations ${b.migrations}, switches ${b.switches ?? 'unbounded'}`,
    '',
  ];
  for (const o of simplest ? outcomes.filter((x) => x.violations.length > 0) : outcomes) {
    const obs = Object.entries(o.observables)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(' ');
    const verdict = o.violations.length
      ? `violates ${o.violations.map((v) => v.id).join(', ')}`
      : 'ok';
    out.push(`${obs}  (${verdict})`, `    witness (${o.witnessSteps} events): "${o.witness}"`);
  }
  for (const a of doc.always)
    out.push(`ALWAYS ${a.id} broken: ${a.reason}`, `    witness: "${a.witness}"`);
  for (const l of doc.livelocks) {
    out.push(
      'LIVELOCK: a sum keeps running and never returns, every CPU being scheduled',
      `    reach it: "${l.witness}"`,
      `    then repeat: "${l.cycle}"`,
    );
  }
  return out.join('\n');
}
