import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * What axe-core finds serious or critical on the page, one line each (rule, help, where).
 *
 * In axe's legacy mode, and with only the violations listed in full: by default the library
 * gathers each frame's partial results (about 4 MB for a stage of 3,000 elements, every node
 * that passed) and sends them to a blank page of its own to be put together. That took 10 s of a
 * lecture slide's check; this takes under 3, with the same violations. The lab's pages have no
 * frame from another origin, which is what the default is for.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}
