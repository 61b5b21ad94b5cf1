import { type Download, type Locator } from '@playwright/test';
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
    return this.slotBars('delta');
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
      .filter({ has: this.page.getByRole('img', { name: /^delta: / }) });
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

  /** Two readings of an attribute of `testId`'s element, `gapMs` apart, inside the page. */
  async sample(testId: string, attr: string, gapMs = 150): Promise<[string, string]> {
    return this.counterChart().evaluate(
      async (svg, [id, name, gap]) => {
        const el = svg.querySelector(`[data-testid="${id}"]`);
        const first = el?.getAttribute(name) ?? '';
        await new Promise((r) => setTimeout(r, gap));
        return [first, el?.getAttribute(name) ?? ''] as [string, string];
      },
      [testId, attr, gapMs] as const,
    );
  }
}
