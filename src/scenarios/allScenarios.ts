// Every entry's scenario at once, in the catalogue's order, for index.ts: a top-level await over
// entries.ts's rows, so the rows stay the catalogue's one list. Node runs it as written (the CLI,
// its threads). Wherever Vite serves or builds the lab (the page, its workers, the unit tests),
// deploy/eagerCatalogue.ts replaces it by a static import of each entry, because a top-level
// await costs there: a module worker answers no message that arrives while its modules are still
// awaiting (comlink's first call was lost), and Rolldown splits the chunks around a top-level
// await of dynamic imports (rolldown/rolldown#10632), about 7 KiB more on a Step link.

import { ENTRIES } from './entries.ts';
import type { Scenario } from './types.ts';

export const allScenarios: readonly Scenario[] = await Promise.all(
  ENTRIES.map(async (e) => (await e.scenario()).default),
);
