import { expect, type Page, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

/** Opens a Step-mode link and starts exploring it. */
async function exploreAt(page: Page, hash: string) {
  const step = new StepPage(page);
  await step.open(hash);
  await step.openPanel('Explore');
  const panel = page.getByRole('region', { name: 'Explore' });
  await panel.getByRole('button', { name: 'Explore' }).click();
  return { step, panel };
}

test('explore global-plain in a worker: three outcomes, the lost updates marked, a witness replays', async ({
  page,
}) => {
  const { step, panel } = await exploreAt(page, '#/step/global-plain?iterations=2');
  await expect(panel.getByRole('status')).toContainText('Done:');
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toBeVisible();
  // Both axes say what they count: end states up, outcomes (as numbered in the list) across.
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toContainText('end states');
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toContainText(
    'outcome # as in the list',
  );
  const outcomes = panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem');
  await expect(outcomes).toHaveCount(3);
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toHaveAttribute(
    'aria-label',
    /nr=2 exact=4 \(breaks no-lost-update\)/,
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

test('an exploration shows its progress, can be cancelled and run again', async ({ page }) => {
  // Millions of states: long enough to watch it go.
  const { panel } = await exploreAt(page, '#/step/global-plain?cpus=4&iterations=4');
  await expect(panel.getByRole('status')).toContainText('Exploring');
  await expect(
    panel.getByText(
      /Exploring… [\d,]+ states \([\d,]+ states\/s\), [\d,]+ transitions, depth \d+, \d+ MB of 1024 MB/,
    ),
  ).toBeVisible();
  // The explore worker (and, when asked for, a shard worker per worker under it).
  expect(page.workers().length).toBeGreaterThanOrEqual(1);
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByRole('status')).toHaveText('Cancelled.');
  // Cancelling terminates the explore worker: nothing keeps computing in the background.
  await expect.poll(() => page.workers().length, { timeout: 5000 }).toBe(0);
  // And it runs again.
  await panel.getByRole('button', { name: 'Explore' }).click();
  await expect(panel.getByRole('status')).toContainText('Exploring');
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByRole('status')).toHaveText('Cancelled.');
});

test('an outcome carries the invariant its path broke, and Explore proposes the preset that shows the rest', async ({
  page,
}) => {
  const { panel } = await exploreAt(page, '#/step/torn-read-32?variant=up-irq');
  await expect(panel.getByRole('status')).toContainText('Done:');
  const outcomes = panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem');
  await expect(outcomes.filter({ hasText: 'read=16 ' })).toContainText(
    '✗ read-not-torn (broken at event 7)',
  );
  await expect(panel.getByRole('img', { name: /^Outcome histogram/ })).toHaveAttribute(
    'aria-label',
    /read=16 .*\(breaks read-not-torn\)/,
  );
  // up-irq also gives up no-lost-update, which an IRQ that only reads cannot show.
  await expect(panel.getByText(/This variant gives up no-lost-update/)).toBeVisible();
  await panel.getByRole('button', { name: 'Use preset irq-adds' }).click();
  await panel.getByRole('button', { name: 'Explore' }).click();
  await expect(panel.getByRole('status')).toContainText('Done:');
  await expect(outcomes.filter({ hasText: '✗ no-lost-update' }).first()).toBeVisible();
});

test('symmetry reduction: fewer states, the same outcomes, and says so', async ({ page }) => {
  const { panel } = await exploreAt(page, '#/step/global-plain?cpus=3&iterations=2');
  await expect(panel.getByRole('status')).toContainText('Done:');
  const outcomes = panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem');
  const all = await outcomes.allTextContents();
  await panel.getByRole('checkbox', { name: 'Symmetry reduction' }).check();
  await panel.getByRole('button', { name: 'Explore' }).click();
  await expect(panel.getByRole('status')).toContainText('Reductions: symmetry on');
  const reduced = await outcomes.allTextContents();
  const observables = (xs: string[]) => xs.map((x) => x.split(' (')[0]).sort();
  expect(observables(reduced)).toEqual(observables(all));
});

test('an exploration survives a look at another panel', async ({ page }) => {
  const { step, panel } = await exploreAt(page, '#/step/global-plain?iterations=2');
  await expect(panel.getByRole('status')).toContainText('Done:');
  await step.openPanel('Results');
  await step.openPanel('Explore');
  // The same outcomes, without running again: a teacher replays one after another.
  await expect(panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem')).toHaveCount(3);
  await expect(panel.getByRole('status')).toContainText('Done:');
});

test('percpu-atomic64: before a run, Explore says its defaults cannot show the missed batch', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-atomic64');
  await step.openPanel('Explore');
  const panel = page.getByRole('region', { name: 'Explore' });
  await expect(panel).toContainText(
    'With these parameters Explore cannot show what percpu-atomic64 gives up',
  );
  await panel.getByRole('button', { name: 'Use preset five-adds' }).click();
  await expect(panel).not.toContainText('With these parameters Explore cannot show');
});

test('Explore searches on two workers when asked, and the answer is the one worker’s', async ({
  page,
}) => {
  // global-plain, 3 CPUs × 5: 779,230 states, seconds of work, so the shard workers are ready
  // long before one thread would be done.
  const step = new StepPage(page);
  await step.open('#/step/global-plain?cpus=3&iterations=5');
  await step.openPanel('Explore');
  const panel = page.getByRole('region', { name: 'Explore' });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const workers = panel.getByRole('combobox', { name: 'Workers' });
  // Below four cores one thread is the default (src/explore/limits.ts says why).
  if (cores > 1) {
    await expect(workers).toHaveValue(cores >= 4 ? String(Math.min(8, cores)) : '1');
    await workers.selectOption('2');
  } else await expect(workers).toHaveCount(0);
  await panel.getByRole('button', { name: 'Explore' }).click();
  const status = panel.getByRole('status');
  await expect(status).toContainText('Done:', { timeout: 90_000 });
  await expect(status).toContainText('779,230 states, 1,867,455 transitions');
  if (cores > 1) await expect(status).toContainText('2 workers');
  else await expect(status).not.toContainText('workers');
  // The lab's own answer with one thread (lab explore --workers 1): 14 outcomes.
  await expect(panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem')).toHaveCount(14);
});
