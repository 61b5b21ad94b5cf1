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

test('the catalogue lists all 23 scenarios, reconstructions labelled', async ({ page }) => {
  expect(allScenarios).toHaveLength(23);
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

test('at 1280 × 720 the catalogue is a few screens of cards, each with a preview', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const home = new HomePage(page);
  await home.open();
  // The course list loads after the page, and the previews are drawn after the first paint:
  // measure once both are there.
  await expect(home.course()).toBeVisible();
  await expect(home.previews()).toHaveCount(allScenarios.length);
  for (const id of allScenarios) {
    await expect(home.previews(home.scenario(id)), `${id} has a preview`).toHaveCount(1);
  }
  // As one tall list the page was 7,866 px; as cards with the course's list above them, 3,062
  // px; with each lecture's state on its card and the course in a line, 2,618 px (17 cards);
  // 19 cards take one more row: 2,827 px; 21, with a group of their own, 3,208 px; 22, with
  // the tree's group, @@H@@ px.
  expect(await home.height()).toBeLessThanOrEqual(3300);
  await expect(home.previews(home.scenario('global-plain'))).toHaveAccessibleName(
    'preview at the end of witness lost-update: nr_files 101',
  );
});

test('a card opens its scenario in Step mode anywhere on it, and live from its Live link', async ({
  page,
}) => {
  const home = new HomePage(page);
  await home.open();
  const card = home.scenario('percpu-classic');
  await expect(home.stepLink('percpu-classic')).toHaveAttribute('href', '#/step/percpu-classic');
  // The title is under the Step link's cover: a click there is a click on the link.
  await card.scrollIntoViewIfNeeded();
  const title = await card.getByRole('heading', { level: 3 }).boundingBox();
  if (!title) throw new Error('no title');
  await page.mouse.click(title.x + 10, title.y + title.height / 2);
  await expect(page).toHaveURL(/#\/step\/percpu-classic/);
  await page.goBack();
  await home.liveLink('percpu-classic').click();
  await expect(page).toHaveURL(/#\/live\/percpu-classic/);
  // No Live link where the scenario cannot run on real cores.
  await page.goBack();
  await expect(home.stepLink('torn-read-32')).toBeVisible();
  await expect(home.liveLink('torn-read-32')).toHaveCount(0);
});

test('the keyboard goes from a card to its Live link and on, the card showing its focus', async ({
  page,
}) => {
  const home = new HomePage(page);
  await home.open();
  // Each card's lecture link comes with the lessons, after the page: wait for them.
  // The cards follow the course: global-spinlock (lecture 2) comes after global-plain.
  const nextLecture = page.getByRole('link', { name: 'Lecture 2: global-spinlock', exact: true });
  await expect(nextLecture).toBeVisible();
  await home.stepLink('global-plain').focus();
  const card = home.scenario('global-plain');
  await page.keyboard.press('Tab');
  await expect(home.liveLink('global-plain')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(home.stepLink('global-plain')).toBeFocused();
  await expect(card).toHaveCSS('outline-style', 'solid');
  // On to the next card: its lecture line, then its Step link.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(nextLecture).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(home.stepLink('global-spinlock')).toBeFocused();
});

test('the catalogue follows the course: lectures in order within a group, groups by their first', async ({
  page,
}) => {
  const home = new HomePage(page);
  await home.open();
  // Each card's lecture link, as the page lists them ("Lecture 12: this-cpu-migrate"), by group.
  const groups = page.getByRole('region').filter({ has: page.getByRole('heading', { level: 2 }) });
  await expect(page.getByRole('link', { name: /^Lecture \d+: / })).toHaveCount(23);
  const firsts: number[] = [];
  for (const group of await groups.all()) {
    const names = await group
      .getByRole('link', { name: /^Lecture \d+: / })
      .evaluateAll((links) => links.map((a) => a.getAttribute('aria-label') ?? ''));
    const numbers = names.map((n) => Number(/^Lecture (\d+)/.exec(n)?.[1]));
    if (numbers.length === 0) continue;
    const heading = await group.getByRole('heading', { level: 2 }).textContent();
    expect(numbers, `${heading ?? ''}: ${names.join(', ')}`).toEqual(
      [...numbers].sort((a, b) => a - b),
    );
    firsts.push(numbers[0] as number);
  }
  expect(firsts.length).toBeGreaterThan(5);
  expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
});
