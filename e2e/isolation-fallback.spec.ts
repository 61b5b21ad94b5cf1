import { expect, test } from '@playwright/test';
import { LivePage } from './pages/live.ts';
import { PLAIN_FOLDER, PLAIN_PORT } from './plainHost.ts';

// dist/ on a host that sends no headers (e2e/plainHost.ts), from a project folder as on GitHub
// Pages: Live mode is off until the user turns the service-worker fallback on.
const site = `http://localhost:${PLAIN_PORT}${PLAIN_FOLDER}`;

test('a host without headers runs Live mode once the service worker is turned on, and can turn it off @timing', async ({
  page,
}) => {
  await page.goto(`${site}#/live/global-atomic?cpus=2`);
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Live');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await expect(page.getByRole('status', { name: 'Cross-origin isolation' })).toContainText(
    'Cross-origin isolation is off',
  );

  await page.getByRole('button', { name: 'Turn on isolation with a service worker' }).click();
  await page.waitForFunction(() => crossOriginIsolated, undefined, { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeVisible();

  // The link survived the reload, and Live mode runs the compiled CPUs.
  expect(page.url()).toContain(`${site}#/live/global-atomic`);
  const live = new LivePage(page);
  await expect(page.getByRole('combobox', { name: 'Engine' })).toHaveValue('compiled');
  await live.runFor(1000);
  expect(await live.total(/^Adds/)).toBeGreaterThan(1000);

  // The service worker sends the same policies as a host would: the page's forbids inline
  // scripts (and this one is refused), the CPU worker's allows compiling WebAssembly.
  const headers = await page.evaluate(async () => {
    const csp = async (url: string) =>
      (await fetch(url)).headers.get('content-security-policy') ?? '';
    const cpu = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .find((u) => u.includes('/assets/cpu.worker-'));
    return { page: await csp(location.href), cpu: cpu ? await csp(cpu) : 'not loaded' };
  });
  expect(headers.page).toContain("script-src 'self'");
  expect(headers.page).not.toMatch(/unsafe/);
  expect(headers.cpu).toContain("script-src 'self' 'wasm-unsafe-eval'");
  const inlineRan = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.inlineRan = true';
    document.head.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return 'inlineRan' in window;
  });
  expect(inlineRan).toBe(false);

  // A later visit is isolated from its first load; the home page offers to turn it off.
  await page.goto(`${site}#/`);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(page.getByRole('status', { name: 'Cross-origin isolation' })).toContainText(
    'The service-worker fallback provides it',
  );
  await page.getByRole('button', { name: 'Turn off the service worker' }).click();
  await expect(
    page.getByRole('button', { name: 'Turn on isolation with a service worker' }),
  ).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
});
