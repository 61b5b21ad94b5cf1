import { expect, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

for (const [w, h, name] of [
  [1280, 720, 'desk'],
  [390, 844, 'phone'],
] as const) {
  test(`shot ${name}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/?theme=light#/step/percpu-tree');
    const step = new StepPage(page);
    await expect(step.heading()).toContainText('percpu-tree');
    await step.loadWitness('two-in-flight');
    await step.forward(4);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `/tmp/tree-${name}.png`, fullPage: name === 'phone' });
    await step.forward(4);
    await page.screenshot({ path: `/tmp/tree-${name}-end.png`, fullPage: name === 'phone' });
  });
}
