import { expect, type Locator, type Page } from '@playwright/test';

/** Escapes text for use inside a RegExp. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Step mode, found the way a user (or a screen reader) finds it: by role and name. Intent methods
 * drive it with the mouse (buttons) or the keyboard (digits, arrows), as a test chooses.
 */
export class StepPage {
  constructor(readonly page: Page) {}

  /** Opens a Step-mode link, e.g. `#/step/global-plain` or a copied `#/step/…?sched=…&at=3`. */
  async open(hash: string): Promise<void> {
    await this.page.goto(`/${hash}`);
    await expect(this.heading()).toBeVisible();
  }

  /** The screen's title: the scenario's title followed by its id. */
  heading(): Locator {
    return this.page.getByRole('heading', { level: 2 });
  }

  // --- Scenario, witness, parameters -------------------------------------------------------

  /** Opens the bar's "Scenario and witness" disclosure, where the two choosers are. */
  async openChoosers(): Promise<void> {
    const summary = this.page.getByText('Scenario and witness', { exact: true });
    const chooser = this.page.getByRole('combobox', { name: 'Scenario' });
    // In a small embed they are in its closed Menu: the test opens that itself.
    if ((await summary.isVisible()) && !(await chooser.isVisible())) await summary.click();
  }

  async chooseScenario(id: string): Promise<void> {
    await this.openChoosers();
    await this.page.getByRole('combobox', { name: 'Scenario' }).selectOption(id);
    await this.page.getByRole('button', { name: 'Open scenario' }).click();
    await expect(this.heading()).toContainText(id);
  }

  /** Loads a witness at its start: its schedule becomes the redo tail. */
  async loadWitness(name: string): Promise<void> {
    await this.openChoosers();
    await this.page.getByRole('combobox', { name: 'Witness' }).selectOption(name);
    await this.page.getByRole('button', { name: 'Load witness' }).click();
    await expect(this.timelinePosition()).toHaveValue('0');
  }

  /** Opens one of the panels beside the stage (Parameters, Lesson, Results, Explore). */
  async openPanel(name: string): Promise<void> {
    const button = this.page.getByRole('group', { name: 'Panels' }).getByRole('button', { name });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await expect(this.page.getByRole('complementary', { name: `${name} panel` })).toBeVisible();
  }

  parameter(name: string): Locator {
    return this.page.getByRole('group', { name: 'Parameters' }).getByRole('textbox', { name });
  }

  // --- Scheduler: per-CPU events -----------------------------------------------------------

  cpuControls(k: number): Locator {
    return this.page.getByRole('group', { name: `CPU ${k} controls` });
  }

  stepButton(k: number): Locator {
    return this.cpuControls(k).getByRole('button', { name: `Step CPU ${k}`, exact: true });
  }

  preemptButton(k: number): Locator {
    return this.cpuControls(k).getByRole('button', { name: `Preempt CPU ${k}`, exact: true });
  }

  /** Steps CPU k with its button. */
  async stepCpu(k: number): Promise<void> {
    await this.stepButton(k).click();
  }

  /**
   * Leaves any field (keys typed in a field or a select are not commands), as a user does by
   * clicking on the page: here its title.
   */
  async leaveFields(): Promise<void> {
    await this.heading().click();
  }

  /** Steps CPU k with its digit key (Digit0 … Digit8). */
  async pressStepKey(k: number): Promise<void> {
    await this.page.keyboard.press(`Digit${k}`);
  }

  async raiseIrq(k: number): Promise<void> {
    await this.cpuControls(k)
      .getByRole('button', { name: `IRQ on CPU ${k}`, exact: true })
      .click();
  }

  async raiseNmi(k: number): Promise<void> {
    await this.cpuControls(k)
      .getByRole('button', { name: `NMI on CPU ${k}`, exact: true })
      .click();
  }

  async preempt(k: number): Promise<void> {
    await this.preemptButton(k).click();
  }

  /** Moves CPU `from`'s task to CPU `to`: choose the target, then press Migrate. */
  async migrate(from: number, to: number): Promise<void> {
    const controls = this.cpuControls(from);
    await controls
      .getByRole('combobox', { name: `Migrate CPU ${from}'s task to` })
      .selectOption({ label: `CPU ${to}` });
    await controls
      .getByRole('button', { name: `Migrate task from CPU ${from}`, exact: true })
      .click();
  }

  /**
   * Takes one schedule event (as `lab replay` writes them: `3`, `irq0`, `nmi0`, `pre0`, `mig0>1`)
   * through the UI: CPU steps with their button or digit key, other events with their buttons.
   */
  async take(event: string, by: 'button' | 'key'): Promise<void> {
    let m: RegExpExecArray | null;
    if ((m = /^(\d)$/.exec(event))) {
      const k = Number(m[1]);
      if (by === 'key') await this.pressStepKey(k);
      else await this.stepCpu(k);
    } else if ((m = /^irq(\d+)$/.exec(event))) await this.raiseIrq(Number(m[1]));
    else if ((m = /^nmi(\d+)$/.exec(event))) await this.raiseNmi(Number(m[1]));
    else if ((m = /^pre(\d+)$/.exec(event))) await this.preempt(Number(m[1]));
    else if ((m = /^mig(\d+)>(\d+)$/.exec(event))) await this.migrate(Number(m[1]), Number(m[2]));
    else throw new Error(`cannot take event '${event}' through the UI`);
  }

  // --- Time travel, play, sharing ----------------------------------------------------------

  /** Redoes n events with the "Step forward" button. */
  async forward(n = 1): Promise<void> {
    for (let i = 0; i < n; i++)
      await this.page.getByRole('button', { name: 'Step forward' }).click();
  }

  /** Redoes n events with the → key. */
  async forwardByKey(n = 1): Promise<void> {
    for (let i = 0; i < n; i++) await this.page.keyboard.press('ArrowRight');
  }

  async back(): Promise<void> {
    await this.page.getByRole('button', { name: 'Step back' }).click();
  }

  async backByKey(): Promise<void> {
    await this.page.keyboard.press('ArrowLeft');
  }

  timelinePosition(): Locator {
    return this.page.getByRole('slider', { name: 'Timeline position' });
  }

  playButton(): Locator {
    return this.page.getByRole('button', { name: /^(Play|Pause)$/ });
  }

  /** Presses "Copy link" and returns the URL it gives: from the clipboard or, failing that, the status. */
  async copyLink(): Promise<string> {
    await this.page.getByRole('button', { name: 'Copy link' }).click();
    const status = this.copyStatus();
    await expect(status).not.toBeEmpty();
    const said = (await status.textContent()) ?? '';
    if (said !== 'Link copied') return said;
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** What "Copy link" said: "Link copied", or the link itself when the clipboard refused it. */
  copyStatus(): Locator {
    return this.page.getByRole('region', { name: 'Scheduler' }).getByRole('status');
  }

  // --- What the user sees ------------------------------------------------------------------

  /** A CPU's lane: its task/handler stack, preempt_count, interrupts, next line. */
  cpu(k: number): Locator {
    return this.page
      .getByRole('region', { name: 'CPUs' })
      .getByRole('group', { name: `CPU ${k}`, exact: true });
  }

  memoryRegion(): Locator {
    return this.page.getByRole('region', { name: 'Memory' });
  }

  /** The value cell of the memory row headed `label` (e.g. "fbc->count", "CPU1’s delta"). */
  memory(label: string): Locator {
    return this.memoryRegion()
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: label, exact: true }) })
      .getByRole('cell');
  }

  /** Every memory row as label → value. */
  async memoryTable(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const row of await this.memoryRegion().getByRole('row').all()) {
      const label = await row.getByRole('rowheader').textContent();
      out[label ?? ''] = (await row.getByRole('cell').textContent()) ?? '';
    }
    return out;
  }

  /** The slot-bar chart of a per-CPU variable, e.g. "delta" (its name lists the values). */
  slotBars(label: string): Locator {
    return this.memoryRegion().getByRole('img', { name: new RegExp(`^${literal(label)}: `) });
  }

  narrationLog(): Locator {
    return this.page.getByRole('log', { name: 'Narration log' });
  }

  narrationItems(): Locator {
    return this.narrationLog().getByRole('listitem');
  }

  /** The newest narration item (the one marked aria-current="step"). */
  lastNarration(): Locator {
    return this.narrationItems().last();
  }

  /** The badge of one invariant; its name says "id: holds", "id: violated (why)" or "id: pending (…)". */
  invariant(id: string): Locator {
    return this.page
      .getByRole('region', { name: 'Invariants' })
      .getByRole('listitem', { name: new RegExp(`^${literal(id)}: `) });
  }

  alert(): Locator {
    return this.page.getByRole('alert');
  }

  async dismissAlert(): Promise<void> {
    await this.alert().getByRole('button', { name: 'Dismiss' }).click();
  }

  shortcuts(): Locator {
    return this.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  }

  lesson(): Locator {
    return this.page.getByRole('region', { name: 'Lesson' });
  }

  /**
   * A full-page picture for people to look at (never asserted on), in test-results/screens/.
   * Not in CI: nobody looks at a CI run's files (its log is what is read), and each picture
   * costs the run a full-page capture and a PNG encoding.
   */
  async screenshot(name: string): Promise<void> {
    if (process.env.CI) return;
    await this.page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  }
}
