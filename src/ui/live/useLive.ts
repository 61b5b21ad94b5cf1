// The app's Live-mode store (created in ../cpuStores.ts) and its typed hooks.

import { useStore } from 'zustand';
import { useFields } from '../useFields.ts';
import type { LiveState } from '../../store/liveStore.ts';
import { liveStore } from '../cpuStores.ts';

export { liveStore };

export function useLive<T>(selector: (s: LiveState) => T): T {
  return useStore(liveStore, selector);
}

/** Several fields of the store at once (see useFields). */
export function useLiveFields<K extends keyof LiveState>(...keys: K[]): Pick<LiveState, K> {
  return useFields(liveStore, keys);
}
