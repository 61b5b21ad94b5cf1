import { expect, type Page, test } from '@playwright/test';
import { LivePage } from './pages/live.ts';

// Faults a class must never be stopped by. The app's test-only switch (src/workers/faults.ts)
// makes one CPU worker misbehave; each test checks that the app says what happened, leaves no
// worker running, and runs again.

type Fault = { cpu: number; kind: 'throw' | 'hang' | 'terminate'; afterMs: number };

async function withFault(page: Page, fault: Fault) {
  await page.addInitScript((f) => {
    (window as { percpuLab?: unknown }).percpuLab = { fault: f };
  }, fault);
}

/** Live workers still alive on the page (the explore worker is not on this screen). */
/** Live mode on `scenario` with two CPUs and `fault` armed, Run pressed. */
async function runWithFault(page: Page, fault: Fault, scenario = 'global-atomic') {
  await withFault(page, fault);
  const live = new LivePage(page);
  await live.open(`#/live/${scenario}?cpus=2`);
  await live.button('Run').click();
  return live;
}

async function expectNoWorkers(page: Page) {
  await expect.poll(() => page.workers().length, { timeout: 5000 }).toBe(0);
}

/** With the fault switched off, a fresh run starts, stops cleanly and counts exactly. */
async function runsAgain(page: Page, live: LivePage) {
  await page.evaluate(() => {
    delete (window as { percpuLab?: unknown }).percpuLab;
  });
  await live.runFor(500);
  await expect(live.status()).toContainText('Stopped: every task finished its operation');
  expect(await live.total(/^Lost updates/)).toBe(0);
  expect(await live.total(/^Adds/)).toBeGreaterThan(0);
  await expectNoWorkers(page);
}

test('a CPU worker that throws mid-run: the run stops, says which CPU, and runs again @timing', async ({
  page,
}) => {
  const live = await runWithFault(page, { cpu: 1, kind: 'throw', afterMs: 300 });
  await expect(live.status()).toContainText('CPU1 stopped the run: injected fault: CPU1 threw', {
    timeout: 10_000,
  });
  await expect(live.status()).toContainText('Press Run to start again');
  await expectNoWorkers(page);
  await runsAgain(page, live);
});

test('a CPU worker that hangs mid-run: the watchdog stops the run and names it @timing', async ({
  page,
}) => {
  const live = await runWithFault(page, { cpu: 0, kind: 'hang', afterMs: 300 });
  await expect(live.status()).toContainText(
    'CPU0 stopped responding (no sign of life for 2 s: its worker hung or was terminated)',
    { timeout: 10_000 },
  );
  await expectNoWorkers(page);
  // The counter table still shows what the CPUs did before.
  expect(await live.total(/^Adds/)).toBeGreaterThan(0);
  await runsAgain(page, live);
});

test('Stop pressed while a CPU hangs: the stop times out, the workers are terminated @timing', async ({
  page,
}) => {
  await withFault(page, { cpu: 1, kind: 'hang', afterMs: 200 });
  const live = new LivePage(page);
  await live.open('#/live/global-atomic?cpus=2');
  await live.run();
  await page.waitForTimeout(400);
  await live.button('Stop').click();
  // The others wait for every CPU to stop (a task may be migrating to them), so none exits.
  await expect(live.status()).toContainText(
    '2 CPU(s) did not stop within 3 s: CPU1 showed no sign of life',
    { timeout: 10_000 },
  );
  await expectNoWorkers(page);
  await runsAgain(page, live);
});

test('a CPU worker terminated mid-run without a word: the watchdog notices @timing', async ({
  page,
}) => {
  // Mid-run: 2 s after the worker starts, well past the start barrier (which takes longer than
  // 400 ms on a busy machine now that the page loads more before the CPUs start).
  const live = await runWithFault(
    page,
    { cpu: 1, kind: 'terminate', afterMs: 2000 },
    'percpu-classic',
  );
  await expect(live.status()).toContainText('CPU1 stopped responding', { timeout: 12_000 });
  await expectNoWorkers(page);
  await runsAgain(page, live);
});

test('a tab frozen in the background and shown again: the run goes on, nobody is blamed @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/global-atomic?cpus=2');
  await live.run();
  await page.waitForTimeout(500);
  // What Chrome does to a hidden tab it freezes: no task runs on the page, its workers included.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
  await new Promise((r) => setTimeout(r, 3000));
  await cdp.send('Page.setWebLifecycleState', { state: 'active' });
  await page.waitForTimeout(1500);
  await expect(live.status()).toContainText('Running on 2 CPU workers');
  await live.stop();
  await expect(live.status()).toContainText('Stopped: every task finished its operation');
  expect(await live.total(/^Lost updates/)).toBe(0);
  await expectNoWorkers(page);
});

test('a browser without Atomics.waitAsync: the page polls, and runs and stops as usual @timing', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(Atomics, 'waitAsync');
  });
  const live = new LivePage(page);
  await live.open('#/live/percpu-classic?cpus=2');
  expect(await page.evaluate(() => 'waitAsync' in Atomics)).toBe(false);
  await live.runFor(800);
  await expect(live.status()).toContainText('Stopped: every task finished its operation');
  expect(await live.total(/^Lost updates/)).toBe(0);
  expect(await live.total(/^Adds/)).toBeGreaterThan(1000);
});
