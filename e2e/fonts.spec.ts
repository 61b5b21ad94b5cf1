import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { catalogue } from '../src/scenarios/index.ts';
import { StepPage } from './pages/step.ts';

// The app draws every letter with the fonts it serves itself (src/ui/fonts/fonts.css), so a
// projector, a contributor's laptop and the screenshots lay out the same text alike. Chromium
// says which font file drew each element's text (DevTools' "Rendered fonts"): none may be the
// machine's own. These tests need no picture and run on every OS.

/** The families of the fonts the app serves, as their files name themselves. */
const OURS = /^(IBM Plex Sans|IBM Plex Mono|Lab Symbols|DejaVu Sans)\b/;

interface PlatformFont {
  familyName: string;
  isCustomFont: boolean;
  glyphCount: number;
}

/** Every font that drew text on the page now (shadow roots included: the editor's). */
async function renderedFonts(page: Page, cdp: CDPSession): Promise<Map<string, PlatformFont>> {
  // The page may still be rendering (the home page's previews arrive one by one): a node read
  // from the document can be gone when its fonts are asked for. Then the whole page is read
  // again, so every answer is of one document.
  for (let attempt = 0; attempt < 5; attempt++) {
    const used = await fontsOnce(page, cdp);
    if (used) return used;
  }
  throw new Error('the page kept changing while its fonts were read');
}

/** The fonts of the page's text, or null if a node went away while they were asked for. */
async function fontsOnce(page: Page, cdp: CDPSession): Promise<Map<string, PlatformFont> | null> {
  await page.evaluate(() => document.fonts.ready);
  const { nodes } = (await cdp.send('DOM.getFlattenedDocument', { depth: -1, pierce: true })) as {
    nodes: { nodeId: number; nodeType: number; nodeValue: string; parentId?: number }[];
  };
  // The elements that hold text of their own (a text node that is not only white space).
  const holders = new Set(
    nodes.filter((n) => n.nodeType === 3 && n.nodeValue.trim() !== '').map((n) => n.parentId),
  );
  const answers = await Promise.all(
    [...holders].map((nodeId) =>
      (
        cdp.send('CSS.getPlatformFontsForNode', { nodeId: nodeId ?? 0 }) as Promise<{
          fonts: PlatformFont[];
        }>
      ).catch((e: unknown) => {
        if (e instanceof Error && /Could not find node/.test(e.message)) return null;
        throw e;
      }),
    ),
  );
  if (answers.includes(null)) return null;
  const used = new Map<string, PlatformFont>();
  for (const a of answers)
    for (const f of a?.fonts ?? [])
      used.set(`${f.familyName}${f.isCustomFont ? '' : ' (system)'}`, f);
  return used;
}

async function expectOnlyOurFonts(page: Page, cdp: CDPSession): Promise<void> {
  const used = await renderedFonts(page, cdp);
  const strangers = [...used].filter(([, f]) => !f.isCustomFont || !OURS.test(f.familyName));
  expect(strangers.map(([name]) => name)).toEqual([]);
  expect([...used.keys()].some((k) => k.startsWith('IBM Plex Sans'))).toBe(true);
}

test.describe('the app’s own fonts', () => {
  let cdp: CDPSession;
  const fontRequests: string[] = [];
  const fontBytes = new Map<string, number>();
  const bodies: Promise<void>[] = [];

  test.beforeEach(async ({ page }) => {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    fontRequests.length = 0;
    fontBytes.clear();
    bodies.length = 0;
    page.on('request', (r) => {
      if (r.resourceType() === 'font') fontRequests.push(r.url());
    });
    page.on('response', (r) => {
      if (r.request().resourceType() === 'font')
        bodies.push(r.body().then((b) => void fontBytes.set(new URL(r.url()).pathname, b.length)));
    });
  });

  test('the home page and a Step stage draw every letter with them, from the page’s origin', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectOnlyOurFonts(page, cdp);

    // Stages with code, lanes, every kind of chart and the badges' ✓ and ◷; one in Large.
    const step = new StepPage(page);
    for (const id of ['percpu-atomic64', 'percpu-seq', 'torn-read-32', 'global-plain']) {
      const witness = catalogue.find((sc) => sc.id === id)?.witnesses[0];
      await step.open(`#/step/${id}`);
      if (witness) {
        await step.loadWitness(witness.name);
        await step.forward(Math.min(6, witness.schedule.split(/\s+/).length));
      }
      await expectOnlyOurFonts(page, cdp);
    }
    await page.getByRole('button', { name: 'Large', exact: true }).click();
    await expectOnlyOurFonts(page, cdp);
    expect(await page.evaluate(() => document.fonts.check('16px "IBM Plex Mono"'))).toBe(true);

    await Promise.all(bodies);
    // What the fonts weigh, all four files (77 KiB; woff2 is compressed already): a size, not a
    // time, held a little above today's.
    const total = [...fontBytes.values()].reduce((a, b) => a + b, 0);
    expect(fontBytes.size).toBe(4);
    expect(total).toBeLessThanOrEqual(80 * 1024);
    expect(fontRequests.length).toBeGreaterThan(0);
    for (const url of fontRequests) expect(new URL(url).origin).toBe(new URL(baseURL ?? '').origin);
  });

  test('the editor’s code is drawn with them too', async ({ page }) => {
    await page.goto('/#/edit');
    await expect(page.getByRole('textbox', { name: /program/i }).first()).toBeVisible();
    await expectOnlyOurFonts(page, cdp);
  });
});
