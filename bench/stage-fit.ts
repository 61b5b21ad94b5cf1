// npm run measure:stage: how much of a projector the Step stage gives its picture, measured in
// Chromium. For each case and viewport it prints the chart's share of the screen, how many CPU
// lanes, invariant badges and CPUs' next lines in the listing are wholly in view, the listing's
// type size and whether the newest narration line (the bar above the stage) is in view. Builds nothing: run `npm run build` first.
//
//   npm run measure:stage                 the table, Large on and off
//   npm run measure:stage -- --shots DIR  also a screenshot of each row, into DIR

import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { launchChromium, startPreview } from './browser.ts';

interface Case {
  readonly name: string;
  readonly hash: string;
  readonly witness?: string;
  readonly steps: number;
}

const cases: readonly Case[] = [
  {
    name: 'percpu-classic, 4 CPUs',
    hash: '#/step/percpu-classic',
    witness: 'sum-holds-the-lock',
    steps: 8,
  },
  {
    name: 'percpu-classic, 8 CPUs',
    // Three CPUs inside an add, one in the sum, four at the start: cursors on four lines.
    hash: '#/step/percpu-classic?cpus=8&sched=0*3+1+2*3+5*3',
    steps: 0,
  },
  { name: 'global-plain', hash: '#/step/global-plain', witness: 'lost-update', steps: 4 },
  { name: 'percpu-seq', hash: '#/step/percpu-seq', witness: 'retry-once', steps: 8 },
  { name: 'torn-read-32', hash: '#/step/torn-read-32', witness: 'lo-then-hi', steps: 4 },
  // Per-CPU words and no counter: plain bars are the picture.
  {
    name: 'this-cpu-migrate',
    hash: '#/step/this-cpu-migrate',
    witness: 'migrate-between',
    steps: 3,
  },
];

const sizes = [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
];

interface Row {
  readonly chart: string;
  readonly share: number;
  readonly lanes: string;
  readonly badges: string;
  readonly listing: number;
  readonly cursors: string;
  readonly narration: boolean | null;
}

// In-page code as a string: this Node-side script has no DOM types.
const MEASURE = `(() => {
  const vw = innerWidth, vh = innerHeight;
  const whole = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    // Inside the viewport and not clipped by a scrolling ancestor.
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) return false;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflow === 'visible' && s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.top < b.top - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5) return false;
    }
    return true;
  };
  const visibleArea = (el) => {
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    return w * h;
  };
  const memory = document.querySelector('[aria-label="Memory"]');
  const charts = memory ? [...memory.querySelectorAll('svg[role="img"]')] : [];
  let best = null, area = 0;
  for (const c of charts) { const a = visibleArea(c); if (a > area) { area = a; best = c; } }
  const laneEls = [...document.querySelectorAll('section[aria-label="CPUs"] > [role="group"]')];
  const badges = [...document.querySelectorAll('[aria-label="Invariants"] li')];
  const listing = document.querySelector('[aria-label="Source listing"]');
  const cursorLines = listing ? [...listing.querySelectorAll('li.current')] : [];
  // The newest narration line: the bar above the stage (the log's last item says the same).
  const last = document.querySelector('[role="note"][aria-label="Latest step"]');
  const r = best ? best.getBoundingClientRect() : null;
  return {
    chart: r ? Math.round(r.width) + ' × ' + Math.round(r.height) : 'none',
    share: area / (vw * vh),
    lanes: laneEls.filter(whole).length + ' of ' + laneEls.length,
    badges: badges.filter(whole).length + ' of ' + badges.length,
    listing: listing ? parseFloat(getComputedStyle(listing.querySelector('li[data-line]') ?? listing).fontSize) : 0,
    cursors: cursorLines.filter(whole).length + ' of ' + cursorLines.length,
    narration: last ? whole(last) : null,
  };
})()`;

async function measure(page: Page, url: string, c: Case, large: boolean): Promise<Row> {
  await page.goto(`${url}/${c.hash}`);
  await page.getByRole('heading', { level: 2 }).waitFor();
  if (c.witness) {
    await page.getByText('Scenario and witness', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Witness' }).selectOption(c.witness);
    await page.getByRole('button', { name: 'Load witness' }).click();
  }
  for (let i = 0; i < c.steps; i++) await page.keyboard.press('ArrowRight');
  if (large) await page.getByRole('button', { name: 'Large', exact: true }).click();
  await page.waitForTimeout(1200);
  return page.evaluate<Row>(MEASURE);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--shots');
  const shots = at > 0 ? process.argv[at + 1] : undefined;
  if (shots) mkdirSync(shots, { recursive: true });
  const preview = await startPreview(4176);
  const browser = await launchChromium();
  try {
    console.log(
      '| case | viewport | Large | counter chart, share of the screen | CPU lanes fully in view | invariant badges fully in view | listing type | CPUs’ next lines in view | newest narration in view |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const c of cases) {
      for (const { width, height } of sizes) {
        for (const large of [false, true]) {
          const page = await browser.newPage({ viewport: { width, height } });
          const r = await measure(page, preview.url, c, large);
          console.log(
            `| ${c.name} | ${String(width)} × ${String(height)} | ${large ? 'on' : 'off'} | ${(100 * r.share).toFixed(1)} % (${r.chart} px) | ${r.lanes} | ${r.badges} | ${r.listing.toFixed(1)} px | ${r.cursors} | ${r.narration === null ? 'none yet' : r.narration ? 'yes' : 'no'} |`,
          );
          if (shots) {
            const file = `${c.name.replace(/[^a-z0-9]+/gi, '-')}-${String(width)}${large ? '-large' : ''}.png`;
            await page.screenshot({ path: `${shots}/${file}` });
          }
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
    preview.server.kill();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
