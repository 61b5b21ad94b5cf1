import type { Plugin } from 'vite';
import { catalogueCards } from '../src/charts/cards.ts';

const ID = 'virtual:catalogue-cards';
const RESOLVED = `\0${ID}`;

/**
 * Vite plugin: the module `virtual:catalogue-cards`, the home page's cards computed when the
 * app is built (src/charts/cards.ts says why). Computed in Node from the sources the
 * build reads, so it cannot fall out of date; the dev server computes it when it starts.
 */
export function catalogueCardsModule(): Plugin {
  return {
    name: 'percpu-lab-catalogue-cards',
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      return `export default ${JSON.stringify(catalogueCards())};\n`;
    },
  };
}
