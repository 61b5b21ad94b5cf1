// The app's one Explore store, running explorations in workers through the bridge.

import { useStore } from 'zustand';
import { createExploreStore, type ExploreState } from '../../store/exploreStore.ts';
import { ExploreBridge } from '../../workers/exploreBridge.ts';

export const exploreStore = createExploreStore(new ExploreBridge());

export function useExplore<T>(selector: (s: ExploreState) => T): T {
  return useStore(exploreStore, selector);
}
