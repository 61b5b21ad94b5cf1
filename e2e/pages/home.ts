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

  /** The course list above the catalogue (it loads after the page). */
  course(): Locator {
    return this.page.getByRole('region', { name: 'Course' });
  }

  /** The catalogue section for one group, e.g. "2006 nr_files thread". */
  group(name: string): Locator {
    return this.page.getByRole('region', { name });
  }

  /** The catalogue card whose id (shown as code) is exactly `id`, anywhere or within `scope`. */
  scenario(id: string, scope: Locator | Page = this.page): Locator {
    return scope.getByRole('listitem').filter({ has: this.page.getByText(id, { exact: true }) });
  }

  /** A card's link to Step mode ("Open global-plain in Step mode"). */
  stepLink(id: string): Locator {
    return this.page.getByRole('link', { name: `Open ${id} in Step mode`, exact: true });
  }

  /** A card's link to Live mode ("Run global-plain live"). */
  liveLink(id: string): Locator {
    return this.page.getByRole('link', { name: `Run ${id} live`, exact: true });
  }

  /** The cards' previews of their scenario's picture (each an image named "preview …"). */
  previews(scope: Locator | Page = this.page): Locator {
    return scope.getByRole('img', { name: /^preview\b/ });
  }

  /** The page's full height, in CSS pixels. */
  async height(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollHeight);
  }
}
