import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { ENTRIES } from '../src/scenarios/entries.ts';

const folder = fileURLToPath(new URL('../src/scenarios/', import.meta.url));

/** The modules this plugin writes for the build, by path, and what each exports. */
const EAGER: Readonly<
  Record<string, { name: string; item: (id: string, v: string) => string; ext: string }>
> = {
  [`${folder}allScenarios.ts`]: { name: 'allScenarios', item: (_id, v) => v, ext: 'ts' },
  [`${folder}allLessonFiles.ts`]: {
    name: 'allLessonFiles',
    item: (id, v) => `{ id: ${JSON.stringify(id)}, file: ${v} }`,
    ext: 'json',
  },
};

/**
 * Vite plugin: wherever Vite serves or builds the lab (the page, its workers, the unit tests),
 * src/scenarios/allScenarios.ts and allLessonFiles.ts become a static import of every entry's
 * file (catalogue/<id>.ts, catalogue/<id>.json), in the order of entries.ts's rows, instead of a
 * top-level await of their dynamic imports. The modules are the same; what differs is when they
 * run: a module worker whose modules are still awaiting drops the messages it is sent, and
 * Rolldown splits the chunks around such an await (allScenarios.ts has the figures). Node runs
 * the sources as written.
 */
export function eagerCatalogue(): Plugin {
  return {
    name: 'percpu-lab-eager-catalogue',
    load(id) {
      const eager = EAGER[id];
      if (!eager) return null;
      const imports = ENTRIES.map(
        (e, i) =>
          `import m${String(i)} from ${JSON.stringify(`${folder}catalogue/${e.id}.${eager.ext}`)};`,
      );
      const items = ENTRIES.map((e, i) => eager.item(e.id, `m${String(i)}`));
      return `${imports.join('\n')}\nexport const ${eager.name} = [${items.join(', ')}];\n`;
    },
  };
}
