// The app's one Live-mode store (with the real worker bridge) and its typed hook.

import { useStore } from 'zustand';
import { useFields } from '../useFields.ts';
import { createLiveStore, type LiveState } from '../../store/liveStore.ts';
import { CpuBridge } from '../../workers/cpuBridge.ts';
import { CORES } from '../cores.ts';

export const liveStore = createLiveStore(new CpuBridge(), CORES);

export function useLive<T>(selector: (s: LiveState) => T): T {
  return useStore(liveStore, selector);
}

/** Several fields of the store at once (see useFields). */
export function useLiveFields<K extends keyof LiveState>(...keys: K[]): Pick<LiveState, K> {
  return useFields(liveStore, keys);
}
