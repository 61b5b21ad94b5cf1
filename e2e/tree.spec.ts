import { expect, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

// The counter tree's story as a user steps it: two adds in flight take the approximate sum out
// of the accuracy range, their carries bring it back, and the precise sum was exact throughout.
test('percpu-tree: the approximate sum leaves the range while carries are in flight, then returns', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-tree');
  await expect(step.heading()).toContainText('percpu-tree');
  await step.loadWitness('two-in-flight');
  const tree = page.getByRole('img', { name: /^The counter tree:/ });
  await expect(tree).toBeVisible();
  await expect(tree).toHaveAccessibleName(/approximate sum \(the root\) 0, 20 below it: inside/);

  // Both per-CPU adds done, neither carry: 36 against a root of 0.
  await step.forward(4);
  await expect(tree).toHaveAccessibleName(/Precise sum 36; approximate sum \(the root\) 0/);
  await expect(tree).toHaveAccessibleName(/outside the range/);
  await expect(tree).toHaveAccessibleName(
    /Carries in flight \(added to a word, not yet at the root\): 16/,
  );
  await expect(page.getByText('approximate 0: OUTSIDE')).toBeVisible();

  // The carries land: back inside, nothing in flight, the precise sum still 36.
  await step.forward(4);
  await expect(tree).toHaveAccessibleName(
    /Precise sum 36; approximate sum \(the root\) 16, 20 below it: inside/,
  );
  await expect(tree).not.toHaveAccessibleName(/in flight/);
  await expect(page.getByText('approximate 16: inside')).toBeVisible();
});

test('percpu-tree: a carry is drawn as it moves up the tree', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-tree');
  await step.loadWitness('carry-ripple');
  const tree = page.getByRole('img', { name: /^The counter tree:/ });
  // CPU0's word 7 → 8, its level-1 item 4 → 8, the root 0 → 8.
  await step.forward(4);
  await expect(tree).toHaveAccessibleName(
    /The step carried 4 up to l1_0 \(level 1\) from CPU0's word/,
  );
  await step.forward(1);
  await expect(tree).toHaveAccessibleName(/The step carried 8 up to root \(level 2\) from l1_0/);
  await expect(tree).toHaveAccessibleName(/approximate sum \(the root\) 8, 9 below it: inside/);
});
