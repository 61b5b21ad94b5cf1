import { expect, type Page, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

// A student on a phone (390 × 844): no page scrolls sideways, the Step stage stacks, and a
// panel is a full-width sheet whose content is not cut off.

test.use({ viewport: { width: 390, height: 844 } });

async function noSidewaysScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(390);
}

for (const [name, hash] of [
  ['the home page', '/#/'],
  ['the lecture', '/#/lecture/global-plain/2'],
  ['Live mode', '/#/live/global-plain'],
  ['the Scaling view', '/#/scaling'],
  ['the editor', '/#/edit'],
] as const) {
  test(`${name} does not scroll sideways on a phone`, async ({ page }) => {
    await page.goto(hash);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await noSidewaysScroll(page);
  });
}

test('Step mode on a phone: the stage stacks, and a panel is a full-width sheet', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic?sched=0+1&at=2');
  await noSidewaysScroll(page);
  // Lanes above the listing, the listing above memory: one column.
  const lanes = await page.getByRole('region', { name: 'CPUs' }).boundingBox();
  const listing = await page.getByRole('region', { name: 'Listing' }).boundingBox();
  if (!lanes || !listing) throw new Error('no stage');
  expect(listing.y).toBeGreaterThanOrEqual(lanes.y + lanes.height - 1);
  await step.openPanel('Challenges');
  const panel = page.getByRole('complementary', { name: 'Challenges panel' });
  const box = await panel.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(380);
  // A goal's value is in view, not cut off at the right.
  const goal = panel.getByRole('definition').first();
  await expect(goal).toBeInViewport({ ratio: 1 });
  await noSidewaysScroll(page);
});

test('a challenge on a phone: with its sheet closed to step, the stage says when it is solved', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain?challenge=lose-two');
  const panel = page.getByRole('complementary', { name: 'Challenges panel' });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Close' }).click();
  const onStage = page.getByRole('status', { name: 'Challenge on the stage' });
  await expect(onStage).toContainText('In progress: 0 steps');
  // The schedule the walkthrough solved it with: 0 0 0 1 1 1 1 0.
  for (const k of [0, 0, 0, 1, 1, 1, 1, 0]) await step.stepCpu(k);
  await expect(onStage).toContainText('Solved: the run ends with');
});

test('the header names the Theme menu on a phone, beside it', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain');
  const menu = await page.getByRole('combobox', { name: 'Theme' }).boundingBox();
  const label = await page.getByText('Theme', { exact: true }).boundingBox();
  if (!menu || !label) throw new Error('no Theme menu');
  // Drawn, not only named: a word's width, on the menu's row, left of it.
  expect(label.width).toBeGreaterThan(30);
  expect(label.x + label.width).toBeLessThanOrEqual(menu.x);
  expect(Math.abs(label.y + label.height / 2 - (menu.y + menu.height / 2))).toBeLessThan(8);
});

test('Be the memory system on a phone: the reads to choose come before the graph', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/seqcount-sum?variant=no-rmb&memory=lkmm');
  await page.getByRole('button', { name: 'Be the memory system' }).first().click();
  const first = page.getByRole('group', { name: /reads from$/ }).first();
  await expect(first).toBeVisible();
  const graph = await page.getByRole('region', { name: 'The execution graph' }).boundingBox();
  const choice = await first.boundingBox();
  if (!graph || !choice) throw new Error('no graph or no choice');
  // In the first screen, above the graph: no scrolling past a graph a page tall to pick.
  expect(choice.y + choice.height).toBeLessThanOrEqual(graph.y);
  expect(choice.y + choice.height).toBeLessThanOrEqual(844);
  await noSidewaysScroll(page);
});
