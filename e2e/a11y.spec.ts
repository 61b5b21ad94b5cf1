import { expect, test } from '@playwright/test';
import { seriousViolations } from './pages/axe.ts';
import { EditPage } from './pages/edit.ts';
import { LivePage } from './pages/live.ts';
import { StepPage } from './pages/step.ts';

// Accessibility checked by a tool: axe-core on every screen (and each Step panel open) finds no
// serious or critical violation.

const screens: [string, string][] = [
  ['the catalogue and course', '/#/'],
  ['Live mode', '/#/live/percpu-classic?cpus=2'],
  ['the Scaling view', '/#/scaling'],
  ['a lecture slide', '/#/lecture/percpu-classic/3'],
];

for (const [name, url] of screens) {
  test(`axe finds no serious violation on ${name}`, async ({ page }) => {
    await page.goto(url);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('axe finds no serious violation on the Step stage, with each panel open', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-atomic64');
  await step.loadWitness('sum-misses-a-batch');
  await step.forward(8);
  expect(await seriousViolations(page)).toEqual([]);
  for (const panel of ['Parameters', 'Lesson', 'Challenges', 'Results', 'Explore']) {
    await step.openPanel(panel);
    expect(await seriousViolations(page), panel).toEqual([]);
  }
});

test('axe finds no serious violation on Live mode after a run, with its verdict @timing', async ({
  page,
}) => {
  const live = new LivePage(page);
  await live.open('#/live/percpu-classic?cpus=2');
  await live.runFor(500);
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe finds no serious violation in the editor, with a program that does not compile', async ({
  page,
}) => {
  const edit = new EditPage(page);
  await edit.openCompiledExample('first');
  expect(await seriousViolations(page)).toEqual([]);
  await edit.text().getByText('READ_ONCE').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(edit.problems()).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
});
