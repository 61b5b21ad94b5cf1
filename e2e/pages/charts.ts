import { type Download, type Locator, test as base } from '@playwright/test';
import { StepPage } from './step.ts';

/**
 * The explaining charts of Step mode: the counter chart (found by its accessible name, which
 * lists the deltas) and the parts of it no ARIA role fits (a bar, the pour, the sweep), found by
 * their test ids; the export buttons by their names.
 */
export class ChartsPage extends StepPage {
  /** Console errors the page logged since witness() opened it (a refused export logs one). */
  readonly consoleErrors: string[] = [];

  /** Opens scenario `id`, loads witness `name` and steps `steps` events into it. */
  async witness(id: string, name: string, steps = 0): Promise<void> {
    this.page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(m.text());
    });
    await this.open(`#/step/${id}`);
    await this.loadWitness(name);
    if (steps > 0) await this.forward(steps);
  }

  counterChart(): Locator {
    return this.slotBars('fbc->counters');
  }

  part(testId: string): Locator {
    return this.counterChart().getByTestId(testId);
  }

  slotBar(k: number): Locator {
    return this.part(`slot-bar-${String(k)}`);
  }

  /** The counter chart's text equivalent (its description). */
  counterText(): Locator {
    // The figure holding the counter chart: its caption is the text equivalent.
    return this.memoryRegion()
      .getByRole('figure')
      .filter({ has: this.page.getByRole('img', { name: /^fbc->counters: / }) });
  }

  exportButton(what: string, format: 'SVG' | 'PNG'): Locator {
    return this.page.getByRole('button', { name: `Export ${what} as ${format}`, exact: true });
  }

  /** Exports `what` as `format`: the file the browser downloads. */
  async export(what: string, format: 'SVG' | 'PNG'): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.exportButton(what, format).click(),
    ]);
    return download;
  }

  /**
   * Starts recording each value attribute `attr` of `testId`'s element takes in the counter
   * chart (a tween's frames, or one jump), from now on; the function returned reads them. A
   * recording does not depend on when the test gets to look, which a loaded machine delays.
   */
  async record(testId: string, attr: string): Promise<() => Promise<string[]>> {
    const key = `${testId}/${attr}`;
    await this.counterChart().evaluate(
      (svg, [id, name, k]) => {
        const seen: string[] = [];
        const note = (v: string | null) => {
          if (v !== null && seen.at(-1) !== v) seen.push(v);
        };
        const look = () => {
          note(svg.querySelector(`[data-testid="${id}"]`)?.getAttribute(name) ?? null);
        };
        look();
        // Attribute changes, and the element drawn anew (React may replace it on a step).
        new MutationObserver(look).observe(svg, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: [name],
        });
        const w = window as unknown as { recorded?: Record<string, string[]> };
        w.recorded = { ...w.recorded, [k]: seen };
      },
      [testId, attr, key] as const,
    );
    return () =>
      this.page.evaluate(
        (k) => (window as unknown as { recorded: Record<string, string[]> }).recorded[k] ?? [],
        key,
      );
  }
}

/** Playwright's test with a `charts` fixture: the charts page object over the test's page. */
export const test = base.extend<{ charts: ChartsPage }>({
  charts: async ({ page }, use) => {
    await use(new ChartsPage(page));
  },
});
