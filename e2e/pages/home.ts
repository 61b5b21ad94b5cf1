import type { Locator, Page } from '@playwright/test';

/** The first page, found the way a user (or a screen reader) finds it: by role and name. */
export class HomePage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/');
  }

  /** Whether the page may use SharedArrayBuffer, as the browser itself reports it. */
  async isCrossOriginIsolated(): Promise<boolean> {
    return this.page.evaluate(() => crossOriginIsolated);
  }

  isolationStatus(): Locator {
    return this.page.getByRole('status', { name: 'Cross-origin isolation' });
  }

  /** The catalogue section for one group, e.g. "2006 nr_files thread". */
  group(name: string): Locator {
    return this.page.getByRole('region', { name });
  }

  /** The catalogue entry whose id (shown as code) is exactly `id`, anywhere or within `scope`. */
  scenario(id: string, scope: Locator | Page = this.page): Locator {
    return scope.getByRole('listitem').filter({ has: this.page.getByText(id, { exact: true }) });
  }
}
