// The app's Explore store (created in ../stores.ts) and its typed hook.

import { useStore } from 'zustand';
import type { ExploreState } from '../../store/exploreStore.ts';
import { exploreStore } from '../stores.ts';

export { exploreStore };

export function useExplore<T>(selector: (s: ExploreState) => T): T {
  return useStore(exploreStore, selector);
}
