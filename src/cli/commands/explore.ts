// `lab explore <id>`: every interleaving within bounds, each outcome with its cheapest witness
// (fewest interventions, then switches, then steps).

import { type Bounds, explore, type StopReason } from '../../explore/explore.ts';
import type { ExploreProgress } from '../../explore/result.ts';
import { exploreJson } from '../../explore/json.ts';
import { exploreWithPool, oneShardOnly } from '../../explore/shards/coordinator.ts';
import { searchSetup } from '../../explore/setup.ts';
import { defaultWorkers, startShards } from '../explore/shards.ts';
import { DEFAULT_MAX_MEMORY_MB, MAX_SHARDS } from '../../explore/limits.ts';
import { brokenIn, unshown } from '../../explore/teach.ts';
import { violationWithReason } from '../../scenarios/judge.ts';
import { refusalAdvice } from '../../axiomatic/refusalAdvice.ts';
import { shownName } from '../../scenarios/program.ts';
import {
  intOption,
  modelOf,
  paramsArg,
  parseCommand,
  scenarioArg,
  scenarioOptions,
} from '../args.ts';
import { toJson } from '../json.ts';
import { observablesLine, shownObservables } from '../../scenarios/outcome.ts';
import { AxiomaticRefusal } from '../../axiomatic/check.ts';
import { judgedWords } from '../../axiomatic/judgedWords.ts';
import { type AxiomaticAnswer, axiomaticAnswer } from '../../axiomatic/outcomes.ts';
import { isAxiomatic } from '../../scenarios/textScenario.ts';
import type { Params, Scenario } from '../../scenarios/types.ts';
import { UsageError } from '../errors.ts';
import { LIMITS } from '../../lang/module.ts';
import { count } from '../../machine/count.ts';

/** The hotplug bound, as a field only when asked for or the scenario has one (else no key). */
function hotplugBound(value: string | undefined, fallback: number): { hotplugs?: number } {
  const n = intOption('hotplugs', value, fallback, LIMITS.bound);
  return value === undefined && n === 0 ? {} : { hotplugs: n };
}

export async function exploreCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parseCommand(
    argv,
    {
      ...scenarioOptions,
      irqs: { type: 'string' },
      nmis: { type: 'string' },
      preemptions: { type: 'string' },
      migrations: { type: 'string' },
      hotplugs: { type: 'string' },
      switches: { type: 'string' },
      'max-states': { type: 'string' },
      'max-memory': { type: 'string' },
      simplest: { type: 'boolean' },
      symmetry: { type: 'boolean' },
      por: { type: 'boolean' },
      quiet: { type: 'boolean' },
      'progress-ms': { type: 'string' },
      workers: { type: 'string' },
    },
    { positionals: 1 },
  );
  const sc = scenarioArg(positionals[0]);
  const params = paramsArg(sc, values.set, values.preset, values.memory);
  if (isAxiomatic(params)) return axiomaticExplore(sc, params, values.json === true);
  const bounds: Bounds = {
    // The language's limit (#pragma lab bounds … each 0 to 15): one range wherever it is set.
    irqs: intOption('irqs', values.irqs, sc.bounds.irqs, LIMITS.bound),
    nmis: intOption('nmis', values.nmis, sc.bounds.nmis, LIMITS.bound),
    preemptions: intOption('preemptions', values.preemptions, sc.bounds.preemptions, LIMITS.bound),
    migrations: intOption('migrations', values.migrations, sc.bounds.migrations, LIMITS.bound),
    // CPU hotplug events (offline k, online k): only programs with DEADk() callbacks have any.
    ...hotplugBound(values.hotplugs, sc.bounds.hotplugs ?? 0),
    switches:
      values.switches === undefined ? Infinity : intOption('switches', values.switches, 0, 1000),
  };
  const maxStates =
    values['max-states'] === undefined
      ? Infinity
      : intOption('max-states', values['max-states'], 0, 60_000_000);
  const maxMemoryMB = intOption('max-memory', values['max-memory'], DEFAULT_MAX_MEMORY_MB, 65_536);
  const asked = intOption('workers', values.workers, defaultWorkers(), MAX_SHARDS, 1);
  const options = {
    maxStates,
    maxMemoryMB,
    simplest: values.simplest === true,
    symmetry: values.symmetry === true,
    por: values.por === true,
    progress:
      values.quiet === true
        ? undefined
        : progressLine(intOption('progress-ms', values['progress-ms'], 1000, 3_600_000)),
  };
  // Several workers, unless the search must stay in one place (shards/coordinator.ts says when).
  const alone =
    asked > 1 ? oneShardOnly(searchSetup(sc, params, bounds, options)) : 'one was asked for';
  const workers = alone === null ? asked : 1;
  const ran =
    workers > 1
      ? await exploreWithPool(sc, params, bounds, options, workers, startShards)
      : { result: explore(sc, params, bounds, options), workers: 1 };
  const r = ran.result;
  const j = exploreJson(r);
  const outcomes = j.outcomes;
  // What the variant gives up and this complete run never showed broken, and the preset that does.
  const missing = r.complete ? unshown(sc, params, brokenIn(j)) : { invariants: [] };
  const doc = {
    scenario: sc.id,
    memory: modelOf(params),
    params,
    bounds: { ...bounds, switches: Number.isFinite(bounds.switches) ? bounds.switches : null },
    complete: j.complete,
    stopped: j.stopped,
    simplest: values.simplest === true,
    reductions: j.reductions,
    workers: workersUsed(asked, alone, ran.workers),
    stats: j.stats,
    outcomes,
    always: j.always,
    livelocks: j.livelocks,
    unshown: missing,
  };
  if (values.json) return toJson(doc);
  const b = doc.bounds;
  const simplest = values.simplest === true;
  const out = [
    `${shownName(sc)} under ${doc.memory}: ${plain(r.stats.states, 'state')}, ${plain(r.stats.transitions, 'transition')} in ${r.stats.ms} ms${ending(r.stopped, r.stats, maxMemoryMB)}`,
    `bounds: irqs ${b.irqs}, nmis ${b.nmis}, preemptions ${b.preemptions}, migrations ${b.migrations}${b.hotplugs !== undefined ? `, hotplugs ${b.hotplugs}` : ''}, switches ${b.switches ?? 'unbounded'}`,
  ];
  for (const [name, use] of Object.entries(r.reductions)) {
    out.push(`${name}: ${use.on ? 'on' : `off (${use.why ?? ''})`}`);
  }
  if (asked > 1) {
    const w = doc.workers;
    out.push(`workers: ${String(w.count)}${w.why === undefined ? '' : ` (${w.why})`}`);
  }
  out.push('');
  for (const o of simplest ? outcomes.filter((x) => x.violations.length > 0) : outcomes) {
    const obs = observablesLine(shownObservables(sc, params, o.observables));
    const verdict = o.violations.length
      ? `violates ${o.violations.map(violationWithReason).join('; ')}`
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
  if (missing.invariants.length > 0) {
    out.push(
      `NOTE: this variant gives up ${missing.invariants.join(', ')}, which no schedule within these bounds breaks with these parameters${missing.preset ? `; --preset ${missing.preset.name} shows it (${missing.preset.description})` : ''}`,
    );
  }
  return out.join('\n');
}

/**
 * `lab explore --memory lkmm`: the kernel's memory model judges whole executions, so there is
 * no interleaving to search: the outcomes are the end states of its consistent executions, each
 * with how many reach it, and herd7's answer when the program has a condition.
 */
function axiomaticExplore(sc: Scenario, params: Params, json: boolean): string {
  let a: AxiomaticAnswer;
  try {
    a = axiomaticAnswer(sc, params);
  } catch (e) {
    if (e instanceof AxiomaticRefusal)
      throw new UsageError(
        `${shownName(sc)}: the kernel's memory model (lkmm) cannot answer this program: ${refusalWords(sc, params, e)}. Try --memory sc or --memory tso.`,
      );
    throw e;
  }
  if (json)
    return toJson({
      scenario: sc.id,
      memory: 'lkmm',
      params,
      ...a,
      herd: a.herd ? { ...a.herd, text: undefined } : null,
    });
  const out = [
    `${shownName(sc)} under lkmm: ${count(a.executions, 'consistent execution')} of ${judgedWords(a)}, ${count(a.outcomes.length, 'outcome')}, in ${Math.round(a.ms)} ms`,
    ...(a.loopCut
      ? ['Loop: runs past a loop bound were left out (raise #pragma lab loop_bound)']
      : []),
    ...a.flags.map((f) => `Flag ${f}`),
    ...a.races.map((r) => `Data race: ${r.sentence}`),
    ...(a.marked
      ? [
          `With the racing accesses marked (READ_ONCE()/WRITE_ONCE()): ${count(a.marked.outcomes, 'outcome')}, ${a.marked.broken.length > 0 ? `breaking ${a.marked.broken.join(', ')}` : 'no invariant broken'}${a.marked.flags.includes('data-race') ? ', still a data race' : ', no data race'}`,
        ]
      : []),
    ...a.notJudged.map((n) => `Not judged under lkmm: ${n.id}, because ${n.why}`),
    '',
  ];
  for (const o of a.outcomes) {
    const verdict = o.violations.length
      ? `violates ${o.violations.map((v) => v.id).join(', ')}`
      : 'ok';
    // The registers' end state, as herd7 prints it, where the program has registers to show.
    out.push(
      `${observablesLine(o.observables)}  (${verdict})`,
      `    ${count(o.executions, 'execution')}${o.state === '' ? '' : `: ${o.state}`}`,
    );
  }
  if (a.herd) out.push('', a.herd.text);
  return out.join('\n');
}

/**
 * A refusal's advice for what was refused: a program's text takes a pragma (the engine's own
 * words), a catalogue id does not: a smaller parameter, or its text exported to raise the bound.
 */
export function refusalWords(sc: Scenario, params: Params, e: AxiomaticRefusal): string {
  return refusalAdvice(sc, params, e, {
    loopBound: ({ id }) =>
      `a catalogue entry takes no #pragma: \`lab export ${id} > ${id}.c\` writes its text, where #pragma lab loop_bound raises the bound, then \`lab explore ${id}.c --memory lkmm\``,
    setting: (name, value) => `--set ${name}=${String(value)}`,
    parameters: ({ id }) => `lab show ${id} lists them`,
  });
}

/** How many workers searched, and why one when more were asked for. */
function workersUsed(
  asked: number,
  alone: string | null,
  used: number,
): { count: number; why?: string } {
  if (asked > 1 && alone !== null) return { count: 1, why: alone };
  if (asked > 1 && used === 1)
    return { count: 1, why: 'done before the worker threads had started' };
  return { count: used };
}

/** Why an incomplete run stopped, and how far it got: a suffix for the first line. */
/** `n` and its noun, singular for 1, the number as scripts read it (no separators). */
const plain = (n: number, one: string) => `${String(n)} ${n === 1 ? one : `${one}s`}`;

function ending(
  stopped: StopReason | null,
  stats: { states: number; depth: number },
  maxMemoryMB: number,
): string {
  const covered = `covered ${stats.states} states to depth ${stats.depth}`;
  switch (stopped) {
    case null:
      return '';
    case 'simplest':
      return ' (stopped at the simplest violation)';
    case 'max-states':
      return ` (INCOMPLETE: the state limit, checked as each level of cost ends; ${covered})`;
    case 'max-memory':
      return ` (INCOMPLETE: the memory limit of ${maxMemoryMB} MB; ${covered}; raise --max-memory)`;
    case 'cancelled':
      return ` (INCOMPLETE: cancelled; ${covered})`;
    case 'loop-bound':
      return ' (INCOMPLETE: a loop reached its bound on some paths; raise #pragma lab loop_bound)';
  }
}

/**
 * A progress line on stderr about every `every` ms once a run has lasted that long (a second by
 * default, like SPIN's), checked every 4096 states.
 */
function progressLine(every: number): (p: ExploreProgress) => boolean {
  let shown = 0;
  return (p) => {
    if (p.ms < every || p.ms - shown < every) return false;
    shown = p.ms;
    const rate = Math.round(p.states / (p.ms / 1000));
    process.stderr.write(
      `explore: ${p.states} states, ${rate} states/s, ${p.transitions} transitions, depth ${p.depth}, ${Math.round(p.bytes / 1048576)} MB, ${(p.ms / 1000).toFixed(1)} s\n`,
    );
    return false;
  };
}
