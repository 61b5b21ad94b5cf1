import { expect, test } from '@playwright/test';
import { HomePage } from './pages/home.ts';

const nrFilesThread = '2006 nr_files thread';
const nrFilesScenarios = ['global-plain', 'global-atomic', 'global-spinlock', 'lazy-nr-files'];
const reconstructions = ['percpu-atomic64', 'percpu-lglock', 'percpu-seq', 'percpu-seq-multi'];
const allScenarios = [
  ...nrFilesScenarios,
  'percpu-classic',
  ...reconstructions,
  'percpu-sum-fuzzy',
  'this-cpu-migrate',
  'this-cpu-ops',
  'irq-local-rmw',
  'cmpxchg-local-generic',
  'percpu-modern',
  'torn-read-32',
];

test('the home page is cross-origin isolated and says so', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();

  await expect(page.getByRole('heading', { level: 1, name: 'percpu-lab' })).toBeVisible();
  expect(await home.isCrossOriginIsolated()).toBe(true);
  await expect(home.isolationStatus()).toHaveText(
    'Cross-origin isolation is on: Live mode can use SharedArrayBuffer.',
  );
});

test('the catalogue lists all 16 scenarios, reconstructions labelled', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();

  for (const id of allScenarios) {
    await expect(home.scenario(id), `${id} is listed`).toBeVisible();
  }
  for (const id of reconstructions) {
    await expect(home.scenario(id).getByText('reconstruction', { exact: true })).toBeVisible();
  }
  await expect(
    home.scenario('percpu-classic').getByText('reconstruction', { exact: true }),
  ).toHaveCount(0);
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
