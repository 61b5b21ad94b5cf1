import { expect, type Page, test } from '@playwright/test';
import { findLesson } from '../src/lessons/index.ts';
import { AxiomaticPage } from './pages/axiomatic.ts';
import { HomePage } from './pages/home.ts';
import { StepPage } from './pages/step.ts';

// Lecture mode as a teacher drives it: from the keyboard, slide by slide, each with its link.

test('a whole lesson walked by keyboard: the stage follows each slide, Escape leaves', async ({
  page,
}) => {
  const slides = findLesson('global-plain')?.slides ?? [];
  expect(slides.length).toBeGreaterThan(2);
  const step = new StepPage(page);
  await page.goto('/#/lecture/global-plain/1');
  const slide = (n: number) =>
    page.getByRole('article', { name: `Slide ${n} of ${slides.length}` });
  for (const [i, s] of slides.entries()) {
    await expect(slide(i + 1)).toBeVisible();
    await expect(slide(i + 1).getByRole('heading', { level: 2 })).toHaveText(s.title);
    await expect(page).toHaveURL(new RegExp(`#/lecture/global-plain/${i + 1}$`));
    // A slide that names a figure shows it on the stage.
    if (s.at !== undefined && s.expect && 'nr' in s.expect) {
      await expect(step.memory('nr_files')).toHaveText(String(s.expect.nr));
    }
    if (s.predict) {
      await expect(slide(i + 1).getByText(s.predict.answer)).toHaveCount(0);
      await slide(i + 1)
        .getByRole('button', { name: 'Reveal the answer' })
        .press('Enter');
      await expect(slide(i + 1).getByText(s.predict.answer)).toBeVisible();
      // Back to the slides' keys (Space on a focused button presses it).
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
      });
    }
    // Three ways on: PageDown, Space and →.
    await page.keyboard.press(['PageDown', 'Space', 'ArrowRight'][i % 3] ?? 'PageDown');
  }
  // Past the last slide nothing moves; PageUp and ← go back.
  await expect(slide(slides.length)).toBeVisible();
  await page.keyboard.press('PageUp');
  await expect(slide(slides.length - 1)).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(slide(slides.length - 2)).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(slide(2)).toBeVisible();
  // The digits still step the CPUs on the stage (slide 2 has taken one step of CPU0).
  const before = await step.narrationItems().count();
  await page.keyboard.press('Digit1');
  await expect(step.narrationItems()).toHaveCount(before + 1);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/#\/step\/global-plain/);
  await expect(step.narrationItems()).toHaveCount(before + 1);
});

test('a slide link opens that slide, with its stage, and the course remembers it', async ({
  page,
}) => {
  const step = new StepPage(page);
  await page.goto('/#/lecture/percpu-classic/3');
  await expect(page.getByRole('article', { name: 'Slide 3 of 6' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The fold' })).toBeVisible();
  await expect(step.memory('fbc->count')).toHaveText('32');
  await expect(step.memory('CPU0’s fbc->counters')).toHaveText('0');
  // The scenario's card on the home page shows where this browser got, across a reload, and
  // the course's line offers to go on there.
  await page.goto('/#/');
  const item = new HomePage(page).scenario('percpu-classic');
  await expect(item).toContainText('lecture at slide 3 of 6');
  await page.reload();
  await expect(item).toContainText('lecture at slide 3 of 6');
  await expect(item.getByRole('link', { name: 'Lecture 5: percpu-classic' })).toHaveAttribute(
    'href',
    '#/lecture/percpu-classic/3',
  );
  await expect(
    page.getByRole('region', { name: 'Course' }).getByRole('link', { name: /^Continue with/ }),
  ).toHaveAttribute('href', '#/lecture/percpu-classic/3');
  // An unknown lesson says so.
  await page.goto('/#/lecture/no-such-lesson/1');
  await expect(page.getByRole('alert')).toContainText('There is no lesson ‘no-such-lesson’');
});

test('progress made in one tab shows in another at once, and a reset empties both', async ({
  page,
  context,
}) => {
  await page.goto('/#/');
  const item = new HomePage(page).scenario('percpu-classic');
  await expect(item).toContainText('lecture not opened');
  // A second tab of the same browser lectures up to slide 4.
  const other = await context.newPage();
  await other.goto('/#/lecture/percpu-classic/4');
  await expect(other.getByRole('article', { name: 'Slide 4 of 6' })).toBeVisible();
  await expect(item).toContainText('lecture at slide 4 of 6');
  // This tab's next save keeps the other's slide: it sees slide 2 of another lesson.
  await page.goto('/#/lecture/global-plain/2');
  await expect(page.getByRole('article', { name: /^Slide 2 of / })).toBeVisible();
  await other.goto('/#/');
  const there = new HomePage(other);
  await expect(there.scenario('percpu-classic')).toContainText('lecture at slide 4 of 6');
  await expect(there.scenario('global-plain')).toContainText('slide 2 of');
  // Reset in the other tab; this one, back on the course, shows nothing started.
  await page.goto('/#/');
  await expect(item).toContainText('lecture at slide 4 of 6');
  await other.getByRole('button', { name: 'Reset progress', exact: true }).click();
  await other.getByRole('button', { name: 'Yes, reset progress' }).click();
  await expect(item).toContainText('lecture not opened');
  await other.close();
});

test('a lecture link with a bad slide keeps its lesson and says what it showed instead', async ({
  page,
}) => {
  const count = findLesson('global-plain')?.slides.length ?? 0;
  await page.goto('/#/lecture/global-plain/abc');
  await expect(page.getByRole('article', { name: `Slide 1 of ${count}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Part of this link' })).toContainText(
    `‘abc’ is not a slide number (its slides are 1 to ${count}); showing slide 1`,
  );
  await expect(page).toHaveURL(/#\/lecture\/global-plain\/1$/);
  await page.goto('/#/lecture/global-plain/99');
  await expect(page.getByRole('article', { name: `Slide ${count} of ${count}` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/lecture/global-plain/${count}$`));
  await expect(page.getByRole('status').filter({ hasText: 'Part of this link' })).toContainText(
    'there is no slide 99',
  );
  // The next slide key clears the notice with a clean address.
  await page.goto('/#/lecture/global-plain/1');
  await expect(page.getByRole('status').filter({ hasText: 'Part of this link' })).toHaveCount(0);
});

test('an address no page owns says so on the catalogue', async ({ page }) => {
  await page.goto('/#/garbage/route');
  await expect(page.getByRole('alert')).toContainText('There is no page at ‘#/garbage/route’');
  await expect(page.getByRole('region', { name: 'Course' })).toBeVisible();
  await page.goto('/#/');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('in a lecture, Shift+arrows step in time and the ? sheet says which keys do what', async ({
  page,
}) => {
  const step = new StepPage(page);
  await page.goto('/#/lecture/global-plain/2');
  const slide2 = page.getByRole('article', { name: /^Slide 2 of / });
  await expect(slide2).toBeVisible();
  const cursor = async () => Number(await step.timelinePosition().inputValue());
  const at = await cursor();
  await page.keyboard.press('Digit1');
  await expect.poll(cursor).toBe(at + 1);
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(cursor).toBe(at);
  await expect(slide2).toBeVisible();
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(cursor).toBe(at + 1);
  await expect(page.getByRole('button', { name: 'Step back' })).toHaveAttribute(
    'aria-keyshortcuts',
    'Shift+ArrowLeft',
  );
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toContainText('Next / previous slide');
  await expect(sheet).toContainText('Shift + ← / Shift + →');
  await expect(sheet).toContainText('Escape');
  await expect(sheet).not.toContainText('Play / pause');
  await page.keyboard.press('Escape');
  // Plain ← still turns the slide.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('article', { name: /^Slide 1 of / })).toBeVisible();
});

test('Copy link in a lecture gives this slide at this moment, and it reopens there', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const step = new StepPage(page);
  await page.goto('/#/lecture/global-plain/2');
  await expect(page.getByRole('article', { name: /^Slide 2 of / })).toBeVisible();
  const cursor = async () => Number(await step.timelinePosition().inputValue());
  const at = await cursor();
  await page.keyboard.press('Digit1');
  await expect.poll(cursor).toBe(at + 1);
  const url = await step.copyLink();
  expect(url).toMatch(new RegExp(`#/lecture/global-plain/2\\?sched=.+&at=${at + 1}$`));
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByRole('article', { name: /^Slide 2 of / })).toBeVisible();
  await expect(other.getByRole('slider', { name: 'Timeline position' })).toHaveValue(
    String(at + 1),
  );
  // The next slide is the slide's own stage again, with a plain address.
  await other.keyboard.press('PageDown');
  await expect(other).toHaveURL(/#\/lecture\/global-plain\/3$/);
});

/** The stage's picture (its largest chart) as a share of the screen, and its badges' bottoms. */
async function picture(page: Page) {
  const memory = page.getByRole('region', { name: 'Memory' });
  let area = 0;
  for (const img of await memory.getByRole('img').all()) {
    const b = await img.boundingBox();
    if (b) area = Math.max(area, b.width * b.height);
  }
  const screen = page.viewportSize();
  if (!screen) throw new Error('no viewport');
  return area / (screen.width * screen.height);
}

for (const [width, height] of [
  [1280, 720],
  [1024, 768],
  [1366, 768],
] as const) {
  test(`Large in a lecture at ${String(width)}×${String(height)} grows the picture and keeps every badge in view`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    for (const id of ['percpu-classic', 'percpu-seq']) {
      await page.goto(`/#/lecture/${id}/2`);
      const large = page.getByRole('button', { name: 'Large', exact: true });
      // Large is remembered from the lesson before.
      if ((await large.getAttribute('aria-pressed')) === 'true') await large.click();
      await expect(large).toHaveAttribute('aria-pressed', 'false');
      await expect.poll(() => picture(page)).toBeGreaterThan(0.1);
      const before = await picture(page);
      await large.click();
      await expect(large).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(() => picture(page), { message: id }).toBeGreaterThanOrEqual(before);
      const badges = page.getByRole('region', { name: 'Invariants' }).getByRole('listitem');
      expect(await badges.count()).toBe(5);
      for (const badge of await badges.all()) await expect(badge).toBeInViewport({ ratio: 1 });
      expect(
        await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
      ).toBeLessThanOrEqual(0);
    }
  });
}

test('Large in Step mode at 1280×720 makes the chart larger, not only the listing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/#/step/percpu-classic?sched=0*3&at=3');
  await expect.poll(() => picture(page)).toBeGreaterThan(0.2);
  const before = await picture(page);
  await page.getByRole('button', { name: 'Large', exact: true }).click();
  await expect.poll(() => picture(page)).toBeGreaterThan(before * 1.05);
});

test('a slide on the kernel’s memory model draws the execution its text is about', async ({
  page,
}) => {
  const slides = findLesson('percpu-rwsem')?.slides ?? [];
  const n = slides.findIndex((s) => s.graph !== undefined) + 1;
  expect(n).toBeGreaterThan(0);
  await page.goto(`/#/lecture/percpu-rwsem/${String(n)}`);
  await expect(
    page.getByRole('article', { name: `Slide ${String(n)} of ${String(slides.length)}` }),
  ).toBeVisible();
  // The stage is under lkmm, and draws an execution ending with both inside.
  const lkmm = new AxiomaticPage(page);
  await expect(
    lkmm.graph(/^An execution that ends in reader_in=1 writer_in=1: allowed by lkmm/),
  ).toBeVisible();
});
