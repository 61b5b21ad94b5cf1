// `lab bench`: the Scaling view's sweep on Node worker threads. Prints a table (or --json) of
// adds per second against CPUs for each algorithm, with the headline, the machine, and the
// visibility probe that shows compiled plain loads see other threads' stores.

import { availableParallelism, cpus as osCpus } from 'node:os';
import { ENGINES, type EngineKind, TIERS, type Tier } from '../../live/engine/engine.ts';
import { probeText } from '../../live/probe.ts';
import { SLOT_LAYOUTS, type SlotLayout } from '../../live/memory.ts';
import { visibilityProbe } from '../../live/run.ts';
import { reportDocument, reportMarkdown } from '../../live/scaling/export.ts';
import { headline } from '../../live/scaling/headline.ts';
import { runSweep } from '../../live/scaling/measure.ts';
import {
  defaultPlan,
  parseSummer,
  planProblem,
  planSeconds,
  type Summer,
  type SweepPlan,
} from '../../live/scaling/plan.ts';
import { parseCommand } from '../args.ts';
import { UsageError } from '../errors.ts';
import { toJson } from '../json.ts';
import { nodePlatform } from '../live/threads.ts';
import { count } from '../../machine/count.ts';

/** A comma-separated option; an empty item (`1,,2`) is a typing slip, not something to skip. */
function list(name: string, text: string | undefined): string[] | undefined {
  const items = text?.split(',').map((s) => s.trim());
  if (items?.includes('')) throw new UsageError(`--${name} has an empty item in '${text ?? ''}'`);
  return items;
}

function numberOption(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) {
    throw new UsageError(`--${name} takes a number, got '${text}'`);
  }
  return n;
}

/** The flags of a sweep (`lab bench` and `npm run bench` take the same). */
export const benchOptions = {
  scenarios: { type: 'string' },
  cpus: { type: 'string' },
  layout: { type: 'string' },
  summer: { type: 'string' },
  seconds: { type: 'string' },
  warmup: { type: 'string' },
  repeat: { type: 'string' },
  engine: { type: 'string' },
  tier: { type: 'string' },
  preset: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The plan the flags describe, over the defaults for this machine. */
export function benchPlan(values: Record<string, string | boolean | undefined>): SweepPlan {
  const str = (k: string) => (typeof values[k] === 'string' ? values[k] : undefined);
  const base = defaultPlan(availableParallelism());
  const cpus = list('cpus', str('cpus'))?.map((c) => {
    if (!/^\d+$/.test(c)) throw new UsageError(`--cpus takes counts like 1,2,4, got '${c}'`);
    return Number(c);
  });
  const layout = str('layout');
  let layouts: readonly SlotLayout[] = base.layouts;
  if (layout === 'both') layouts = SLOT_LAYOUTS;
  else if (layout !== undefined) {
    const found = SLOT_LAYOUTS.find((l) => l === layout);
    if (!found) throw new UsageError(`--layout takes padded, packed or both, got '${layout}'`);
    layouts = [found];
  }
  const summers = list('summer', str('summer'))?.map((t): Summer => {
    const s = parseSummer(t);
    if (s === null) throw new UsageError(`--summer takes none, busy or a period in µs, got '${t}'`);
    return s;
  });
  const engine = str('engine');
  let engines: readonly EngineKind[] = base.engines;
  if (engine === 'both') engines = ENGINES;
  else if (engine !== undefined) {
    const found = ENGINES.find((e) => e === engine);
    if (!found)
      throw new UsageError(`--engine takes compiled, interpreted or both, got '${engine}'`);
    engines = [found];
  }
  const tier = str('tier');
  let tiers: readonly Tier[] = base.tiers;
  if (tier === 'both') tiers = TIERS;
  else if (tier !== undefined) {
    const found = TIERS.find((t) => t === tier);
    if (!found) throw new UsageError(`--tier takes bare, exact or both, got '${tier}'`);
    tiers = [found];
  }
  const preset = str('preset');
  if (preset !== undefined && preset !== 'kernel' && preset !== 'teaching') {
    throw new UsageError(`--preset takes kernel or teaching, got '${preset}'`);
  }
  const plan: SweepPlan = {
    scenarios: list('scenarios', str('scenarios')) ?? base.scenarios,
    cpus: cpus ?? base.cpus,
    layouts,
    summers: summers ?? base.summers,
    seconds: numberOption('seconds', str('seconds'), base.seconds),
    warmupSeconds: numberOption('warmup', str('warmup'), base.warmupSeconds),
    repeat: numberOption('repeat', str('repeat'), base.repeat),
    engines,
    tiers,
    preset: preset ?? base.preset,
  };
  const problem = planProblem(plan);
  if (problem) throw new UsageError(problem);
  return plan;
}

export async function benchCommand(argv: readonly string[]): Promise<string> {
  const { values } = parseCommand(argv, benchOptions, { positionals: false });
  const plan = benchPlan(values);
  const json = values.json === true;
  const machine = {
    cores: availableParallelism(),
    runtime: `Node ${process.version}`,
    model: osCpus()[0]?.model.trim() ?? 'unknown',
  };
  const probe = await visibilityProbe(
    nodePlatform,
    plan.engines[0] ?? 'compiled',
    undefined,
    undefined,
    plan.tiers[0] ?? 'bare',
  );
  if (!json) {
    process.stderr.write(
      `lab bench: ${String(plan.scenarios.length)} algorithms, about ${Math.ceil(planSeconds(plan))} s\n`,
    );
  }
  const report = await runSweep(nodePlatform, plan, machine, {
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    progress: (done, total, p) => {
      if (!json) {
        process.stderr.write(
          `\r  ${String(done)}/${String(total)} ${p.scenario} on ${String(p.cpus)} CPU(s)…`.padEnd(
            70,
          ),
        );
      }
    },
  });
  if (!json) process.stderr.write('\r'.padEnd(72) + '\r');
  const title = headline(report.results);
  if (json) return toJson(reportDocument(report, probe));
  return [
    `${machine.model}, ${String(machine.cores)} cores, ${machine.runtime}; ${String(plan.seconds)} s a run after ${String(plan.warmupSeconds)} s of warm-up, ${count(plan.repeat, 'run')} each, ${plan.preset} parameters`,
    '',
    reportMarkdown(report),
    '',
    title ?? '(one algorithm: nothing to compare)',
    probeText(probe),
  ].join('\n');
}
