import { expect, type Page, type Response, test } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { catalogue } from '../src/scenarios/index.ts';
import { HomePage } from './pages/home.ts';
import { StepPage } from './pages/step.ts';

// The JavaScript a first page downloads, gzipped, is held to a budget: every script the page
// requests until it is shown and the network is idle, the lazy chunks it loads at once included.
// A size, not a duration: it does not depend on the machine.
//
// The home page holds React and its cards, computed when the app was built: at most 150 KiB.
// A Step link also holds the pure core (the language, the machine, and the one catalogue entry
// it opens) and Step mode: at most 184 KiB. What each holds, and today's figures, are in
// docs/benchmarks.md ("The first page"); a ceiling a little above today's size, so that neither
// can grow unnoticed.
const KIB = 1024;
const BUDGET = { home: 150 * KIB, step: 184 * KIB };

/** Every script response of the page from now on, read when asked. */
function scripts(page: Page) {
  const seen: Response[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script' || new URL(r.url()).pathname.endsWith('.js'))
      seen.push(r);
  });
  return async () => {
    const files = await Promise.all(
      seen.map(async (r) => ({
        file: new URL(r.url()).pathname.replace(/^.*\//, ''),
        gzip: gzipSync(await r.body()).length,
      })),
    );
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const listing = files
      .sort((a, b) => b.gzip - a.gzip)
      .map((f) => `${String(f.gzip).padStart(7)} ${f.file}`)
      .join('\n');
    return { total, listing };
  };
}

test('the home page loads at most its budget of gzipped JavaScript', async ({ page }) => {
  const read = scripts(page);
  const home = new HomePage(page);
  await home.open();
  // Shown: the course line and every card's preview.
  await expect(home.course()).toBeVisible();
  await expect(home.previews()).toHaveCount(catalogue.length);
  await page.waitForLoadState('networkidle');

  const { total, listing } = await read();
  expect(total, `gzipped JavaScript of the home page:\n${listing}`).toBeLessThanOrEqual(
    BUDGET.home,
  );
  test.info().annotations.push({ type: 'gzipped JavaScript', description: `${String(total)} B` });
});

test('a Step link loads at most its budget of gzipped JavaScript', async ({ page }) => {
  const read = scripts(page);
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic');
  await expect(step.heading()).toContainText('percpu-classic');
  await page.waitForLoadState('networkidle');

  const { total, listing } = await read();
  expect(total, `gzipped JavaScript of a Step link:\n${listing}`).toBeLessThanOrEqual(BUDGET.step);
  test.info().annotations.push({ type: 'gzipped JavaScript', description: `${String(total)} B` });
});
