import { expect, type Page, test } from '@playwright/test';
import { catalogue } from '../src/scenarios/index.ts';
import { HomePage } from './pages/home.ts';
import { StepPage } from './pages/step.ts';

// Screenshots as tests: each scenario's Step stage once (1280 × 720, light, its first witness a
// few steps in), then the few pictures that test what the stage alone does not: the dark and the
// projector themes, Large at both projector sizes, a phone, and the home page's previews. A
// layout break (a chart squeezed, a lane cut, a badge pushed off) fails here. The numbers behind
// the charts (positions, sizes, labels that fit and do not overlap) are unit tests beside each
// layout in src/charts/; these pictures catch what numbers do not: a rule of the style sheet.
//
// The pictures are Linux's (Chromium draws text with FreeType there); on another OS the tests
// tagged @visual have no baseline, so `npm run test:e2e:portable` runs everything else. A
// baseline changes only with the change that meant it: after a change to the stage made on
// purpose, `npx playwright test e2e/visual.spec.ts --update-snapshots` (build first), look at
// every picture that changed, and commit them with that change, saying so.

/**
 * How many pixels may differ from the baseline. The app draws every letter with its own fonts, so
 * the same Chromium on another Linux machine draws the same pixels (a rerun differs by none);
 * this leaves room for a few anti-aliased edges only. Measured with the bundled fonts: one
 * character changed at 13 px ("CPU0" to "CPU1") is 30-50 pixels, a word moved by one pixel
 * about 240. A percentage of the page (1 % was 9,216 pixels at 1280 × 720) let whole lines move
 * unseen.
 */
const MAX_DIFF_PIXELS = 16;

const snap = { animations: 'disabled', caret: 'hide', maxDiffPixels: MAX_DIFF_PIXELS } as const;

/** The Step stage of `id` with its first witness a few steps in, as a class would see it. */
async function openStage(
  page: Page,
  id: string,
  o: { width: number; height: number; theme?: string; large?: boolean },
): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: o.width, height: o.height });
  await page.goto(`/?theme=${o.theme ?? 'light'}#/step/${id}`);
  const step = new StepPage(page);
  await expect(step.heading()).toContainText(id);
  // The stage is laid out with the bundled fonts: wait for them before anything measures it.
  await page.evaluate(() => document.fonts.ready);
  const witness = catalogue.find((sc) => sc.id === id)?.witnesses[0];
  if (witness) {
    await step.loadWitness(witness.name);
    await step.forward(Math.min(6, witness.schedule.split(/\s+/).length));
  }
  if (o.large) await page.getByRole('button', { name: 'Large', exact: true }).click();
  await page.evaluate(() => document.fonts.ready);
}

test.describe('pictures', { tag: '@visual' }, () => {
  for (const sc of catalogue) {
    test(`${sc.id}: the stage at 1280×720`, async ({ page }) => {
      await openStage(page, sc.id, { width: 1280, height: 720 });
      await expect(page).toHaveScreenshot(`${sc.id}.png`, snap);
    });
  }

  // Each of these shows a scenario whose stage above is in the light theme at 1280 × 720.
  const variants = [
    { id: 'percpu-atomic64', name: 'dark', width: 1280, height: 720, theme: 'dark' },
    { id: 'global-plain', name: 'dark', width: 1280, height: 720, theme: 'dark' },
    { id: 'torn-read-32', name: 'projector', width: 1280, height: 720, theme: 'contrast' },
    { id: 'percpu-classic', name: 'large', width: 1280, height: 720, large: true },
    { id: 'percpu-seq', name: '1024x768-large', width: 1024, height: 768, large: true },
    { id: 'percpu-classic', name: 'phone', width: 390, height: 844 },
  ];
  for (const v of variants) {
    test(`${v.id}: the stage, ${v.name}`, async ({ page }) => {
      await openStage(page, v.id, v);
      await expect(page).toHaveScreenshot(`${v.id}-${v.name}.png`, snap);
    });
  }

  test('the home page: a group of cards and their previews', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/?theme=light#/');
    const group = new HomePage(page).group('2006 nr_files thread');
    await expect(group.getByRole('listitem')).toHaveCount(4);
    await page.evaluate(() => document.fonts.ready);
    await expect(group).toHaveScreenshot('home-2006.png', snap);
  });
});
