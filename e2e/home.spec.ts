import { expect, test } from '@playwright/test';
import { NR_FILES_GROUP } from '../src/scenarios/groups.ts';
import { catalogue } from '../src/scenarios/index.ts';
import { HomePage } from './pages/home.ts';

// The catalogue's own data (its ids are checked in catalogue.test.ts).
const nrFilesThread = NR_FILES_GROUP;
const nrFilesScenarios = catalogue.filter((s) => s.group === NR_FILES_GROUP).map((s) => s.id);
const reconstructions = catalogue.filter((s) => s.reconstruction).map((s) => s.id);
const allScenarios = catalogue.map((s) => s.id);

test('the home page is cross-origin isolated and says so', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();

  await expect(page.getByRole('heading', { level: 1, name: 'percpu-lab' })).toBeVisible();
  expect(await home.isCrossOriginIsolated()).toBe(true);
  await expect(home.isolationStatus()).toHaveText(
    'Cross-origin isolation is on: Live mode can use SharedArrayBuffer.',
  );
});

test('the catalogue lists all 17 scenarios, reconstructions labelled', async ({ page }) => {
  expect(allScenarios).toHaveLength(17);
  expect(nrFilesScenarios).toHaveLength(4);
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
