// npm run bench:fps -- [--cpus 1,16] [--seconds S] [--scenario ID]
//
// How smooth Live mode's charts stay while its CPU workers race: opens the built app headless in
// Chromium, runs the scenario with each CPU count, and measures the page's animation frames
// (requestAnimationFrame intervals) over the run: frames per second and the 95th-percentile frame
// time. Builds nothing: run `npm run build` first.

import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import { withPage } from './browser.ts';
import { messageOf } from '../src/machine/errors.ts';

const { values } = parseArgs({
  options: {
    cpus: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    scenario: { type: 'string', default: 'percpu-classic' },
    json: { type: 'boolean', default: false },
  },
});
const cores = availableParallelism();
const counts = (values.cpus ?? `${String(Math.max(1, cores - 1))},16`).split(',').map(Number);
const seconds = Number(values.seconds);

interface Frames {
  readonly cpus: number;
  readonly fps: number;
  readonly p95: number;
  readonly worst: number;
}

async function measure(page: Page, url: string): Promise<void> {
  const rows: Frames[] = [];
  for (const cpus of counts) {
    await page.goto(`${url}/#/live/${values.scenario}?cpus=${String(cpus)}`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .getByRole('status', { name: 'Run status' })
      .filter({ hasText: 'Running on' })
      .waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500); // the charts have something to draw
    // A string, not a function: the TypeScript loader would wrap a function's inner names in a
    // helper the page does not have.
    const frames: number[] = await page.evaluate(`new Promise((resolve) => {
      const gaps = [];
      let last = performance.now();
      const end = last + ${String(seconds * 1000)};
      requestAnimationFrame(function tick(t) {
        gaps.push(t - last);
        last = t;
        if (t < end) requestAnimationFrame(tick);
        else resolve(gaps);
      });
    })`);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page
      .getByRole('status', { name: 'Run status' })
      .filter({ hasText: /Stopped|did not stop|failed|crashed/ })
      .waitFor({ timeout: 20_000 });
    const sorted = [...frames].sort((a, b) => a - b);
    const total = frames.reduce((a, b) => a + b, 0);
    rows.push({
      cpus,
      fps: (frames.length / total) * 1000,
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      worst: sorted[sorted.length - 1] ?? 0,
    });
  }
  if (values.json) console.log(JSON.stringify({ cores, scenario: values.scenario, seconds, rows }));
  else
    for (const r of rows)
      console.log(
        `${values.scenario} with ${String(r.cpus).padStart(2)} CPU workers on ${String(cores)} cores: ${r.fps.toFixed(1)} frames/s, p95 frame ${r.p95.toFixed(1)} ms, worst ${r.worst.toFixed(0)} ms`,
      );
}

withPage(4176, measure).catch((e: unknown) => {
  console.error(`bench:fps: ${messageOf(e)}`);
  process.exitCode = 1;
});
