import { expect, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

test('explore global-plain in a worker: three outcomes, the lost updates marked, a witness replays', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain?iterations=2');
  const panel = page.getByRole('region', { name: 'Explore' });
  await panel.getByRole('button', { name: 'Explore' }).click();
  await expect(panel.getByRole('status')).toContainText('Done:');
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toBeVisible();
  const outcomes = panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem');
  await expect(outcomes).toHaveCount(3);
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toHaveAttribute(
    'aria-label',
    /nr=2 exact=4 \(violation\)/,
  );

  // Replay the outcome where two increments were lost, then run it forward in Step mode.
  const lost = outcomes.filter({ hasText: 'nr=2 exact=4' });
  await expect(lost).toContainText('✗ no-lost-update');
  await lost.getByRole('button', { name: /^Replay #\d in Step mode$/ }).click();
  await expect(step.timelinePosition()).toHaveValue('0');
  for (let i = 0; i < 8; i++) await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(step.memory('nr_files')).toHaveText('2');
  await expect(
    page.getByRole('region', { name: 'Invariants' }).getByRole('listitem').first(),
  ).toContainText('no-lost-update: violated');
});

test('an exploration can be cancelled and run again', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-seq-multi');
  const panel = page.getByRole('region', { name: 'Explore' });
  await panel.getByRole('button', { name: 'Explore' }).click();
  await expect(panel.getByRole('status')).toContainText('Exploring');
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByRole('status')).toHaveText('Cancelled.');
  await expect(panel.getByRole('button', { name: 'Explore' })).toBeVisible();
});
