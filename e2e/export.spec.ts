import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import { test } from './pages/charts.ts';

test('Export SVG downloads the counter chart as a standalone SVG with its slot bars', async ({
  page,
  charts,
}) => {
  await charts.witness('percpu-atomic64', 'sum-misses-a-batch', 10);
  const download = await charts.export('counter chart', 'SVG');
  expect(download.suggestedFilename()).toBe('percpu-atomic64-slots-step-10.svg');
  const text = await readFile(await download.path(), 'utf8');
  const parsed = await page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = doc.documentElement;
    const fills = Array.from(doc.querySelectorAll('rect')).map((r) => r.getAttribute('fill'));
    return {
      error: doc.querySelector('parsererror') !== null,
      root: root.nodeName,
      width: root.getAttribute('width'),
      title: doc.querySelector('title')?.textContent ?? '',
      // The caption above the figure: what it is and where from, then what it shows.
      caption: Array.from(root.children)
        .filter((c) => c.nodeName === 'text')
        .map((c) => c.textContent),
      // The CPUs' colours (Okabe–Ito orange, blue, green, purple) as computed styles.
      cpuBars: [
        'rgb(230, 159, 0)',
        'rgb(0, 114, 178)',
        'rgb(0, 158, 115)',
        'rgb(204, 121, 167)',
      ].map((c) => fills.filter((f) => f === c).length),
      styled: doc.querySelectorAll('[style]').length,
    };
  }, text);
  expect(parsed).toEqual({
    error: false,
    root: 'svg',
    width: '480',
    title: 'fbc->counters: CPU0 0, CPU1 0, CPU2 5, CPU3 0; batch ±32',
    caption: [
      'atomic64 count, no lock: a sum can miss a whole batch',
      '(percpu-atomic64), step 10: the counter',
      'fbc->counters: CPU0 0, CPU1 0, CPU2 5, CPU3 0; batch ±32',
    ],
    cpuBars: [1, 1, 1, 1],
    styled: 0,
  });
  expect(text).toContain('MISSED');
  expect(charts.consoleErrors).toEqual([]);
});

test('Export PNG downloads a 2× PNG of the chart', async ({ page, charts }) => {
  await charts.witness('percpu-seq', 'retry-once', 28);
  const download = await charts.export('counter chart', 'PNG');
  expect(download.suggestedFilename()).toBe('percpu-seq-slots-step-28.png');
  const png = await readFile(await download.path());
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.length).toBeGreaterThan(10_000);
  // IHDR: width and height, twice the chart's own size (its viewBox: the box it was drawn for)
  // and its caption above it.
  const viewBox = await page
    .getByRole('region', { name: 'Memory' })
    .getByRole('img', { name: /^fbc->counters: / })
    .getAttribute('viewBox');
  const [, , w = 0, h = 0] = (viewBox ?? '').split(' ').map(Number);
  expect(w).toBeGreaterThanOrEqual(360);
  expect(png.readUInt32BE(16)).toBe(2 * Math.round(w));
  expect(png.readUInt32BE(20)).toBeGreaterThan(2 * h);

  // The sequence word exports as well.
  const seq = await charts.export('sequence chart', 'SVG');
  expect(seq.suggestedFilename()).toBe('percpu-seq-sequence-step-28.svg');
  expect(charts.consoleErrors).toEqual([]);
});

test('a chart without a counter exports too (irq-local-rmw, this-cpu-migrate)', async ({
  page,
}) => {
  for (const [hash, what] of [
    ['#/step/irq-local-rmw?sched=0+0+irq0+0*4+0+0', 'shared word chart'],
    ['#/step/this-cpu-migrate?sched=0+mig0>1+1', 'events chart'],
  ] as const) {
    await page.goto(`/${hash}`);
    const group = page.getByRole('group', { name: `Export ${what}` });
    await expect(group.getByRole('button', { name: `Export ${what} as SVG` })).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      group.getByRole('button', { name: `Export ${what} as SVG` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-step-\d+\.svg$/);
  }
});

test('at projector sizes every Export button can be reached and pressed, none under the timeline', async ({
  page,
}) => {
  const hash =
    '#/step/percpu-seq?cpus=4&batch=32&adds=1&amounts=1%2C7%2C2%2C0&summer=3&count=1000&slots=31%2C0%2C5%2C0&sequence=4&sched=0+0+3*7+0*8+3+1*4+3*9+2*4+3*8+0&at=30';
  for (const [width, height] of [
    [1280, 720],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/${hash}`);
    // Each chart drawn first (the sequence word loads when first shown): a press before that
    // downloads nothing and says so.
    const memory = page.getByRole('region', { name: 'Memory' });
    await expect(memory.getByRole('img', { name: /^fbc->counters: / })).toBeVisible();
    await expect(memory.getByRole('img', { name: /^fbc->sequence = / })).toBeVisible();
    for (const what of ['counter chart', 'sequence chart']) {
      // Playwright presses only what receives the click at its centre: a covered button fails.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Export ${what} as SVG` }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^percpu-seq-.*-step-30\.svg$/);
    }
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(height);
  }
});

test('printed from the dark theme, the stage is on white paper, its bars in their colours, no controls', async ({
  page,
  charts,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await charts.witness('percpu-atomic64', 'sum-misses-a-batch', 10);
  const ground = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const bar = () => charts.slotBar(2).evaluate((el) => getComputedStyle(el).fill);
  expect(await ground()).not.toBe('rgb(255, 255, 255)');
  const onScreen = await bar();

  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  expect(await ground()).toBe('rgb(255, 255, 255)');
  // CPU2's green, the same as on screen and in an export.
  expect(await bar()).toBe(onScreen);
  await expect(charts.counterChart()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Step forward' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Modes' })).toBeHidden();
});
