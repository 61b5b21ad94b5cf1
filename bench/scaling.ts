// npm run bench -- [--scenarios a,b] [--cpus 1,2,4] [--layout padded|packed|both]
//   [--summer none|busy|<µs>] [--seconds S] [--warmup S] [--repeat R]
//   [--engine compiled|interpreted|both] [--tier bare|exact|both] [--preset kernel|teaching]
//   [--json] [--native [--pairs N]]
//
// The Scaling sweep in headless Chromium, through the page as a user runs it: opens the Scaling
// view with the plan in its link, presses Run sweep, waits for it to finish and takes its JSON
// export. Prints the same table as `lab bench` (or the JSON). Builds nothing: run `npm run build`
// first. With --native, and a C compiler on the machine, it then builds the C yardstick
// (bench/native/counters.c) into a temporary folder, runs it in the same sitting with the same
// CPU counts, seconds and repetitions, and prints C ÷ lab for the algorithms both have. With
// --native and no --tier, the sweep measures both tiers (bare, what the Scaling view runs, and
// exact, what Live runs with events), so both stand beside C in one sitting. With --pairs N it
// then runs N rounds of the lab and C in turns, row by row (bench/paired.ts), and prints the
// medians of the rounds' ratios: the comparison this host's noise moves least.

import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { benchOptions, benchPlan } from '../src/cli/commands/bench.ts';
import { UsageError } from '../src/cli/errors.ts';
import { probeText, type ProbeResult } from '../src/live/probe.ts';
import { reportMarkdown } from '../src/live/scaling/export.ts';
import type { SweepReport } from '../src/live/scaling/measure.ts';
import { planSeconds } from '../src/live/scaling/plan.ts';
import { formatScalingLink } from '../src/store/scalingLink.ts';
import { withPage } from './browser.ts';
import { count } from '../src/machine/count.ts';
import {
  buildYardstick,
  findCompiler,
  type NativeResult,
  nativeTable,
  ratioTable,
  runNative,
} from './native.ts';
import { type PairedRow, pairedRatioTable, pairedRounds, pairedTable } from './paired.ts';
import type { Page } from 'playwright';
import type { SweepPlan } from '../src/live/scaling/plan.ts';
import { defaultPlan } from '../src/live/scaling/plan.ts';
import { TIERS } from '../src/live/engine/engine.ts';
import { messageOf } from '../src/machine/errors.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { ...benchOptions, native: { type: 'boolean' }, pairs: { type: 'string' } },
  });
  const asked = benchPlan(values);
  const plan =
    values.native === true && values.tier === undefined ? { ...asked, tiers: TIERS } : asked;
  const viewTier = defaultPlan(availableParallelism()).tiers.join(' and ');
  const cores = availableParallelism();
  const pairs = values.pairs === undefined ? 0 : Number(values.pairs);
  if (!Number.isInteger(pairs) || pairs < 0 || pairs > 50) {
    throw new UsageError(
      `--pairs takes a count of rounds from 0 to 50, got '${String(values.pairs)}'`,
    );
  }
  if (pairs > 0 && values.native !== true) throw new UsageError('--pairs needs --native');
  await withPage(4177, async (page, url) => {
    if (!values.json) {
      console.error(
        `bench: ${String(plan.scenarios.length)} algorithms in Chromium, about ${String(Math.ceil(planSeconds(plan)))} s`,
      );
    }
    const doc = await sweepOnce(page, url, plan, cores);
    if (values.native !== true && values.json) console.log(JSON.stringify(doc, null, 2));
    if (!values.json) {
      console.log(
        [
          `${doc.machine.runtime}, ${String(doc.machine.cores)} cores; ${String(plan.seconds)} s a run after ${String(plan.warmupSeconds)} s of warm-up, ${count(plan.repeat, 'run')} each, ${plan.preset} parameters`,
          '',
          reportMarkdown(doc),
          '',
          doc.headline ?? '(one algorithm: nothing to compare)',
          doc.probe ? probeText(doc.probe) : '',
          `The Scaling view runs the ${viewTier} tier unless its Tier control says otherwise.`,
        ].join('\n'),
      );
    }
    if (values.native !== true) return;
    // After the sweep, not beside it: the yardstick's threads would take the lab's cores.
    const cc = findCompiler();
    if (!cc) {
      console.error('bench: no C compiler (cc, gcc or clang): no native comparison');
      return;
    }
    const cpus = plan.cpus.filter((c) => c <= 64);
    const yardstick = buildYardstick(cc);
    let native: NativeResult[];
    let rows: PairedRow[] = [];
    try {
      native = runNative(yardstick, cpus, plan.seconds, plan.repeat);
      if (pairs > 0) {
        const sweep = (p: SweepPlan) => sweepOnce(page, url, p, cores);
        rows = await pairedRounds(sweep, yardstick, { ...plan, cpus }, pairs, (line) => {
          console.error(line);
        });
      }
    } finally {
      yardstick.dispose();
    }
    if (values.json) {
      console.log(
        JSON.stringify(
          { ...doc, native: { compiler: yardstick.compiler, results: native }, pairs: rows },
          null,
          2,
        ),
      );
      return;
    }
    console.log(
      `\nThe same algorithms in C (${yardstick.compiler}), same sitting, ${String(plan.seconds)} s a run, ${count(plan.repeat, 'run')} each:\n`,
    );
    console.log(nativeTable(doc, native));
    console.log(
      "\nPer-CPU batch ÷ shared atomic (adds per second), and the lab's ratio ÷ C's (1.00: the same):\n",
    );
    console.log(ratioTable(doc, native));
    if (rows.length > 0) {
      console.log(
        `\n${count(pairs, 'round')} of the lab and C in turns, row by row (each ${String(plan.seconds)} s, the lab's after ${String(plan.warmupSeconds)} s of warm-up):\n`,
      );
      console.log(pairedTable(rows));
      console.log('');
      console.log(pairedRatioTable(rows));
    }
    console.log(`\nThe Scaling view runs the ${viewTier} tier.`);
  });
}

/** One sweep through the page as a user runs it: its link, Run sweep, then its JSON export. */
async function sweepOnce(
  page: Page,
  url: string,
  plan: SweepPlan,
  cores: number,
): Promise<SweepReport & { headline: string | null; probe: ProbeResult | null }> {
  await page.goto(`${url}/${formatScalingLink(plan, cores)}`);
  await page.getByRole('button', { name: 'Run sweep', exact: true }).click();
  const status = page.getByRole('status', { name: 'Sweep status' });
  await status
    .filter({ hasText: /^(Done|The sweep failed)/ })
    .waitFor({ timeout: (planSeconds(plan) * 3 + 60) * 1000 });
  const said = await status.innerText();
  if (!said.startsWith('Done')) throw new Error(said);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON', exact: true }).click();
  return JSON.parse(await readFile(await (await download).path(), 'utf8')) as SweepReport & {
    headline: string | null;
    probe: ProbeResult | null;
  };
}

main().catch((e: unknown) => {
  console.error(`bench: ${messageOf(e)}`);
  process.exitCode = e instanceof UsageError ? 2 : 1;
});
