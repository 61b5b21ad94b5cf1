// npm run soak -- --seconds N [--cpus K] [--scenario ID]… [--json]
// npm run soak -- --minutes M [--cpus K]
//
// Runs Live mode headless in Chromium, as a user would (Run, wait, Stop), for every scenario that
// runs live (or the ones named), and prints what the verdict at rest reports: operations,
// operations per second per worker, lost updates, folds (batch overflows), sum retries and the
// invariants the final state breaks. Builds nothing: run `npm run build` first.
//
// Interference: scenarios with an IRQ handler get 10 000 IRQs per second per CPU, this-cpu-ops
// gets 10 000 migrations per second (their races need them); the others run undisturbed.
//
// --minutes M is the soak: every correct algorithm (each live scenario and variant that keeps
// every invariant of its scenario) in turn, M minutes in all, and a last line that says whether
// every count was exact and every invariant held, with the page's JS heap (after a collection)
// after the first run and after the last: a heap that grows from run to run is a leak.

import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import { formatRate } from '../src/live/format.ts';
import { liveSpecs } from '../src/live/specs.ts';
import { findScenario } from '../src/scenarios/index.ts';
import { withPage } from './browser.ts';
import { messageOf } from '../src/machine/errors.ts';

interface Row {
  scenario: string;
  cpus: number;
  seconds: number;
  operations: number;
  perWorker: number[];
  /** Instructions (model steps) per second of each worker. */
  instructions: number[];
  lost: number;
  folds: number | null;
  retries: number | null;
  violated: string[];
  /** The run status after Stop ("Stopped: …" when every CPU came to rest). */
  outcome: string;
  /** What ran the CPUs' programs, as the verdict says: compiled or interpreted. */
  engine: string;
}

function usage(message: string): never {
  console.error(
    `soak: ${message}\nusage: npm run soak -- --seconds N [--cpus K] [--scenario ID]… [--json]`,
  );
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        seconds: { type: 'string', default: '5' },
        minutes: { type: 'string' },
        cpus: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    return usage(messageOf(e));
  }
})();

const minutes = values.minutes === undefined ? null : Number(values.minutes);
if (minutes !== null && (!Number.isFinite(minutes) || minutes <= 0 || minutes > 600))
  usage('--minutes takes a number from 0 to 600');
const cpus = values.cpus === undefined ? null : Number(values.cpus);
if (cpus !== null && (!Number.isInteger(cpus) || cpus < 1 || cpus > 64))
  usage('--cpus takes 1 to 64');
const ids = values.scenario ?? liveSpecs.map((s) => s.id);
for (const id of ids)
  if (!liveSpecs.some((s) => s.id === id))
    usage(`${id} does not run live; live scenarios: ${liveSpecs.map((s) => s.id).join(', ')}`);

/** What to run: a scenario, and the variant when the soak picks the correct ones. */
interface Job {
  readonly id: string;
  readonly variant: string | null;
}
const jobs: Job[] =
  minutes === null
    ? ids.map((id) => ({ id, variant: null }))
    : liveSpecs.flatMap((spec): Job[] => {
        const sc = findScenario(spec.id);
        if (!sc) return [];
        // Correct: the variant keeps every invariant of its scenario.
        return Object.entries(sc.guarantees)
          .filter(([, kept]) => sc.invariants.every((i) => kept.includes(i.id)))
          .map(([variant]) => ({ id: spec.id, variant: variant === '*' ? null : variant }));
      });
const seconds = minutes === null ? Number(values.seconds) : (minutes * 60) / jobs.length;
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
  usage('--seconds takes a number from 0 to 3600');

async function number(page: Page, table: RegExp, row: string | RegExp): Promise<number | null> {
  const cell = page
    .getByRole('table', { name: table })
    .getByRole('row', { name: row })
    .getByRole('cell')
    .first();
  if ((await cell.count()) === 0) return null;
  const m = /^-?[\d,]+(?:\.\d+)?/.exec((await cell.innerText()).trim());
  return m ? Number(m[0].replace(/,/g, '')) : null;
}

async function soak(page: Page, url: string, { id, variant }: Job): Promise<Row> {
  const sc = findScenario(id);
  const q = new URLSearchParams();
  if (variant !== null) q.set('variant', variant);
  if (cpus !== null) q.set('cpus', String(cpus));
  if (sc?.handlers.some((h) => h.startsWith('IRQ'))) q.set('irq', '10000');
  if (id === 'this-cpu-ops') q.set('mig', '10000');
  await page.goto(`${url}/#/live/${id}?${q.toString()}`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  await status.filter({ hasText: 'Running on' }).waitFor({ timeout: 20_000 });
  await page.waitForTimeout(seconds * 1000);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await status
    .filter({ hasText: /Stopped|did not stop|stopped the run|crashed/ })
    .waitFor({ timeout: 20_000 });
  const perCpu = page.getByRole('table', { name: 'Per CPU' });
  const rows = await perCpu.getByRole('row').count();
  const perWorker: number[] = [];
  const time = (await number(page, /Counter/, 'Time')) ?? seconds;
  const instructions: number[] = [];
  for (let k = 0; k < rows - 1; k++) {
    const row = perCpu.getByRole('row').nth(k + 1); // after the header row
    const cells = await row.getByRole('cell').allInnerTexts();
    perWorker.push(Number((cells[0] ?? '0').replace(/,/g, '')) / Math.max(time, 1e-9));
    instructions.push(parseRate(cells[2] ?? '0'));
  }
  const violated = await page
    .getByRole('listitem')
    .filter({ hasText: /^Violated/ })
    .locator('code')
    .allInnerTexts();
  return {
    scenario: variant === null ? id : `${id}:${variant}`,
    cpus: rows - 1,
    seconds: time,
    outcome: (await status.innerText()).trim(),
    engine:
      /, (\w+) engine\)/.exec(
        await page.getByRole('region', { name: 'Verdict at rest' }).innerText(),
      )?.[1] ?? '?',
    operations: perWorker.reduce((a, b) => a + b, 0) * time,
    perWorker,
    instructions,
    lost: (await number(page, /Counter/, 'Lost updates')) ?? 0,
    folds: await number(page, /Counter/, /^Folds/),
    retries: await number(page, /Counter/, 'Sum retries'),
    violated,
  };
}

/** "10.45 M" → 10450000. */
function parseRate(text: string): number {
  const m = /([\d.]+)\s*([kMG]?)/.exec(text);
  if (!m) return 0;
  const scale = { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[2] as '' | 'k' | 'M' | 'G'];
  return Number(m[1]) * scale;
}

/** The page's JS heap in MB after a full collection (Chromium's DevTools protocol). */
async function heapMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1048576;
}

async function soakAll(page: Page, url: string): Promise<void> {
  const rows: Row[] = [];
  let heapStart = 0;
  for (const job of jobs) {
    const row = await soak(page, url, job);
    rows.push(row);
    if (rows.length === 1) heapStart = await heapMB(page);
    if (!values.json) {
      console.log(
        `${row.scenario.padEnd(28)} ${String(row.cpus).padStart(2)} CPUs ${row.engine} ${row.seconds.toFixed(1)} s  ` +
          `ops ${formatRate(row.operations).padStart(8)}  per worker ${row.perWorker.map((v) => `${formatRate(v)}/s`).join(', ')} ` +
          `(${row.instructions.map((v) => `${formatRate(v)} instr/s`).join(', ')})  ` +
          `lost ${String(row.lost)}  folds ${row.folds === null ? '-' : formatRate(row.folds)}  ` +
          `retries ${row.retries === null ? '-' : String(row.retries)}` +
          (row.violated.length ? `  violated: ${row.violated.join(', ')}` : '') +
          (row.outcome.startsWith('Stopped') ? '' : `  (${row.outcome})`),
      );
    }
  }
  const heapEnd = await heapMB(page);
  const exact = rows.every(
    (r) => r.lost === 0 && r.violated.length === 0 && r.outcome.startsWith('Stopped'),
  );
  if (values.json) console.log(JSON.stringify({ seconds, rows, heapStart, heapEnd }, null, 2));
  else
    console.log(
      `${rows.length} runs, ${(rows.reduce((a, r) => a + r.seconds, 0) / 60).toFixed(1)} min: ` +
        `${exact ? 'no update lost, every count exact, every invariant held' : 'SOMETHING BROKE (see above)'}; ` +
        `JS heap ${heapStart.toFixed(1)} MB after the first run, ${heapEnd.toFixed(1)} MB after the last`,
    );
}

withPage(4175, soakAll).catch((e: unknown) => {
  console.error(`soak: ${messageOf(e)}`);
  process.exitCode = 1;
});
