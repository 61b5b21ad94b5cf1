import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What the Live and Scaling page objects share: a screen opened by its link, known by its level-2
 * heading, with buttons found by their exact name and one status line found by its name.
 */
export class ScreenPage {
  constructor(
    readonly page: Page,
    /** Text the screen's heading contains once it is open. */
    private readonly title: string,
    /** The accessible name of the screen's status line. */
    private readonly statusName: string,
  ) {}

  /** Opens a link to the screen, e.g. `#/live/global-plain?cpus=2`. */
  async open(hash: string): Promise<void> {
    await this.page.goto(`/${hash}`);
    await expect(this.page.getByRole('heading', { level: 2 })).toContainText(this.title);
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  status(): Locator {
    return this.page.getByRole('status', { name: this.statusName });
  }
}
