// Every entry's lesson file at once, in the catalogue's order, unchecked: the lessons layer
// (src/lessons/catalogue/index.ts) reads and checks them. Like allScenarios.ts, a top-level
// await over entries.ts's rows, which Vite replaces by static imports (allScenarios.ts says why).

import { ENTRIES } from './entries.ts';

export const allLessonFiles: readonly { readonly id: string; readonly file: unknown }[] =
  await Promise.all(ENTRIES.map(async (e) => ({ id: e.id, file: (await e.lesson()).default })));
