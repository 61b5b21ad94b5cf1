import { test } from '@playwright/test';
const W: [string, string][] = [
 ['global-plain','lost-update'],['global-atomic','interleaved'],['global-spinlock','contended'],['lazy-nr-files','both-below-threshold'],
 ['percpu-classic','sum-holds-the-lock'],['percpu-atomic64','sum-misses-a-batch'],['percpu-lglock','transfer-waits'],['percpu-seq','retry-once'],
 ['percpu-seq-multi','half-done-fold-accepted'],['percpu-sum-fuzzy','delta-misses-a-half-done-fold'],['this-cpu-migrate','migrate-between'],
 ['this-cpu-ops','migrate-after-address'],['irq-local-rmw','irq-between-load-and-store'],['cmpxchg-local-generic','nmi-inside'],['percpu-modern','dec-2022-race'],['torn-read-32','lo-then-hi']];
test('explore', async ({ page }) => {
  for (const [id, w] of W) {
    await page.goto('about:blank');
    await page.goto('/#/step/' + id);
    await page.getByRole('combobox', { name: 'Witness' }).selectOption(w);
    const max = await page.getByRole('slider', { name: 'Timeline position' }).getAttribute('max');
    await page.getByRole('slider', { name: 'Timeline position' }).fill(max!);
    console.log('=====', id, w, max, page.url());
    console.log(await page.getByRole('region', { name: 'Memory' }).ariaSnapshot());
    console.log(await page.getByRole('region', { name: 'Invariants' }).ariaSnapshot());
    console.log(await page.getByRole('region', { name: 'Scheduler' }).ariaSnapshot());
  }
});
