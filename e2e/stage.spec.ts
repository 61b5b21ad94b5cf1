import { expect, type Locator, type Page, test } from '@playwright/test';
import { StepPage } from './pages/step.ts';

// The classroom's stage: at the sizes a projector shows, the class sees a step's cause (the CPU
// lanes and their buttons, the listing's cursors) and its effect (memory, the slot bars, the
// narration, the invariant badges) at once, without anyone scrolling the page.

const sizes = [
  { width: 1280, height: 720, large: false },
  { width: 1024, height: 768, large: false },
  { width: 1280, height: 720, large: true },
  { width: 800, height: 600, large: true },
];

async function expectStageInView(page: Page, cpus: readonly number[]) {
  const step = new StepPage(page);
  expect(
    await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
  ).toBeLessThanOrEqual(0);
  for (const k of cpus) await expect(step.stepButton(k)).toBeInViewport({ ratio: 1 });
  // The listing line a CPU runs next, found by its cursor chip ("CPU1").
  await expect(
    page
      .getByRole('list', { name: 'Source listing' })
      .getByRole('listitem')
      .filter({ has: page.getByText(/^CPU\d+$/) })
      .first(),
  ).toBeInViewport({ ratio: 1 });
  // The chart is the picture: at least a quarter of the screen, wholly in view; the memory it
  // draws (fbc->count, the deltas) is its labels, not a second table.
  const chart = step.slotBars('fbc->counters');
  await expect(chart).toBeInViewport({ ratio: 1 });
  const box = await chart.boundingBox();
  const screen = page.viewportSize();
  if (!box || !screen) throw new Error('no chart');
  if (screen.width >= 1024) {
    expect(box.width * box.height).toBeGreaterThanOrEqual(0.25 * screen.width * screen.height);
  }
  await expect(step.memoryRegion().getByText('fbc->lock', { exact: true })).toBeInViewport();
  // The newest narration line, whole, in the bar above the stage.
  await expect(page.getByRole('note', { name: 'Latest step' })).toBeInViewport({ ratio: 1 });
  // Every badge, the fifth included (percpu-classic has five).
  const badges = page.getByRole('region', { name: 'Invariants' }).getByRole('listitem');
  await expect(badges).toHaveCount(5);
  for (const badge of await badges.all()) await expect(badge).toBeInViewport({ ratio: 1 });
}

for (const { width, height, large } of sizes) {
  test(`the stage fits ${width}×${height}${large ? ' in Large' : ''} without scrolling the page`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    const step = new StepPage(page);
    // Four CPUs, a fold waiting for the lock the summer holds.
    await step.open('#/step/percpu-classic');
    await step.loadWitness('sum-holds-the-lock');
    await step.forward(14);
    if (large) await page.getByRole('button', { name: 'Large' }).click();
    await expectStageInView(page, [0, 1, 2, 3]);
    await expectCursorLinesInView(page);
    // A panel opens beside the stage and closes with Escape, giving focus back.
    await step.openPanel('Parameters');
    await expect(step.parameter('batch')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('complementary', { name: 'Parameters panel' })).toHaveCount(0);
    await expect(
      page.getByRole('group', { name: 'Panels' }).getByRole('button', { name: 'Parameters' }),
    ).toBeFocused();
  });
}

/** Every CPU's next line in the listing (the lines with a cursor chip), wholly in view. */
async function expectCursorLinesInView(page: Page) {
  const current = page
    .getByRole('list', { name: 'Source listing' })
    .getByRole('listitem')
    .filter({ has: page.getByText(/^CPU ?\d+$/) });
  expect(await current.count()).toBeGreaterThan(0);
  for (const line of await current.all()) await expect(line).toBeInViewport({ ratio: 1 });
}

for (const { width, height, large } of [
  { width: 1280, height: 720, large: false },
  { width: 1280, height: 720, large: true },
  { width: 1024, height: 768, large: false },
  { width: 1024, height: 768, large: true },
]) {
  test(`eight CPUs fit ${width}×${height}${large ? ' in Large' : ''}: every lane, every next line, the chart`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    const step = new StepPage(page);
    // Three CPUs inside an add, one in the sum, four at the start: cursors on four lines.
    await step.open('#/step/percpu-classic?cpus=8&sched=0*3+1+2*3+5*3');
    if (large) await page.getByRole('button', { name: 'Large' }).click();
    for (let k = 0; k < 8; k++) {
      await expect(step.cpu(k)).toBeInViewport({ ratio: 1 });
      await expect(step.stepButton(k)).toBeInViewport({ ratio: 1 });
    }
    await expectCursorLinesInView(page);
    const chart = step.slotBars('fbc->counters');
    await expect(chart).toBeInViewport({ ratio: 1 });
    const box = await chart.boundingBox();
    if (!box) throw new Error('no chart');
    expect(box.width * box.height).toBeGreaterThanOrEqual(0.25 * width * height);
  });
}

test('a long listing folds to the CPUs’ lines in Large, and its fold shows the whole listing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const step = new StepPage(page);
  await step.open('#/step/percpu-seq');
  await step.loadWitness('retry-once');
  await step.forward(8);
  await page.getByRole('button', { name: 'Large' }).click();
  // CPU1 and CPU2 at line 31, CPU0 at 36, CPU3 at 61: 31 lines apart, more than the box holds.
  await expectCursorLinesInView(page);
  await expect(page.getByRole('note', { name: 'Latest step' })).toBeInViewport({ ratio: 1 });
  const fold = page.getByRole('button', { name: /^⋯ lines 38–\d+ folded/ });
  await expect(fold).toBeVisible();
  await fold.click();
  await expect(page.getByRole('button', { name: /^⋯/ })).toHaveCount(0);
  await expect(
    page.getByRole('list', { name: 'Source listing' }).getByText('fbc->sequence += 2;'),
  ).toHaveCount(1);
  // And back.
  await page.getByRole('button', { name: 'Fold to the CPUs’ lines' }).click();
  await expectCursorLinesInView(page);
});

test('a lecture in Large at 800×600 keeps its slide buttons in view after the answer', async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto('/#/lecture/global-plain/2');
  await page.getByRole('button', { name: 'Large' }).click();
  await page.getByRole('button', { name: 'Reveal the answer' }).click();
  for (const name of ['Next slide', 'Full screen', 'Leave the lecture'])
    await expect(page.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
});

/** The px each <text> of a chart (an SVG image) is drawn at: its font size times the image's scale. */
const drawnType = (chart: Locator) =>
  chart.evaluate((svg) => {
    const s = svg as SVGSVGElement;
    const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
    return Array.from(s.querySelectorAll('text'), (t) => ({
      text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * scale,
    }));
  });

test('a lecture in Large at 1024×768 draws the sequence strip as large as the chart', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/#/lecture/percpu-seq/2');
  await page.getByRole('button', { name: 'Large' }).click();
  const strip = page.getByRole('img', { name: /^fbc->sequence = 5/ });
  await expect(strip.getByText(/^odd: a sum is in flight/)).toBeVisible();
  const chart = page.getByRole('img', { name: /^fbc->counters: / });
  // The chart's axis numbers, the type the room reads the chart by.
  const ticks = (await drawnType(chart)).filter((t) => /^[-−]?\d+$/.test(t.text));
  expect(ticks.length).toBeGreaterThan(2);
  const tick = Math.max(...ticks.map((t) => t.px));
  // The wide strip drew all of its text at 9 px here, the chart's axis at 19.
  for (const t of await drawnType(strip)) expect(t.px, t.text).toBeGreaterThanOrEqual(tick);
});

test('a lecture in Large at 1024×768 shows the slide’s question clear of its buttons', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/#/lecture/percpu-classic/2');
  await page.getByRole('button', { name: 'Large' }).click();
  const reveal = page.getByRole('button', { name: 'Reveal the answer' });
  const question = page.getByText(/^What does percpu_counter_read\(\) return/);
  const buttons = page.getByRole('navigation', { name: 'Slides' });
  // Read to its end (scrolled to, if the slide is longer than the window): nothing over it.
  await reveal.scrollIntoViewIfNeeded();
  await expect(question).toBeInViewport({ ratio: 1 });
  await expect(reveal).toBeInViewport({ ratio: 1 });
  const nav = await buttons.boundingBox();
  if (!nav) throw new Error('no slide buttons');
  for (const part of [question, reveal]) {
    const box = await part.boundingBox();
    if (!box) throw new Error('no question');
    expect(box.y + box.height).toBeLessThanOrEqual(nav.y);
  }
  await reveal.click();
  await expect(page.getByText(/^read\(\) returns 0 while the true value is 124/)).toBeVisible();
  for (const name of ['Previous slide', 'Next slide', 'Full screen', 'Leave the lecture'])
    await expect(page.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
});

test("a lane shows all of its context's registers, wrapped, not cut off", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const step = new StepPage(page);
  await step.open(
    '#/step/percpu-seq?cpus=4&batch=32&adds=1&amounts=1%2C7%2C2%2C0&summer=3&count=1000&slots=31%2C0%2C5%2C0&sequence=4&sched=0+0+3*7+0*8+3+1*4+3*9+2*4+3*8+0&at=30',
  );
  const lane = await step.cpu(3).boundingBox();
  const registers = step.cpu(3).getByText(/ret = 0, ret' = 1005, seq = 7, now = 7, cpu = 3/);
  const box = await registers.boundingBox();
  if (!lane || !box) throw new Error('no lane or registers');
  expect(box.x + box.width).toBeLessThanOrEqual(lane.x + lane.width);
});

test('the keyboard sheet opens with its title at the top, no empty band above', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/global-plain');
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const title = await sheet.getByRole('heading', { name: 'Keyboard shortcuts' }).boundingBox();
  const box = await sheet.boundingBox();
  if (!title || !box) throw new Error('no sheet');
  // The border and padding only (17 px); the heading's own top margin made it 27.
  expect(title.y - box.y).toBeLessThan(20);
});

test('a chart is drawn for the box it has, also when its figure is new since step 0', async ({
  page,
}) => {
  // torn-read-32's figure is replaced as its witness loads; a chart sized for the old box is
  // letterboxed in the new one, its parts smaller and shifted from where the layout put them.
  await page.setViewportSize({ width: 1024, height: 768 });
  const step = new StepPage(page);
  await step.open('#/step/torn-read-32');
  await step.loadWitness('lo-then-hi');
  await step.forward(5);
  const chart = page.getByRole('img', { name: /^Torn read:/ });
  const [w, h] = ((await chart.getAttribute('viewBox')) ?? '').split(' ').slice(2).map(Number);
  const box = await chart.boundingBox();
  if (!box || !w || !h) throw new Error('no torn-read chart');
  expect(w / h).toBeCloseTo(box.width / box.height, 2);
});

test('per-CPU words with no counter to chart them lead the stage as bars', async ({ page }) => {
  // this-cpu-migrate (the 2009 memcg rewrite) has per-CPU events and no percpu_counter.
  await page.setViewportSize({ width: 1280, height: 720 });
  const step = new StepPage(page);
  await step.open('#/step/this-cpu-migrate');
  await page.getByRole('button', { name: 'Large', exact: true }).click();
  const bars = page.getByRole('img', { name: /^events: CPU0/ });
  await expect(bars).toBeInViewport({ ratio: 1 });
  const box = await bars.boundingBox();
  if (!box) throw new Error('no bars');
  expect(box.width * box.height).toBeGreaterThanOrEqual(0.25 * 1280 * 720);
});

/** Whether two boxes share any area. */
const meet = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const { where, width, height } of [
  {
    where: '/step/percpu-rwsem?variant=reader-no-mb&memory=tso&sched=0+0+0+1+1+1&at=6',
    width: 1280,
    height: 720,
  },
  { where: '/step/global-plain?sched=0+1+0+1&at=4', width: 390, height: 844 },
  { where: '/step/percpu-classic?sched=0*3&at=3', width: 1024, height: 768 },
]) {
  test(`Export sits beside a chart, never on it: ${where.split('?')[0] ?? ''} at ${String(width)}×${String(height)}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto(`/#${where}`);
    const memory = new StepPage(page).memoryRegion();
    const exports = memory.getByRole('group', { name: /^Export / });
    await expect(exports.first()).toBeVisible();
    // Some charts load with the first entry that needs them: wait for one to be drawn.
    await expect(memory.getByRole('img').first()).toBeVisible();
    const charts = await memory.getByRole('img').all();
    expect(charts.length).toBeGreaterThan(0);
    for (const g of await exports.all()) {
      const e = await g.boundingBox();
      for (const c of charts) {
        const box = await c.boundingBox();
        if (!e || !box) continue;
        expect(meet(e, box), `${(await g.getAttribute('aria-label')) ?? ''} on a chart`).toBe(
          false,
        );
      }
    }
  });
}
