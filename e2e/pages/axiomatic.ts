import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Memory lkmm in Step mode, found by role and name: the Explore panel's answer (herd7's verdict,
 * the end states, Why not?), the execution graph on the stage with its words beside it, and
 * "Be the memory system".
 */
export class AxiomaticPage {
  constructor(readonly page: Page) {}

  explorePanel(): Locator {
    return this.page.getByRole('complementary', { name: 'Explore panel' });
  }

  /** The panel's memory model (sc, tso or lkmm). */
  memoryModel(): Locator {
    return this.explorePanel().getByRole('combobox', { name: 'Memory model' });
  }

  /** Presses Explore in the panel and waits for the model's answer (or its refusal). */
  async answer(): Promise<void> {
    await this.explorePanel().getByRole('button', { name: 'Explore', exact: true }).click();
    await this.answered();
  }

  /** Waits for the model's answer (or its refusal) without pressing anything. */
  async answered(): Promise<void> {
    await expect(this.explorePanel().getByRole('status').first()).toContainText(
      /Done under lkmm|cannot answer|Cancelled/,
    );
  }

  verdict(): Locator {
    return this.explorePanel().getByRole('region', { name: "herd7's verdict" });
  }

  endStates(): Locator {
    return this.explorePanel().getByRole('list', { name: 'End states' }).getByRole('listitem');
  }

  /** The end state whose line contains `line`, e.g. "1:r0=1; 1:r1=0;". */
  endState(line: string): Locator {
    return this.endStates().filter({ hasText: line });
  }

  async showExecution(line: string): Promise<void> {
    await this.endState(line).getByRole('button', { name: 'Show an execution' }).click();
  }

  async whyNot(): Promise<void> {
    await this.explorePanel().getByRole('button', { name: 'Why not?' }).click();
  }

  /** Why Step has no steps under lkmm (the stage's explanation). */
  noSteps(): Locator {
    return this.page.getByRole('region', { name: 'Why Step cannot step' });
  }

  /** The execution graph on the stage (an SVG image titled by what it shows). */
  graph(title?: RegExp): Locator {
    return this.page.getByRole('img', { name: title ?? /execution|Why not|memory system/i });
  }

  /** The forbidden cycle's steps, in words, numbered as on the graph. */
  cycleSteps(): Locator {
    return this.page.getByRole('list', { name: 'The cycle, step by step' }).getByRole('listitem');
  }

  /** The graph's edges as a table (opened first). */
  async edgeRows(): Promise<Locator> {
    await this.page.getByText(/^Every edge, as text/).click();
    return this.page.getByRole('table').getByRole('row');
  }

  memorySystem(): Locator {
    return this.page.getByRole('region', { name: 'Be the memory system' });
  }

  /** Chooses the write a read sees: `read` as "P1: R flag", `write` as "P0: W flag=1". */
  async chooseWrite(read: string, write: string): Promise<void> {
    await this.memorySystem()
      .getByRole('group', { name: `${read} reads from` })
      .getByRole('radio', { name: write, exact: true })
      .check();
  }

  /** The memory system's narration, newest last. */
  narration(): Locator {
    return this.memorySystem()
      .getByRole('log', { name: 'What your choices did' })
      .getByRole('listitem');
  }
}
