import { expect, type Locator, type Page } from '@playwright/test';
import { ScreenPage } from './screen.ts';

/** Live mode, found by role and name as a user (or a screen reader) finds it. */
export class LivePage extends ScreenPage {
  constructor(page: Page) {
    super(page, 'Live', 'Run status');
  }

  async run(): Promise<void> {
    await this.button('Run').click();
    await expect(this.status()).toContainText('Running on');
  }

  async stop(): Promise<void> {
    await this.button('Stop').click();
    await expect(this.status()).toContainText('Stopped', { timeout: 15_000 });
  }

  /** Runs for at least `ms` of wall time, then stops. */
  async runFor(ms: number): Promise<void> {
    await this.run();
    await this.page.waitForTimeout(ms);
    await this.stop();
  }

  async setRate(label: RegExp | string, value: number): Promise<void> {
    await this.page.getByRole('spinbutton', { name: label }).fill(String(value));
  }

  /** A number from the counter table, by its row header (e.g. "Lost updates"). */
  async total(row: string | RegExp): Promise<number> {
    const table = this.page.getByRole('table', { name: /Counter/ });
    const cell = table.getByRole('row', { name: row }).getByRole('cell').first();
    const text = (await cell.innerText()).trim();
    const m = /^-?[\d,]+/.exec(text);
    if (!m) throw new Error(`no number in '${text}'`);
    return Number(m[0].replace(/,/g, ''));
  }

  /** The verdict line of an invariant after stop: "Holds" or "Violated". */
  verdict(id: string): Locator {
    return this.page
      .getByRole('listitem')
      .filter({ has: this.page.locator('code', { hasText: id }) });
  }

  async replay(schedule: RegExp): Promise<void> {
    const select = this.page.getByRole('combobox', { name: 'Schedule' });
    const options = await select.locator('option').allInnerTexts();
    const label = options.find((o) => schedule.test(o));
    if (!label)
      throw new Error(`no schedule matching ${String(schedule)} in ${options.join(' | ')}`);
    await select.selectOption({ label });
    await this.button('Replay on workers').click();
  }

  lockstepVerdict(): Locator {
    return this.page.getByRole('status', { name: 'Lockstep verdict' });
  }
}
