import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The challenge panel of Step mode, found by role and name: one article per challenge (named by
 * its title), each with its progress mark, attempt verdict, exhaustive check and hints.
 */
export class ChallengePanelPage {
  constructor(readonly page: Page) {}

  /**
   * Shows the panel: opens it with its "Challenges" panel button unless it is open already (a
   * link that names a challenge opens it; its content may still be loading).
   */
  async show(): Promise<void> {
    const opener = this.page
      .getByRole('group', { name: 'Panels' })
      .getByRole('button', { name: 'Challenges', exact: true });
    if ((await opener.getAttribute('aria-expanded')) !== 'true') await opener.click();
    await expect(this.region()).toBeVisible();
  }

  region(): Locator {
    return this.page.getByRole('region', { name: 'Challenges' });
  }

  challenge(title: string): Locator {
    return this.region().getByRole('article', { name: title, exact: true });
  }

  async start(title: string): Promise<void> {
    await this.challenge(title)
      .getByRole('button', { name: /^(Start|Restart) challenge$/ })
      .click();
    await expect(this.attempt(title)).toBeVisible();
  }

  /** What the saved progress says of a challenge ("✓ Solved. Your best: …", "Not solved yet."). */
  mark(title: string): Locator {
    return this.challenge(title).getByRole('status', { name: 'Progress' });
  }

  /** The verdict on the schedule stepped so far (only for the challenge started). */
  attempt(title: string): Locator {
    return this.challenge(title).getByRole('status', { name: 'Attempt' });
  }

  exhaustiveCheck(title: string): Locator {
    return this.challenge(title).getByRole('status', { name: 'Exhaustive check' });
  }

  hintButton(title: string): Locator {
    return this.challenge(title).getByRole('button', { name: /^(Show a hint|All \d+ hints)/ });
  }

  hints(title: string): Locator {
    return this.challenge(title).getByRole('list', { name: 'Hints' }).getByRole('listitem');
  }

  async tryHintSchedule(title: string, n: number): Promise<void> {
    await this.hints(title)
      .nth(n - 1)
      .getByRole('button', { name: 'Try this schedule' })
      .click();
  }

  /** A line about the whole course's progress. */
  courseProgress(): Locator {
    return this.region().getByText(/^Course progress: /);
  }

  /** Reset with its confirmation, as a student does from the panel. */
  async resetProgress(): Promise<void> {
    await this.region().getByRole('button', { name: 'Reset progress', exact: true }).click();
    const ask = this.region().getByRole('group', { name: 'Reset progress?' });
    await expect(ask.getByRole('button', { name: 'Keep progress' })).toBeFocused();
    await ask.getByRole('button', { name: 'Yes, reset progress' }).click();
  }

  /** What is wrong with the saved progress, with its own Reset. */
  problem(): Locator {
    return this.region().getByRole('alert', { name: 'Saved progress' });
  }
}
