import { type Locator } from '@playwright/test';
import { StepPage } from './step.ts';

/**
 * The explaining charts of Step mode: the counter chart (found by its accessible name, which
 * lists the deltas) and the parts of it no ARIA role fits (a bar, the pour, the sweep), found by
 * their test ids; the export buttons by their names.
 */
export class ChartsPage extends StepPage {
  /** Opens scenario `id` and loads witness `name` at its start. */
  async witness(id: string, name: string): Promise<void> {
    await this.open(`#/step/${id}`);
    await this.loadWitness(name);
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
