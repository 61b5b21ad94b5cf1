import { expect, test } from '@playwright/test';
import { catalogue } from '../src/scenarios/index.ts';
import { StepPage } from './pages/step.ts';

// Screenshots as tests: every scenario's stage at the two projector sizes, Large off and on, in
// the light and the dark theme, compared with the pictures committed beside this file. A layout
// break (a chart squeezed, a lane cut, a badge pushed off) fails here. Motion is reduced so
// the charts show their resting geometry; Step mode has no live numbers to mask. After a change
// made on purpose: `npx playwright test e2e/visual.spec.ts --update-snapshots`, then look at
// every picture that changed before committing it.

const sizes = [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
];

for (const sc of catalogue) {
  for (const theme of ['light', 'dark'] as const) {
    test(`${sc.id}, ${theme}: the stage at both sizes, Large off and on`, async ({ page }) => {
      // Four screenshots, each compared until stable: more than one default timeout.
      test.setTimeout(120_000);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const step = new StepPage(page);
      const witness = sc.witnesses[0];
      for (const { width, height } of sizes) {
        await page.setViewportSize({ width, height });
        // A fresh document each time (a change of hash alone would keep Large on).
        await page.goto('about:blank');
        await page.goto(`/?theme=${theme}#/step/${sc.id}`);
        await expect(step.heading()).toContainText(sc.id);
        // A moment with something to see: the first witness, a few steps in.
        if (witness) {
          await step.loadWitness(witness.name);
          await step.forward(Math.min(6, witness.schedule.split(/\s+/).length));
        }
        for (const large of [false, true]) {
          if (large) await page.getByRole('button', { name: 'Large', exact: true }).click();
          await expect(page).toHaveScreenshot(
            `${sc.id}-${String(width)}x${String(height)}${large ? '-large' : ''}-${theme}.png`,
            { animations: 'disabled', caret: 'hide', maxDiffPixelRatio: 0.01 },
          );
        }
      }
    });
  }
}
