import { expect, test } from '@playwright/test';
import { catalogue } from '../src/scenarios/index.ts';
import { LivePage } from './pages/live.ts';

/**
 * Runs for `ms`, up to three times, until the counter table's `row` is above 0, and returns it:
 * real workers race on real cores, so a missing race is retried before it counts as a failure.
 */
async function raceUntilCounted(live: LivePage, row: string, ms: number): Promise<number> {
  let n = 0;
  for (let tries = 0; tries < 3 && n <= 0; tries++) {
    await live.runFor(ms);
    n = await live.total(row);
  }
  return n;
}

test('global-plain: two workers started together lose updates @timing', async ({ page }) => {
  const live = new LivePage(page);
  await live.open('#/live/global-plain?cpus=2');
  const lost = await raceUntilCounted(live, 'Lost updates', 1200);
  expect(lost).toBeGreaterThan(0);
  expect(await live.total(/^Adds/)).toBeGreaterThan(10_000);
  await expect(live.verdict('no-lost-update')).toContainText('Violated');
  // Nothing was asked of the CPUs: they ran the bare tier, each its whole loop compiled as one.
  await expect(page.getByRole('region', { name: 'Verdict at rest' })).toContainText(
    'compiled engine, bare tier)',
  );
});

test('global-atomic: exact once stopped @timing', async ({ page }) => {
  const live = new LivePage(page);
  await live.open('#/live/global-atomic?cpus=2');
  await live.runFor(1000);
  expect(await live.total(/^Adds/)).toBeGreaterThan(10_000);
  expect(await live.total('Lost updates')).toBe(0);
  expect(await live.total(/^Exact total/)).toBe(await live.total('Counter in memory'));
  await expect(live.verdict('no-lost-update')).toContainText('Holds');
  await expect(page.getByRole('region', { name: 'Verdict at rest' })).toContainText(
    'compiled engine, bare tier)',
  );
});

test('percpu-classic: folds, exact at rest, read() within the error band @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/percpu-classic?cpus=3&batch=8&irq=0');
  await live.run();
  // The slot bars and the error band animate while the CPUs run.
  await expect(page.getByRole('img', { name: /Per-CPU fbc->counters: CPU0/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /Error against the exact total/ })).toBeVisible();
  await page.waitForTimeout(1000);
  await live.stop();
  expect(await live.total(/^Folds/)).toBeGreaterThan(0);
  expect(await live.total('Lost updates')).toBe(0);
  await expect(live.verdict('no-lost-update')).toContainText('Holds');
  await expect(live.verdict('read-within-bound')).toContainText('Holds');
  const read = await live.total('percpu_counter_read()');
  const exact = await live.total(/^Exact total/);
  expect(Math.abs(exact - read)).toBeLessThanOrEqual((8 - 1) * 3);
});

test('percpu-seq: a busy summer shows sum retries @timing', async ({ page }) => {
  const live = new LivePage(page);
  await live.open('#/live/percpu-seq?cpus=3&period=0');
  const retries = await raceUntilCounted(live, 'Sum retries', 1200);
  expect(retries).toBeGreaterThan(0);
  expect(await live.total('Lost updates')).toBe(0);
  // Judged per call on live CPUs: no single sum() retried more than once per CPU.
  await expect(live.verdict('retries-bounded')).toContainText('Holds');
  await expect(live.verdict('read-within-bound')).toContainText('Holds');
});

test('lockstep replay agrees with the model for witnesses of three scenarios', async ({ page }) => {
  const live = new LivePage(page);
  for (const [id, witness] of [
    ['global-plain', /lost-update/],
    ['percpu-classic', /read-error-124/],
    ['irq-local-rmw', /irq-between-load-and-store/],
    ['this-cpu-migrate', /migrate-between/],
  ] as const) {
    await live.open(`#/live/${id}`);
    await live.replay(witness);
    await expect(live.lockstepVerdict()).toContainText('model and hardware agree', {
      timeout: 15_000,
    });
  }
});

test("Step mode's schedule replays on the workers from a link", async ({ page }) => {
  const live = new LivePage(page);
  await live.open('#/live/global-plain?sched=0%201%200%201&s.iterations=1&s.initial=100');
  await live.replay(/Step mode/);
  await expect(live.lockstepVerdict()).toContainText('model and hardware agree');
  // A schedule that is not possible is refused with its position and reason.
  await live.open('#/live/global-plain?sched=0%200%200%200%200&s.iterations=1');
  await live.replay(/Step mode/);
  await expect(live.lockstepVerdict()).toContainText('event 3');
});

test('a crashed worker stops the run with a clear message, and Run works again @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/global-atomic?cpus=2');
  await page.route(/cpu\.worker/, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      headers: {
        'Cross-Origin-Embedder-Policy': 'require-corp',
        'Cross-Origin-Resource-Policy': 'same-origin',
      },
      body: "throw new Error('simulated crash');",
    }),
  );
  await live.button('Run').click();
  await expect(live.status()).toContainText(/crashed|did not start/, {
    timeout: 15_000,
  });
  await page.unroute(/cpu\.worker/);
  await live.run();
  await live.stop();
  expect(await live.total('Lost updates')).toBe(0);
});

test('bad link parts are reported and the rest opens', async ({ page }) => {
  const live = new LivePage(page);
  await live.open('#/live/percpu-classic?cpus=999&batch=8&bogus=1');
  await expect(live.status()).toContainText('left out');
  await expect(page.getByRole('textbox', { name: 'batch' })).toHaveValue('8');
  await page.getByRole('textbox', { name: 'batch' }).fill('0');
  await expect(page.getByRole('alert')).toContainText('batch');
  await expect(live.button('Run')).toBeDisabled();
});

test('without cross-origin isolation Live mode explains itself and Step mode still works', async ({
  page,
}) => {
  // Serve the app without the COOP/COEP headers. A request the page gives up on while it is
  // being fetched here (it leaves Live mode, which was still loading) can no longer be answered:
  // Playwright disposes of its response, and that is not the app's failure.
  await page.route('**/*', async (route) => {
    try {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    } catch (e) {
      if (!(e instanceof Error && /disposed|closed/.test(e.message))) throw e;
    }
  });
  await page.goto('/#/live/global-plain');
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Live');
  await expect(page.getByText('Live mode is off on this page')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Step mode' }).first().click();
  await expect(page.getByRole('button', { name: /Step CPU 0/ })).toBeVisible();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test("Step mode's current schedule opens in Live mode for a lockstep replay", async ({ page }) => {
  await page.goto('/#/step/global-plain?iterations=1&initial=100&sched=0%201%200%201&at=4');
  await page.getByRole('link', { name: 'Replay on real workers' }).click();
  const live = new LivePage(page);
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Live');
  await live.replay(/Step mode.s schedule: 0 1 0 1/);
  await expect(live.lockstepVerdict()).toContainText('model and hardware agree');
  await expect(live.lockstepVerdict()).toContainText(
    'Both end with nr = 101, exact = 102; broken: no-lost-update (at the end).',
  );
});

test("Replay on real workers brings Step's machine to the free run too, and says so", async ({
  page,
}) => {
  await page.goto(
    '/#/step/percpu-modern?adds=1&amounts=3%2C0&summer=-1&slots=0%2C3&irqAmount=3&sched=0+0+irq0+0*8&at=11',
  );
  await page.getByRole('link', { name: 'Replay on real workers' }).click();
  const live = new LivePage(page);
  await expect(page.getByRole('textbox', { name: 'amounts' })).toHaveValue('3,0');
  const also = page.getByLabel('Also set');
  await expect(also).toContainText('irqAmount = 3');
  await expect(also).toContainText('slots = 0,3');
  await live.replay(/Step mode.s schedule/);
  await expect(live.lockstepVerdict()).toContainText('model and hardware agree');
  await expect(live.lockstepVerdict()).toContainText('slot-below-batch (broken at event 10)');
  await expect(live.lockstepVerdict()).toContainText('read-within-bound (at the end)');
  await also.getByRole('button', { name: 'Use the defaults' }).click();
  await expect(also).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'amounts' })).toHaveValue('3,0');
});

test('every witness of every scenario ends with the same state on the workers as in the model', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const live = new LivePage(page);
  for (const sc of catalogue) {
    await live.open(`#/live/${sc.id}`);
    await live.button(`Replay all ${String(sc.witnesses.length)} witnesses`).click();
    await expect(live.lockstepVerdict(), sc.id).toContainText(
      `All ${String(sc.witnesses.length)} witnesses of ${sc.id}: model and hardware agree`,
      { timeout: 60_000 },
    );
  }
});

test('keyboard only: set the CPUs, run and stop @timing', async ({ page }) => {
  const live = new LivePage(page);
  await live.open('#/live/global-atomic');
  const cpus = page.getByRole('spinbutton', { name: 'CPUs (workers)' });
  await cpus.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  // Tab on to Run and press Enter, then Space on Stop.
  const run = live.button('Run');
  for (let i = 0; i < 20 && !(await run.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(live.status()).toContainText('Running on 2 CPU workers');
  await page.waitForTimeout(300);
  await live.button('Stop').focus();
  await page.keyboard.press('Space');
  await expect(live.status()).toContainText('Stopped', { timeout: 15_000 });
  expect(await live.total('Lost updates')).toBe(0);
});

test('Live warns when a run will starve its workers, and says when a rate was cut to its range', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/global-plain');
  const load = page.getByRole('status', { name: 'Load on the cores' });
  await expect(load).toHaveCount(0);
  const cpus = page.getByRole('spinbutton', { name: 'CPUs (workers)' });
  await cpus.fill('64');
  await cpus.blur();
  await expect(load).toContainText('64 CPUs on');
  await expect(load).toContainText('That is starvation, not a hang.');
  const mig = page.getByRole('spinbutton', { name: 'Migrations per second, per CPU' });
  await mig.fill('999999999');
  await expect(mig).toHaveAccessibleDescription(/999999999 is out of range: 1,000,000 is used/);
  await expect(load).toContainText('interference events a second');
});

test('once the CPUs run, their charts lead the page and the set-up follows @timing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const live = new LivePage(page);
  await live.open('#/live/percpu-classic');
  await live.button('Run').click();
  const charts = page.getByRole('region', { name: 'Live charts' });
  await expect(charts.getByRole('img').first()).toBeInViewport();
  // The set-up is still there, after the charts, and interference still changes the run.
  const setup = await page.getByRole('group', { name: 'Machine' }).boundingBox();
  const first = await charts.boundingBox();
  expect(setup && first && setup.y > first.y).toBe(true);
  await live.button('Stop').click();
  await expect(live.button('Run')).toBeEnabled({ timeout: 15_000 });
});

test('after Stop the per-CPU rate bars show the run averages of the Per CPU table @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/global-plain?cpus=2');
  await live.runFor(800);
  // The verdict is where the eye lands after Stop.
  await expect(live.status()).toContainText(/updates? lost out of|No update lost/);
  await expect(
    page.getByText('Operations per second, per CPU: the average over the whole run'),
  ).toBeVisible();
  const bars = await page
    .getByRole('img', { name: /^Average operations per second:/ })
    .getAttribute('aria-label');
  const table = page.getByRole('table', { name: 'Per CPU' });
  const rates: string[] = [];
  for (const k of [0, 1]) {
    const row = table.getByRole('row', { name: new RegExp(`^CPU${String(k)}\\b`) });
    rates.push(`CPU${String(k)} ${(await row.getByRole('cell').nth(1).innerText()).trim()}`);
  }
  expect(bars).toBe(`Average operations per second: ${rates.join(', ')}`);
});

test('percpu-hotplug-sum runs free: CPU1 goes offline and online, counted @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/percpu-hotplug-sum?variant=online-or-dying&period=0');
  // The hotplug rate is offered for a program with dead callbacks, with a default that acts.
  const rate = page.getByRole('spinbutton', { name: /CPU hotplug events per second/ });
  await expect(rate).toBeVisible();
  expect(Number(await rate.inputValue())).toBeGreaterThan(0);
  await live.runFor(1000);
  expect(await live.total('CPU hotplug events')).toBeGreaterThan(0);
  await expect(page.getByText(/CPU hotplug events? \(offlines and onlines\)/)).toBeVisible();
  // The fix: whichever of the sum and the fold takes fbc->lock first, the sum is 0.
  await expect(live.verdict('sum-within-window')).toContainText('Holds');
  await expect(live.verdict('rss-never-negative')).toContainText('Holds');
});
