import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './pages/charts.ts';
import { StepPage } from './pages/step.ts';

// The charts' motion is what this file tests; every other test runs with reduced motion
// (playwright.config.ts).
test.use({ contextOptions: { reducedMotion: 'no-preference' } });

/** x of a `translate(x,y)` transform. */
const xOf = (t: string) => Number(/translate\(([-\d.]+)/.exec(t)?.[1] ?? NaN);

/** The x a marker comes to rest at: polled until three reads 100 ms apart agree (its tween is done). */
async function restingX(marker: Locator): Promise<number> {
  const seen: number[] = [];
  await expect
    .poll(
      async () => {
        seen.push(xOf((await marker.getAttribute('transform')) ?? ''));
        const last = seen.slice(-3);
        return last.length === 3 && last.every((x) => x === last[0]);
      },
      { intervals: [100] },
    )
    .toBe(true);
  return seen.at(-1) as number;
}

test('a fold pours its batch from the slot bar into fbc->count, and the bar shrinks by a tween @timing', async ({
  charts,
}) => {
  // percpu-atomic64 / sum-misses-a-batch: CPU3 reads fbc->count, then CPU0 adds 1 and folds 32.
  await charts.witness('percpu-atomic64', 'sum-misses-a-batch', 3);
  const pour = await charts.record('pour', 'transform');
  await charts.forward();
  await expect(charts.lastNarration()).toContainText('folds 32 into fbc->count');
  await expect(charts.part('pour')).toHaveCount(1);
  // It travels: many positions on the way, not one jump.
  await expect.poll(async () => (await pour()).length).toBeGreaterThan(3);
  // It lands on the global count: its figure counts up to the new value.
  await expect(charts.part('global-figure')).toContainText('1032');
  await expect(charts.counterText()).toContainText("CPU0's delta reached the batch: it folded 32");

  // The next step resets CPU0's delta: the bar shrinks over time, not at once.
  const heights = await charts.record('slot-bar-0', 'height');
  await charts.forward();
  await expect(charts.slotBar(0)).toHaveAttribute('height', '1');
  const h = (await heights()).map(Number);
  expect(h.length).toBeGreaterThan(3);
  // Each frame lower than the one before.
  expect(h.every((x, i) => i === 0 || x < (h[i - 1] as number))).toBe(true);
});

test('a lockless sum sweeps across the slots and its missed batch is marked @timing', async ({
  charts,
}) => {
  await charts.witness('percpu-atomic64', 'sum-misses-a-batch');
  await charts.forward();
  const marker = charts.part('sweep-marker');
  await expect(marker).toHaveCount(1);
  const atGlobal = await restingX(marker);
  await charts.forward(5);
  // The batch left CPU0's delta after the sum had passed fbc->count: it is behind the sweep.
  await expect(charts.part('missed-batch')).toBeVisible();
  await expect(charts.counterText()).toContainText("CPU0's 32 is now behind the sweep");
  await charts.forward(4);
  expect(await restingX(marker)).toBeGreaterThan(atGlobal);
  await expect(charts.counterText()).toContainText(
    "CPU3's sum returned 1005. Missed 32: CPU0's fold reached fbc->count after CPU3 read it",
  );
});

test('a retry sends the sweep back to the start and shows the retry count @timing', async ({
  page,
  charts,
}) => {
  // percpu-seq / retry-once: the first pass misses CPU0's fold, the sequence moved, the sum retries.
  await charts.witness('percpu-seq', 'retry-once', 8);
  const marker = charts.part('sweep-marker');
  await expect(marker).toHaveCount(1);
  await charts.forward(18);
  const swept = await restingX(marker);
  await expect(charts.part('retry-count')).toHaveCount(0);
  const moves = await charts.record('sweep-marker', 'transform');
  await charts.forward(2);
  await expect(charts.lastNarration()).toContainText('the sum starts over');
  // Going back is a visible move, not a jump: between where the sweep was and where it comes to
  // rest, the marker passes through at least one place. (How many depends on the frames a loaded
  // machine manages in the tween's 800 ms, so only one is required.)
  const start = await restingX(marker);
  expect(start).toBeLessThan(swept);
  const between = (await moves()).map(xOf).filter((x) => x < swept && x > start);
  expect(between.length).toBeGreaterThan(0);
  await expect(charts.part('retry-count')).toHaveText('retry: 1');
  await expect(charts.counterText()).toContainText("CPU3's sum, pass 2 (1 retry)");

  // The sequence word names its low bit.
  await expect(page.getByRole('img', { name: /^fbc->sequence = 7/ })).toBeVisible();
  await expect(charts.memoryRegion()).toContainText('odd: a sum is in flight');
});

test('a torn read shows its two halves from two moments', async ({ page, charts }) => {
  await charts.open('#/step/torn-read-32');
  await charts.loadWitness('lo-then-hi');
  await charts.forward(8);
  await expect(page.getByRole('img', { name: /^Torn read: / })).toHaveAccessibleName(
    /low half 0xFFFFFFF0, read at step 1: its initial value; high half 0x00000001, read at step 8: written at step 6 by CPU1\. Together: 8589934576.*torn, exactly 2\^32 above 4294967280/,
  );
});

test('with reduced motion nothing tweens: the final geometry at once @timing', async ({
  page,
  charts,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await charts.witness('percpu-atomic64', 'sum-misses-a-batch', 3);
  // The fold: no batch travels.
  const pour = await charts.record('pour', 'transform');
  await charts.forward();
  await expect(charts.part('pour')).toHaveAttribute('opacity', '0');
  await expect(charts.part('global-figure')).toContainText('1032');
  // The reset: the bar is at its final height at once.
  const heights = await charts.record('slot-bar-0', 'height');
  await charts.forward();
  await expect(charts.slotBar(0)).toHaveAttribute('height', '1');
  // The sweep jumps too.
  const sweep = await charts.record('sweep-marker', 'transform');
  await charts.forward(2);
  // A tween would take 350 ms: wait longer than one, then check no frame came in between.
  await page.waitForTimeout(500);
  // At most the value before the step and the one after: no frame in between.
  expect((await pour()).length).toBeLessThanOrEqual(1);
  expect(await heights()).toHaveLength(2);
  expect((await sweep()).length).toBeLessThanOrEqual(2);
});

/** The CSS animations running on `el`: name, duration and the opacity of each keyframe. */
async function animationsOf(el: Locator) {
  return el.evaluate((node) =>
    node.getAnimations().map((a) => ({
      name: (a as CSSAnimation).animationName,
      duration: Number(a.effect?.getTiming().duration),
      opacity: (a.effect as KeyframeEffect | null)?.getKeyframes().map((k) => Number(k.opacity)),
    })),
  );
}

test('a lost update shows the overwritten value struck through, fading', async ({
  page,
  charts,
}) => {
  // global-plain / lost-update: both CPUs load 100; CPU0 stores 101, then CPU1 stores 101 over it.
  await charts.open('#/step/global-plain');
  await charts.loadWitness('lost-update');
  const word = page.getByRole('img', { name: /^The shared word: / });
  await charts.forward(3);
  await expect(word.getByTestId('wiped-update')).toHaveCount(0);
  await charts.forward();
  const wiped = word.getByTestId('wiped-update');
  await expect(wiped).toContainText('update lost');
  const value = wiped.locator('text').first();
  await expect(value).toHaveText('101');
  await expect(value).toHaveAttribute('text-decoration', 'line-through');
  // It fades from full to 0.45 over 1.4 s (the animation itself, read from the browser, so a
  // loaded machine's late look cannot miss it), and rests faded.
  expect(await animationsOf(value)).toEqual([
    { name: 'race-fade', duration: 1400, opacity: [1, 0.45] },
  ]);
  await expect(value).toHaveCSS('opacity', '0.45');
});

test('a sequence bump turns the word’s changed bits over @timing', async ({ page, charts }) => {
  // percpu-seq / retry-once: CPU3's sum sets the low bit of fbc->sequence (4 → 5).
  await charts.open('#/step/percpu-seq');
  await charts.loadWitness('retry-once');
  const seq = page.getByRole('img', { name: /^fbc->sequence = / });
  await expect(seq).toHaveAccessibleName('fbc->sequence = 4');
  // Each transform the low bit takes from now on (a flip squeezes it to a line and back).
  await seq.evaluate((svg) => {
    const seen: string[] = [];
    const bit = () => svg.querySelector('[data-testid^="low-bit-"]');
    new MutationObserver(() => {
      const t = bit()?.getAttribute('transform');
      if (t && seen.at(-1) !== t) seen.push(t);
    }).observe(svg, { subtree: true, attributes: true, attributeFilter: ['transform'] });
    (window as unknown as { flips: string[] }).flips = seen;
  });
  for (let i = 0; i < 8; i++) {
    await charts.forward();
    if ((await seq.getAttribute('aria-label')) === 'fbc->sequence = 5') break;
  }
  await expect(seq).toHaveAccessibleName('fbc->sequence = 5');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { flips: string[] }).flips.length))
    .toBeGreaterThan(2);
  await expect(charts.memoryRegion()).toContainText('odd: a sum is in flight');
});

/**
 * Every shape of the page's charts: its tag, geometry, opacity and text, in document order. Its
 * numbers are rounded to a hundredth of a pixel: a tween ends on the same place written another
 * way (d3 interpolates a transform through the browser's single-precision matrix, so
 * `translate(229.48101265822785,0)` comes to rest as `translate(229.48101806640625, 0)`).
 */
function geometry(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const attrs = ['x', 'y', 'x1', 'x2', 'y1', 'y2', 'cx', 'cy', 'r', 'width', 'height'];
    const more = ['transform', 'd', 'points', 'opacity'];
    const rounded = (v: string) =>
      v.replace(/-?\d+(\.\d+)?(e-?\d+)?/g, (n) => Number(n).toFixed(2)).replace(/,\s*/g, ',');
    return [...document.querySelectorAll('main svg *')].map((el) => {
      const own = [...attrs, ...more]
        .map((a) => `${a}=${rounded(el.getAttribute(a) ?? '')}`)
        .join(' ');
      const text = el.children.length === 0 ? el.textContent : '';
      return `${el.tagName} ${own} ${text}`;
    });
  });
}

/** The geometry once it stops changing: three reads 200 ms apart that agree. */
async function restingGeometry(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await expect
    .poll(
      async () => {
        seen.push(JSON.stringify(await geometry(page)));
        const last = seen.slice(-3);
        return last.length === 3 && last.every((g) => g === last[0]);
      },
      { intervals: [200], timeout: 20_000 },
    )
    .toBe(true);
  return JSON.parse(seen.at(-1) as string) as string[];
}

/** Opens `id` on `witness` and presses → `steps` times without waiting for any tween. */
async function stepFast(page: Page, id: string, witness: string, steps: number) {
  const step = new StepPage(page);
  await step.open(`#/step/${id}`);
  await step.loadWitness(witness);
  await step.leaveFields();
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
  await expect(step.timelinePosition()).toHaveValue(String(steps));
}

// Every other test runs with reduced motion, where a step draws its final geometry at once. A
// user with motion who steps faster than the tweens (held →, Play) must come to rest on exactly
// that geometry: no tween cut short, no mark left half-way, no stale part left behind.
for (const [id, witness, steps] of [
  ['percpu-atomic64', 'sum-misses-a-batch', 7],
  ['percpu-seq', 'retry-once', 16],
] as const) {
  test(`${id}: steps faster than the tweens come to rest where no motion is at once @timing`, async ({
    page,
    browser,
  }) => {
    await stepFast(page, id, witness, steps);
    const moving = await restingGeometry(page);

    const still = await browser.newContext({
      ...test.info().project.use.contextOptions,
      baseURL: test.info().project.use.baseURL,
      viewport: page.viewportSize(),
      reducedMotion: 'reduce',
    });
    const stillPage = await still.newPage();
    await stepFast(stillPage, id, witness, steps);
    const atOnce = await restingGeometry(stillPage);
    await still.close();

    expect(moving.length).toBeGreaterThan(20);
    expect(moving).toEqual(atOnce);
  });
}
