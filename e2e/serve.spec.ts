import { expect, type Page, test } from '@playwright/test';
import { LivePage } from './pages/live.ts';
import { StepPage } from './pages/step.ts';

/** Every policy violation the page or its workers report, and every request's URL. */
function watch(page: Page) {
  const violations: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
  });
  page.on('request', (r) => requests.push(r.url()));
  return { violations, requests };
}

test('the served site is isolated, sends its policies, and runs compiled CPUs under them @timing', async ({
  page,
  request,
}) => {
  const seen = watch(page);
  const doc = await request.get('/');
  expect(doc.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(doc.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  const csp = doc.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);

  const live = new LivePage(page);
  await live.open('#/live/global-atomic?cpus=2');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(page.getByRole('combobox', { name: 'Engine' })).toHaveValue('compiled');
  await live.runFor(1000);
  expect(await live.total(/^Adds/)).toBeGreaterThan(10_000);

  // The CPU worker's own policy is the one that lets it compile WebAssembly.
  const cpu = seen.requests.find((u) => u.includes('/assets/cpu.worker-'));
  expect(cpu, 'the CPU worker script was requested').toBeDefined();
  const worker = await request.get(cpu ?? '');
  expect(worker.headers()['content-security-policy']).toContain(
    "script-src 'self' 'wasm-unsafe-eval'",
  );
  expect(seen.violations).toEqual([]);
});

test('no screen makes a request to another origin', async ({ page, baseURL }) => {
  const seen = watch(page);
  await page.goto('/');
  for (const hash of ['#/step/percpu-classic', '#/live/percpu-classic?cpus=2', '#/scaling']) {
    await page.goto(`/${hash}`);
    await page.waitForLoadState('networkidle');
  }
  // Explore runs in its own worker.
  await page.goto('/#/step/global-plain');
  await new StepPage(page).openPanel('Explore');
  await page
    .getByRole('region', { name: 'Explore' })
    .getByRole('button', { name: 'Explore' })
    .click();
  await expect(page.getByRole('region', { name: 'Explore' }).getByRole('status')).toContainText(
    'Done:',
  );
  const origin = new URL(baseURL ?? '').origin;
  const elsewhere = seen.requests.filter(
    (u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'),
  );
  expect(elsewhere).toEqual([]);
  expect(seen.requests.length).toBeGreaterThan(3);
  expect(seen.violations).toEqual([]);
});
