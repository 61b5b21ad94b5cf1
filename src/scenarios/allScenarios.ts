// Every entry's scenario at once, in the catalogue's order, for index.ts. Loaded with a top-level
// await over entries.ts's rows, so the rows stay the catalogue's one list; in Node, in workers
// and in Vite's dev server the modules are imported as they are written.
//
// The app's build replaces this module by one that imports each entry statically
// (deploy/eagerCatalogue.ts): Rolldown splits the modules around a top-level await of dynamic
// imports into many small chunks (rolldown/rolldown#10632, vitejs/vite#23164), which added
// about 7 KiB of gzipped JavaScript to a Step link that needs none of the catalogue.

import { ENTRIES } from './entries.ts';
import type { Scenario } from './types.ts';

export const allScenarios: readonly Scenario[] = await Promise.all(
  ENTRIES.map(async (e) => (await e.scenario()).default),
);
