// The app's Explore store and its typed hook. The store is created here, with the Explore panel's
// lazy chunk (see ../stores.ts), so a Step link loads neither it nor its bridge until the panel
// opens; it lives for the page from then on, so a run and its result outlast the panel closing.

import { useStore } from 'zustand';
import { createExploreStore, type ExploreState } from '../../store/exploreStore.ts';
import { ExploreBridge } from '../../workers/exploreBridge.ts';
import { CORES } from '../cores.ts';

export const exploreStore = createExploreStore(new ExploreBridge(CORES));

export function useExplore<T>(selector: (s: ExploreState) => T): T {
  return useStore(exploreStore, selector);
}
