import { expect, type Page, test } from '@playwright/test';
import { PLAIN_FOLDER, PLAIN_PORT } from './plainHost.ts';

// Embed mode as a course page uses it: an <iframe> on another origin, served by a host that sends
// no isolation headers, so only Step mode and Explore can run.
const site = `http://localhost:${PLAIN_PORT}${PLAIN_FOLDER}`;

/** A course page with the lab framed at `width` × `height` on `hash`; the frame's locator. */
async function framed(page: Page, width: number, height: number, hash = '#/step/global-plain') {
  await page.setContent(
    `<iframe title="percpu-lab" width="${String(width)}" height="${String(height)}" src="${site}?embed=1${hash}"></iframe>`,
  );
  return page.frameLocator('iframe[title="percpu-lab"]');
}

test('an embedded stage in an iframe, without isolation: step, explore, and no page chrome', async ({
  page,
}) => {
  await page.setContent(
    `<h1>Lecture 7</h1><iframe title="percpu-lab" width="1024" height="700" src="${site}?embed=1#/step/global-plain"></iframe>`,
  );
  const lab = page.frameLocator('iframe[title="percpu-lab"]');
  await expect(lab.getByRole('heading', { level: 2 })).toContainText('global-plain');
  // The stage and its controls, no catalogue or mode navigation.
  await expect(lab.getByRole('navigation', { name: 'Modes' })).toHaveCount(0);
  await lab.getByRole('button', { name: 'Step CPU 0' }).click();
  await expect(lab.getByRole('log', { name: 'Narration log' }).getByRole('listitem')).toHaveCount(
    1,
  );
  await expect(lab.getByRole('link', { name: 'Open in percpu-lab' })).toHaveAttribute(
    'href',
    /#\/step\/global-plain/,
  );
  // Explore runs in its worker even here.
  await lab.getByRole('group', { name: 'Panels' }).getByRole('button', { name: 'Explore' }).click();
  const explore = lab.getByRole('region', { name: 'Explore' });
  await explore.getByRole('button', { name: 'Explore' }).click();
  await expect(explore.getByRole('status')).toContainText('Done:');
  // A link to Live mode says where to go instead.
  const frame = page.frames().find((f) => f.url().startsWith(site));
  expect(frame).toBeDefined();
  expect(await frame?.evaluate(() => crossOriginIsolated)).toBe(false);
  await frame?.evaluate(() => {
    location.hash = '#/live/global-plain';
  });
  await expect(lab.getByRole('alert')).toContainText('Step mode and Explore only');
});

test('an embed links out to the moment it shows, and opens Live in a page of its own', async ({
  page,
}) => {
  const lab = await framed(page, 1024, 700);
  const out = lab.getByRole('link', { name: 'Open in percpu-lab' });
  const step1 = lab.getByRole('button', { name: 'Step CPU 1' });
  await step1.click();
  await expect(out).toHaveAttribute('href', /sched=1&at=1$/);
  await step1.click();
  await expect(out).toHaveAttribute('href', /sched=1\+1&at=2$/);
  await lab.getByRole('button', { name: 'Step back' }).click();
  await expect(out).toHaveAttribute('href', /sched=1\+1&at=1$/);
  await expect(out).not.toHaveAttribute('href', /embed=1/);
  const live = lab.getByRole('link', { name: /^Replay on real workers/ });
  await expect(live).toHaveAttribute('target', '_blank');
  await expect(live).toHaveAttribute('href', /#\/live\/global-plain\?/);
  await expect(live).not.toHaveAttribute('href', /embed=1/);
  // The editor is a page of its own too, not squeezed into the course page's frame.
  const edit = lab.getByRole('link', { name: 'Edit a copy' });
  await expect(edit).toHaveAttribute('target', '_blank');
  await expect(edit).toHaveAttribute('href', /#\/edit\?src=/);
  await expect(edit).not.toHaveAttribute('href', /embed=1/);
});

test('in a 640×480 frame the chart keeps a third of the frame, clear, the chrome in a menu', async ({
  page,
}) => {
  const lab = await framed(page, 640, 480, '#/step/percpu-classic');
  const step0 = lab.getByRole('button', { name: 'Step CPU 0' });
  for (let i = 0; i < 3; i++) await step0.click();
  await expect(lab.getByText(/^Step 3: CPU0/)).toBeVisible();
  // The chart is what a course page embeds the lab for: a third of the frame at least.
  const chart = lab.getByRole('region', { name: 'Memory' }).getByRole('img').first();
  const box = await chart.boundingBox();
  if (!box) throw new Error('no chart');
  expect(box.width * box.height).toBeGreaterThanOrEqual((640 * 480) / 3);
  // Nothing over it: no Export buttons on its labels, and every CPU's Step button in view.
  await expect(lab.getByRole('button', { name: 'SVG' })).toBeHidden();
  await expect(step0).toBeInViewport({ ratio: 1 });
  await expect(lab.getByRole('button', { name: 'Step CPU 1' })).toBeInViewport({ ratio: 1 });
  await expect(lab.getByRole('region', { name: 'Listing' })).toBeInViewport();
  // The panels and choosers are one click away, in the menu.
  await expect(lab.getByRole('group', { name: 'Panels' })).toBeHidden();
  await lab.getByText('Menu', { exact: true }).click();
  await lab.getByRole('group', { name: 'Panels' }).getByRole('button', { name: 'Explore' }).click();
  await expect(lab.getByRole('region', { name: 'Explore' })).toBeVisible();
});

test('in a 640×480 frame every invariant badge is in view, clear of the listing', async ({
  page,
}) => {
  const lab = await framed(page, 640, 480, '#/step/percpu-classic');
  const badges = lab.getByRole('list', { name: 'Invariant badges' }).getByRole('listitem');
  await expect(badges).toHaveCount(5);
  const listing = await lab.getByRole('region', { name: 'Listing' }).boundingBox();
  if (!listing) throw new Error('no listing');
  for (const badge of await badges.all()) {
    // Whole, not scrolled out of its list, and above the listing rather than under it.
    await expect(badge).toBeInViewport({ ratio: 1 });
    const box = await badge.boundingBox();
    if (!box) throw new Error('no badge');
    expect(box.y + box.height).toBeLessThanOrEqual(listing.y);
  }
  // The chart keeps its third of the frame.
  const chart = await lab
    .getByRole('region', { name: 'Memory' })
    .getByRole('img')
    .first()
    .boundingBox();
  if (!chart) throw new Error('no chart');
  expect(chart.width * chart.height).toBeGreaterThanOrEqual((640 * 480) / 3);
});
