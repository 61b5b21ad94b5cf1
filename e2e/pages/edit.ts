import { expect, type Locator, type Page } from '@playwright/test';

/** The program editor, found by role and name as a user (or a screen reader) finds it. */
export class EditPage {
  constructor(readonly page: Page) {}

  async open(hash = '#/edit'): Promise<void> {
    await this.page.goto(`/${hash}`);
    await expect(this.text()).toBeVisible();
  }

  /** The editor's text area (CodeMirror's content, in its shadow root). */
  text(): Locator {
    return this.page.getByRole('textbox', { name: 'Program text' });
  }

  check(): Locator {
    return this.page.getByRole('status', { name: 'Check' });
  }

  problems(): Locator {
    return this.page.getByRole('list', { name: 'Problems' }).getByRole('button');
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  async openExample(id: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Start from' }).selectOption(id);
    await this.button('Open example').click();
  }

  /** Opens the editor on example `id` and waits until the compiler accepts it. */
  async openCompiledExample(id: string): Promise<void> {
    await this.open();
    await this.openExample(id);
    await this.compiles();
  }

  /** Empties the line holding `text` (the first one), with the keyboard. */
  async clearLine(text: string): Promise<void> {
    await this.text().getByText(text, { exact: true }).first().click();
    await this.page.keyboard.press('End');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.press('Backspace');
  }

  /** Waits for the compiler to accept the text. */
  async compiles(): Promise<void> {
    await expect(this.check()).toHaveText(/^Compiles: /);
  }
}
