// The app's Scaling store (created in ../cpuStores.ts) and its typed hooks.

import { useStore } from 'zustand';
import { useFields } from '../useFields.ts';
import type { ScalingState } from '../../store/scalingStore.ts';
import { scalingStore } from '../cpuStores.ts';

export { scalingStore };

export function useScaling<T>(selector: (s: ScalingState) => T): T {
  return useStore(scalingStore, selector);
}

/** Several fields of the store at once (see useFields). */
export function useScalingFields<K extends keyof ScalingState>(
  ...keys: K[]
): Pick<ScalingState, K> {
  return useFields(scalingStore, keys);
}
