import { chromium } from '@playwright/test';
const url = process.argv[2]; const out = process.argv[3]; const wait = Number(process.argv[4] ?? 1500);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on('console', (m) => { if (m.type() === 'error' || m.type()==='warning') console.log('console:', m.text()); });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(url);
await page.waitForTimeout(800);
const steps = (process.argv[5] ?? '').split(',').filter(Boolean);
for (const s of steps) {
  const [act, name] = s.split(':');
  if (act === 'click') await page.getByRole('button', { name, exact: true }).click();
  if (act === 'wait') await page.waitForTimeout(Number(name));
}
await page.waitForTimeout(wait);
await page.screenshot({ path: out, fullPage: true });
console.log(await page.getByRole('status').allInnerTexts());
await browser.close();
