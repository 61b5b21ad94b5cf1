import { expect, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

// A new user's story with percpu-hotplug-sum: load the witness, step through CPU1's offline, see
// the sum report a negative RSS that was never true, then switch to the 6.3 fix and see it hold.

test('the offline of CPU1 makes the 6.2 sum report -3; the online|dying sum holds', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-hotplug-sum');
  await step.loadWitness('false-rss-bug');
  // Before anything: every CPU online, the counter 0.
  await expect(step.cpu(1)).toContainText('online: in cpu_online_mask');

  // off1: CPU1 is dying, out of the online mask; its dead callbacks wait to run on CPU0.
  await step.forward(1);
  await expect(step.cpu(1)).toContainText('dying: out of cpu_online_mask, in cpu_dying_mask');
  await expect(step.cpu(0)).toContainText("CPU1's dead callbacks");
  await expect(step.lastNarration()).toContainText('CPU1 goes offline');

  // check_mm()'s sum on CPU2 runs now, skipping CPU1 whose +3 is not folded yet.
  await step.forward(10);
  await expect(step.lastNarration()).toContainText('returns -3');
  await expect(step.invariant('rss-never-negative')).toHaveAccessibleName(/violated/);
  await expect(step.invariant('sum-within-window')).toHaveAccessibleName(/violated/);
  await step.screenshot('hotplug-mid-offline');

  // The fold comes too late: CPU1 is offline, its slot in fbc->count, the value 0 all along.
  await step.forward(6);
  await expect(step.cpu(1)).toContainText('offline: in neither mask');
  await expect(step.lastNarration()).toContainText('leaves cpu_dying_mask');

  // The fix: the same order, and the walk over online | dying counts CPU1's +3.
  await step.loadWitness('dying-counted');
  await step.forward(15);
  await expect(step.lastNarration()).toContainText('returns 0');
  await expect(step.invariant('rss-never-negative')).toHaveAccessibleName(/holds/);
  await expect(step.invariant('sum-within-window')).toHaveAccessibleName(/holds/);
});

test('a CPU goes offline with its lane button or Alt+Shift and its digit', async ({ page }) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-hotplug-sum');
  const offline = step.cpuControls(1).getByRole('button', { name: 'Take CPU 1 offline' });
  await expect(offline).toHaveAttribute('aria-keyshortcuts', 'Alt+Shift+1');
  // CPU2 runs check_mm(): it has no dead callbacks, so it has no such button.
  await expect(step.cpuControls(2).getByRole('button', { name: /offline/ })).toHaveCount(0);
  await offline.click();
  await expect(step.cpu(1)).toContainText('dying');
  // While the callbacks run, a second hotplug event is refused, with the reason.
  const online = step.cpuControls(1).getByRole('button', { name: 'Bring CPU 1 back online' });
  await expect(online).toHaveAttribute('aria-disabled', 'true');
  await expect(online).toHaveAttribute('title', /still going offline/);
  await step.back();
  await expect(step.cpu(1)).toContainText('online: in cpu_online_mask');
  await step.leaveFields();
  await page.keyboard.press('Alt+Shift+Digit1');
  await expect(step.cpu(1)).toContainText('dying');
});
