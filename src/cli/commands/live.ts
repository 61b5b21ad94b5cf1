// `lab live <id>`: the scenario's programs on real worker threads racing on a SharedArrayBuffer,
// as the browser's Live mode runs them, then the verdict at rest. With --witness, --schedule or
// --all-witnesses: lockstep replay on the threads, compared word by word with the model.

import { availableParallelism } from 'node:os';
import { DEFAULT_HOTPLUG_RATE, MAX_HOTPLUG_RATE, noInterference } from '../../live/control.ts';
import { formatRate } from '../../live/format.ts';
import { liveParams } from '../../live/liveParams.ts';
import { defaultCpus, liveSpecOf, liveSpecs, MAX_LIVE_CPUS } from '../../live/specs.ts';
import { parseSchedule, ScheduleSyntaxError } from '../../machine/schedule.ts';
import { jsonObservables } from '../../scenarios/outcome.ts';
import type { Params, Scenario } from '../../scenarios/types.ts';
import { paramsText } from '../../scenarios/params.ts';
import { intOption, paramsArg, parseCommand, scenarioArg } from '../args.ts';
import { didYouMean } from '../suggest.ts';
import { shownName } from '../../scenarios/program.ts';
import { loadOf } from '../../live/load.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';
import { lockstepOnThreads, runLive } from '../live/threads.ts';
import { ENGINES, type EngineKind, TIERS, type Tier } from '../../live/engine/engine.ts';

import { didNotStop, groupDigits, stoppedShort } from '../../live/messages.ts';
import {
  atRestSentence,
  exactWords,
  hotplugSentence,
  instructionRates,
  judgedOnlyAtRest,
  lostSentence,
  NOT_COUNTED,
  spinSentence,
  tierWords,
} from '../../live/verdict.ts';
import { messageOf } from '../../machine/errors.ts';

/** A count for people, as the verdict sentence writes it: 316,477,491. */
const num = (v: number | bigint) => v.toLocaleString('en-US');

/** --engine compiled|interpreted (default compiled). */
function engineOption(text: string | undefined): EngineKind {
  if (text === undefined) return 'compiled';
  const found = ENGINES.find((e) => e === text);
  if (!found) throw new UsageError(`--engine takes ${ENGINES.join(' or ')}, got '${text}'`);
  return found;
}

/** --tier bare|exact (default bare: compiled CPUs run bare while no event can fall due). */
function tierOption(text: string | undefined): Tier {
  if (text === undefined) return 'bare';
  const found = TIERS.find((t) => t === text);
  if (!found) throw new UsageError(`--tier takes ${TIERS.join(' or ')}, got '${text}'`);
  return found;
}

export async function liveCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parseCommand(
    argv,
    {
      set: { type: 'string', multiple: true },
      preset: { type: 'string' },
      json: { type: 'boolean' },
      seconds: { type: 'string' },
      cpus: { type: 'string' },
      'irq-rate': { type: 'string' },
      'nmi-rate': { type: 'string' },
      'migration-rate': { type: 'string' },
      'period-us': { type: 'string' },
      'hotplug-rate': { type: 'string' },
      seed: { type: 'string' },
      witness: { type: 'string' },
      schedule: { type: 'string' },
      'all-witnesses': { type: 'boolean' },
      engine: { type: 'string' },
      tier: { type: 'string' },
    },
    { positionals: 1 },
  );
  const sc = scenarioArg(positionals[0]);
  const json = values.json === true;
  if (values.witness !== undefined || values.schedule !== undefined || values['all-witnesses']) {
    return lockstepRun(sc, values.set, values.preset, values.witness, values.schedule, json);
  }
  const spec = liveSpecOf(sc.id);
  if (!spec) {
    throw new UsageError(
      `${shownName(sc)} does not run free on the workers (its outcome is one interleaving, not a growing count); replay its witnesses with --witness or --all-witnesses. Live scenarios: ${liveSpecs.map((s) => s.id).join(', ')}`,
    );
  }
  const seconds = values.seconds === undefined ? 2 : Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `--seconds takes a number above 0 and at most 3600, got '${String(values.seconds)}'`,
    );
  }
  // The page's default: a race needs two CPUs, even on a machine of two cores.
  const cpus = intOption(
    'cpus',
    values.cpus,
    defaultCpus(availableParallelism()),
    MAX_LIVE_CPUS,
    1,
  );
  // Unknown names and bad values are refused as everywhere else; the loop's values then apply.
  const sets = values.set ?? [];
  paramsArg(sc, sets, values.preset);
  const choices = Object.fromEntries(sets.map((s) => s.split('=', 2) as [string, string]));
  let params: Params;
  try {
    params = liveParams(sc.id, cpus, choices, { preset: values.preset });
  } catch (e) {
    throw new UsageError(messageOf(e));
  }
  const settings = {
    ...noInterference,
    irqRate: intOption('irq-rate', values['irq-rate'], 0, 1_000_000),
    nmiRate: intOption('nmi-rate', values['nmi-rate'], 0, 1_000_000),
    migrationRate: intOption('migration-rate', values['migration-rate'], 0, 1_000_000),
    periodUs: intOption('period-us', values['period-us'], 1000, 10_000_000),
    // The page's default for a program with hotplug (it acts only on CPUs with dead callbacks).
    hotplugRate: intOption(
      'hotplug-rate',
      values['hotplug-rate'],
      spec.hotplug === true ? DEFAULT_HOTPLUG_RATE : 0,
      MAX_HOTPLUG_RATE,
    ),
  };
  const seed = intOption('seed', values.seed, 1, 2 ** 31 - 1);
  const engine = engineOption(values.engine);
  const tier = tierOption(values.tier);
  const {
    reading: r,
    verdict,
    outcome,
    run,
  } = await runLive(sc.id, params, settings, seconds * 1000, seed, engine, tier);
  const stopped = outcome.kind === 'stopped';
  const machine = run.machine;
  const secs = r.ms / 1000;
  const doc = {
    scenario: sc.id,
    params,
    cpus: machine.cpus,
    engine: r.engine,
    tier: r.tier,
    settings,
    seconds: secs,
    stopped,
    failure: outcome.kind === 'failed' ? outcome.message : null,
    terminal: verdict.terminal,
    perCpu: r.cpus.map((c, k) => ({
      ...c,
      operationsPerSecond: (c.adds + c.calls) / Math.max(secs, 1e-9),
      // The bare tier counts operations, not instructions (null: not counted).
      instructionsPerSecond: instructionRates(r)[k] ?? null,
    })),
    exact: r.exact,
    value: r.value,
    lost: r.lost,
    read: r.read,
    sum: r.sum,
    retries: r.retries,
    maxRetriesPerCall: r.maxRetriesPerCall,
    hotplugs: r.hotplugs,
    offline: r.offline,
    observables: jsonObservables(r.observables),
    violations: verdict.violations,
    judgedOnlyAtRest: judgedOnlyAtRest(sc),
  };
  if (json) return toJson(doc);
  const out = [
    `${shownName(sc)} live: ${String(machine.cpus)} CPU threads, ${String(r.engine)}, ${tierWords(r.tier)}, for ${secs.toFixed(2)} s`,
  ];
  // Told, as the page tells it: with this many threads a slow figure is starvation, not a bug.
  const load = loadOf(machine.cpus, availableParallelism(), settings);
  if (load.warning) out.push(`  warning: ${load.warning}`);
  doc.perCpu.forEach((c, k) => {
    out.push(
      `  CPU${String(k)}  ${formatRate(c.operationsPerSecond)} operations/s (${formatRate(c.adds)} adds, ${formatRate(c.calls)} calls), ${c.instructionsPerSecond === null ? `instructions ${NOT_COUNTED}` : `${formatRate(c.instructionsPerSecond)} instructions/s`}${c.spins > 0 ? `, ${formatRate(c.spins)} lock spins` : ''}`,
    );
  });
  out.push(
    `  ${exactWords(r)}, counter in memory ${num(r.value)}, ${
      Number(r.lost) < 0 ? `counted twice ${num(-Number(r.lost))}` : `lost updates ${num(r.lost)}`
    }`,
  );
  if (verdict.terminal) out.push(`  ${lostSentence(r)}`);
  const spun = spinSentence(r);
  if (spun) out.push(`  ${spun}`);
  out.push(
    `  folds ${num(r.total.folds)}, sequence bumps ${num(r.total.bumps)}, sum retries ${num(r.retries)} (at most ${num(r.maxRetriesPerCall)} in one call), IRQs ${num(r.total.irqs)}, migrations ${num(r.total.migrations)}`,
  );
  if (r.hotplugs !== null) out.push(`  ${hotplugSentence(r.hotplugs, r.offline)}`);
  if (r.read)
    out.push(
      `  read() ${num(r.read.value)}: error ${num(r.read.error)}, band ±${num(r.read.bound)}`,
    );
  if (outcome.kind === 'failed') out.push(`  the run failed: ${outcome.message}`);
  else if (outcome.kind === 'stuck')
    out.push(`  ${didNotStop(outcome.running)} (stuck: a lock nobody releases?)`);
  else if (!verdict.terminal) out.push('  the CPUs did not come to rest: invariants not judged');
  else if (verdict.violations.length === 0) out.push('  every invariant holds at rest');
  for (const v of verdict.violations) out.push(`  violated ${v.id}: ${groupDigits(v.reason)}`);
  const unseen = verdict.terminal ? atRestSentence(sc) : null;
  if (unseen) out.push(`  note: ${unseen}`);
  return out.join('\n');
}

async function lockstepRun(
  sc: Scenario,
  sets: readonly string[] | undefined,
  preset: string | undefined,
  witness: string | undefined,
  schedule: string | undefined,
  json: boolean,
): Promise<string> {
  const jobs: { label: string; params: Params; schedule: string }[] = [];
  if (schedule !== undefined)
    jobs.push({ label: 'schedule', params: paramsArg(sc, sets, preset), schedule });
  else if (witness !== undefined) {
    const w = sc.witnesses.find((x) => x.name === witness);
    if (!w) {
      throw new UsageError(
        `${sc.id} has no witness '${witness}'${didYouMean(
          witness,
          sc.witnesses.map((x) => x.name),
        )}; witnesses: ${sc.witnesses.map((x) => x.name).join(', ')}`,
      );
    }
    jobs.push({
      label: w.name,
      params: paramsArg(sc, witnessSets(w.params)),
      schedule: w.schedule,
    });
  } else {
    for (const w of sc.witnesses) {
      jobs.push({
        label: w.name,
        params: paramsArg(sc, witnessSets(w.params)),
        schedule: w.schedule,
      });
    }
  }
  const results = [];
  for (const job of jobs) {
    let events: number[];
    try {
      events = parseSchedule(job.schedule);
    } catch (e) {
      if (e instanceof ScheduleSyntaxError) throw new UsageError(e.message, e.position);
      throw e;
    }
    const r = await lockstepOnThreads(sc.id, job.params, events);
    results.push({
      name: job.label,
      schedule: job.schedule,
      result: r.result,
      difference: r.difference,
      words: r.words,
      agreed: r.result.kind === 'done' && r.difference === null,
    });
  }
  if (json) return toJson({ scenario: sc.id, lockstep: results });
  return results
    .map((x) => {
      const r = x.result;
      // Where it stopped short in the page's words; the rest tersely, one line per replay.
      const what =
        r.kind !== 'done'
          ? stoppedShort(r)
          : x.difference
            ? `model and hardware differ: ${x.difference}`
            : `model and hardware agree (${String(r.events)} events, ${String(x.words)} words)`;
      return `${sc.id} / ${x.name}: ${what}`;
    })
    .join('\n');
}

/** A witness's parameters as --set assignments. */
function witnessSets(p: Params): string[] {
  return Object.entries(paramsText(p)).map(([k, v]) => `${k}=${v}`);
}
