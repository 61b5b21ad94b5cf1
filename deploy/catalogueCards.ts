import type { Plugin } from 'vite';
import { catalogueCards, catalogueTitles } from '../src/charts/cards.ts';

/** Each module's id and what it exports as default. */
const MODULES: Readonly<Record<string, () => unknown>> = {
  'virtual:catalogue-cards': catalogueCards,
  'virtual:catalogue-titles': catalogueTitles,
};

/**
 * Vite plugin: the modules `virtual:catalogue-cards`, the home page's cards, and
 * `virtual:catalogue-titles`, what Step mode's picker lists, computed when the app is built
 * (src/charts/cards.ts says why). Computed in Node from the sources the build reads, so
 * they cannot fall out of date; the dev server computes them when it starts.
 */
export function catalogueCardsModule(): Plugin {
  return {
    name: 'percpu-lab-catalogue-cards',
    resolveId(id) {
      return Object.hasOwn(MODULES, id) ? `\0${id}` : null;
    },
    load(id) {
      const name = id.slice(1);
      const make = id.startsWith('\0') && Object.hasOwn(MODULES, name) ? MODULES[name] : undefined;
      return make ? `export default ${JSON.stringify(make())};\n` : null;
    },
  };
}
