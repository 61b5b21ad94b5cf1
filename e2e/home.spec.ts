import { expect, test } from '@playwright/test';
import { HomePage } from './pages/home.ts';

const nrFilesThread = '2006 nr_files thread';
const nrFilesScenarios = ['global-plain', 'global-atomic', 'global-spinlock', 'lazy-nr-files'];

test('the home page is cross-origin isolated and says so', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();

  await expect(page.getByRole('heading', { level: 1, name: 'percpu-lab' })).toBeVisible();
  expect(await home.isCrossOriginIsolated()).toBe(true);
  await expect(home.isolationStatus()).toHaveText(
    'Cross-origin isolation is on: Live and Bench modes can use SharedArrayBuffer.',
  );
});

test('the catalogue lists the 2006 nr_files scenarios under their thread', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();

  const thread = home.group(nrFilesThread);
  await expect(thread.getByRole('heading', { level: 2, name: nrFilesThread })).toBeVisible();
  for (const id of nrFilesScenarios) {
    await expect(home.scenario(id, thread), `${id} is listed under ${nrFilesThread}`).toBeVisible();
  }
});
