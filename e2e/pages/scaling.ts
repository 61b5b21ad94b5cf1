import { expect, type Locator, type Page } from '@playwright/test';
import { ScreenPage } from './screen.ts';

/** The Scaling view, found by role and name as a user (or a screen reader) finds it. */
export class ScalingPage extends ScreenPage {
  constructor(page: Page) {
    super(page, 'Scaling', 'Sweep status');
  }

  /** Runs the sweep and waits until it is done. */
  async sweep(timeout = 60_000): Promise<void> {
    await this.button('Run sweep').click();
    await expect(this.status()).toContainText('Done', { timeout });
  }

  headline(): Locator {
    return this.page.getByLabel('Headline');
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Measurements' });
  }

  /** The rows of the measurements table: the algorithm, then the cells (the header row left out). */
  async rows(): Promise<string[][]> {
    const rows = this.table().getByRole('row');
    const out: string[][] = [];
    for (let i = 1; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      out.push([
        await row.getByRole('rowheader').innerText(),
        ...(await row.getByRole('cell').allInnerTexts()),
      ]);
    }
    return out;
  }

  algorithm(id: string): Locator {
    return this.page.getByRole('checkbox', { name: id, exact: true });
  }
}
