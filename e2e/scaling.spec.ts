import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { LivePage } from './pages/live.ts';
import { ScalingPage } from './pages/scaling.ts';

const SHORT = 'seconds=0.25&warmup=0.05&repeat=1';

test('a short sweep draws the chart, states the headline, fills the table and exports JSON @timing', async ({
  page,
}) => {
  const scaling = new ScalingPage(page);
  await scaling.open(
    `#/scaling?scenarios=global-plain,global-atomic,percpu-classic&cpus=1,2&${SHORT}`,
  );
  await scaling.sweep();
  // Compiled plain loads see another worker's stores, value by value, in this browser too, in
  // the bare tier the sweep runs (no step budget between two loads of a waiting loop).
  await expect(
    page.getByText(
      /^Visibility check: with compiled \(bare tier\) plain loads .* saw 100,000 of the 100,000 values/,
    ),
  ).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Adds per second against CPUs\. global-plain: 1 CPU/ }),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: /^Per-CPU efficiency against CPUs/ })).toBeVisible();
  // On a machine that cannot show scaling (busy, or few cores) the headline says it is absolute.
  await expect(scaling.headline()).toHaveText(
    /^(In absolute terms only, since this machine cannot show scaling \(see above\): )?With 2 CPUs, .+ ran [\d.]+× the adds per second of .+\.$/,
  );
  // Whether this sweep could show scaling here, judged from what it measured.
  await expect(
    page.getByRole('region', { name: 'Can this sweep show scaling?' }).getByRole('strong'),
  ).toHaveText(/^(No: on this machine|Only within the limits|Yes: nothing)/);
  const rows = await scaling.rows();
  expect(rows).toHaveLength(6);
  // Judged as well as timed: the racy counter loses updates on two workers, the others not.
  const verdict = (scenario: string, cpus: string) =>
    rows.find((r) => r[0] === scenario && r[1] === cpus)?.at(-1) ?? '';
  expect(verdict('global-plain', '2')).toMatch(/^lost [\d,]+; broke no-lost-update/);
  expect(verdict('global-atomic', '2')).toBe('exact');
  expect(verdict('percpu-classic', '2')).toBe('exact');

  const download = page.waitForEvent('download');
  await scaling.button('Export JSON').click();
  const file = await (await download).path();
  const doc = JSON.parse(await readFile(file, 'utf8')) as {
    machine: { cores: number; runtime: string };
    results: {
      scenario: string;
      cpus: number;
      engine: string;
      tier: string;
      tierRan: string;
      opsPerSecond: { median: number };
    }[];
  };
  expect(doc.machine.runtime).toMatch(/^Chromium \d+/);
  expect(doc.results.map((r) => `${r.scenario}@${String(r.cpus)}`)).toEqual([
    'global-plain@1',
    'global-plain@2',
    'global-atomic@1',
    'global-atomic@2',
    'percpu-classic@1',
    'percpu-classic@2',
  ]);
  for (const r of doc.results) {
    expect(r.engine).toBe('compiled');
    // A sweep has no events: its CPUs ran bare, and said so.
    expect(r.tier).toBe('bare');
    expect(r.tierRan).toBe('bare');
    expect(r.opsPerSecond.median).toBeGreaterThan(0);
  }
});

test('packed against padded slots and a busy summer get charts of their own @timing', async ({
  page,
}) => {
  const scaling = new ScalingPage(page);
  await scaling.open(
    `#/scaling?scenarios=percpu-classic,percpu-lglock&cpus=2&layout=both&summer=none,busy&${SHORT}`,
  );
  await scaling.sweep();
  await expect(
    page.getByRole('img', { name: /^Padded against packed slots\. percpu-classic: padded slots/ }),
  ).toBeVisible();
  await expect(
    page.getByRole('img', {
      name: /^Adds per second without and with a summer\. percpu-classic: no summer/,
    }),
  ).toBeVisible();
  await expect(
    // Rates under 10,000 a second are written whole, with no unit: "6748/s", "12.2 k/s".
    page.getByText(/summer’s sums per second: percpu-classic [\d.]+(?: [kM])?\/s; percpu-lglock/),
  ).toBeVisible();
});

test('a sweep can be cancelled, keeps what it measured, and runs again @timing', async ({
  page,
}) => {
  const scaling = new ScalingPage(page);
  await scaling.open(
    '#/scaling?scenarios=global-atomic,percpu-classic&cpus=1,2&seconds=1&warmup=0&repeat=3',
  );
  await scaling.button('Run sweep').click();
  await expect(page.getByRole('progressbar', { name: 'Sweep progress' })).toBeVisible();
  await expect(page.getByText(/\d+ of 12 runs, about \d+ s left/)).toBeVisible();
  await expect(scaling.table()).toBeVisible({ timeout: 20_000 });
  // Each run starts its own CPU workers and ends them: between two runs there are none for a
  // moment (CI once looked then), so wait for the next run's.
  await expect.poll(() => page.workers().length, { timeout: 10_000 }).toBeGreaterThan(0);
  await scaling.button('Cancel').click();
  await expect(scaling.status()).toContainText('Cancelled', { timeout: 10_000 });
  expect((await scaling.rows()).length).toBeGreaterThan(0);
  // No CPU worker is left running after a cancel.
  await expect.poll(() => page.workers().length, { timeout: 5000 }).toBe(0);
  await expect(scaling.button('Run sweep')).toBeEnabled();
});

test('more CPUs than cores: before a sweep the page says so and offers the counts that fit', async ({
  page,
}) => {
  const scaling = new ScalingPage(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const over = cores + 2;
  await scaling.open(`#/scaling?cpus=1,2,${String(over)}`);
  const fit = page.getByRole('region', { name: 'Before a sweep: can this machine show scaling?' });
  await expect(fit.getByRole('list', { name: 'Why' })).toContainText(
    `${String(over)} CPUs is more than this machine’s ${String(cores)} cores: there the CPUs take turns on the cores, so that point measures time-sharing, not scaling`,
  );
  // No sweep from a larger machine comes with the lab: the page says how to record one.
  await expect(fit.getByRole('list', { name: 'What would show scaling' })).toContainText(
    'The lab comes with no sweep measured on a larger machine; to record one there',
  );
  await fit.getByRole('button', { name: 'Use CPU counts 1,2' }).click();
  await expect(page.getByRole('textbox', { name: 'CPU counts' })).toHaveValue('1,2');
  await expect(fit).not.toContainText('time-sharing');
  await expect(fit.getByRole('button', { name: 'Check the load' })).toBeEnabled();
});

test('Check the load measures one CPU alone and every core at once, and says so @timing', async ({
  page,
}) => {
  const scaling = new ScalingPage(page);
  await scaling.open('#/scaling');
  await page.getByRole('button', { name: 'Check the load' }).click();
  await expect(scaling.status()).toHaveText(
    /^Load checked: one per-CPU counter alone ran [\d.]+(?: [kMG])? adds\/s; \d+ at once ran [\d.]+(?: [kMG])? each \(\d+ % of alone\)\.$/,
    { timeout: 30_000 },
  );
  await expect(page.getByRole('region', { name: /can this machine show scaling/ })).toContainText(
    'the load check',
  );
});

test('a bad link part is reported and the rest of the plan opens', async ({ page }) => {
  const scaling = new ScalingPage(page);
  await scaling.open('#/scaling?cpus=0,2&scenarios=percpu-seq&layout=sideways');
  await expect(scaling.status()).toContainText('Parts of the link were left out');
  await expect(scaling.status()).toContainText('CPU counts are whole numbers from 1 to 64, not 0');
  await expect(scaling.status()).toContainText(
    "layout must be padded, packed or both, not 'sideways'",
  );
  await expect(scaling.algorithm('percpu-seq')).toBeChecked();
  await expect(scaling.algorithm('global-atomic')).not.toBeChecked();
});

test('CPU counts typed wrong stay as typed, each bad entry named, and block the sweep', async ({
  page,
}) => {
  const scaling = new ScalingPage(page);
  await scaling.open('#/scaling');
  const field = page.getByRole('textbox', { name: 'CPU counts' });
  await field.fill('0,abc,99');
  await field.blur();
  await expect(field).toHaveValue('0,abc,99');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(
    /CPU counts are whole numbers from 1 to 64, not 0, abc, 99/,
  );
  await expect(scaling.button('Run sweep')).toBeDisabled();
  // The other fields' problems are shown at once, not after this one is fixed.
  await page.getByRole('spinbutton', { name: 'Seconds per run' }).fill('-5');
  await page.getByRole('spinbutton', { name: 'Runs each' }).fill('100000');
  await expect(
    page.getByRole('alert', { name: 'What to fix before a sweep' }).getByRole('listitem'),
  ).toHaveText(['a run lasts more than 0 and at most 60 s', 'repeat each run 1 to 20 times']);
  await expect(scaling.status()).toContainText('Cannot run yet:');
  await page.getByRole('spinbutton', { name: 'Seconds per run' }).fill('1');
  await page.getByRole('spinbutton', { name: 'Runs each' }).fill('3');
  await field.fill('1,2');
  await field.blur();
  await expect(field).toHaveValue('1,2');
  await expect(field).toHaveAttribute('aria-invalid', 'false');
  await expect(scaling.button('Run sweep')).toBeEnabled();
});

test('every live counter links to the Scaling view, beside atomic_inc', async ({ page }) => {
  const live = new LivePage(page);
  const scaling = new ScalingPage(page);
  await live.open('#/live/lazy-nr-files');
  await page.getByRole('link', { name: 'Measure how lazy-nr-files scales' }).click();
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Scaling');
  await expect(scaling.algorithm('lazy-nr-files')).toBeChecked();
  await expect(scaling.algorithm('global-atomic')).toBeChecked();
  await expect(scaling.algorithm('percpu-classic')).not.toBeChecked();
});

test('Live mode runs the interpreter on request and says which engine ran @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/global-atomic?cpus=2&engine=interpreted');
  await expect(page.getByRole('combobox', { name: 'Engine' })).toHaveValue('interpreted');
  await live.runFor(500);
  await expect(page.getByText(/adds in [\d.]+ s, interpreted engine/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Engine' }).selectOption('compiled');
  await live.runFor(500);
  await expect(page.getByText(/adds in [\d.]+ s, compiled engine/)).toBeVisible();
});

test('more CPUs than cores: Live mode says so, and still runs and stops @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await live.open(`#/live/global-atomic?cpus=${String(cores + 2)}`);
  await expect(page.getByRole('note')).toContainText(
    `${String(cores + 2)} CPUs on ${String(cores)} cores`,
  );
  await live.runFor(800);
  expect(await live.total('Lost updates')).toBe(0);
});
