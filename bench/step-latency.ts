// npm run bench:step: Step-mode latency from a key press to the painted frame, in Chromium, with
// 8 CPUs, the most Step mode shows. Builds nothing: run `npm run build` first. Prints the median and 95th percentile.
//
// In the page, a capture-phase keydown listener notes the time; the second requestAnimationFrame
// after it runs once the frame holding React's update has been painted.

import type { Page } from '@playwright/test';
import { withPage } from './browser.ts';

async function measure(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/step/global-plain?cpus=8&iterations=40`);
  await page.getByRole('button', { name: 'Step CPU 7' }).waitFor();
  // In-page code as a string: this Node-side script has no DOM types.
  await page.evaluate(`
    window.latencies = [];
    window.addEventListener('keydown', () => {
      const t0 = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => window.latencies.push(performance.now() - t0)));
    }, { capture: true });
  `);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const rounds = 200;
  for (let i = 0; i < rounds; i++) {
    await page.keyboard.press(`Digit${i % 8}`);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(200);
  const lat = await page.evaluate<number[]>('window.latencies');
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  console.log(`Step mode, global-plain with 8 CPUs, ${lat.length} key presses (Digit0–Digit7):`);
  console.log(
    `  key press → painted frame: median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${q(1).toFixed(1)} ms`,
  );
}

withPage(4174, measure).catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
