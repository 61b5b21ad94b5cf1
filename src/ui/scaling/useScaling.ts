// The app's one Scaling store (with the real worker runner) and its typed hook.

import { useStore } from 'zustand';
import { useFields } from '../useFields.ts';
import { createScalingStore, type ScalingState } from '../../store/scalingStore.ts';
import { scalingRunner } from '../../workers/scalingBridge.ts';
import { CORES } from '../cores.ts';

export const scalingStore = createScalingStore(scalingRunner(CORES));

export function useScaling<T>(selector: (s: ScalingState) => T): T {
  return useStore(scalingStore, selector);
}

/** Several fields of the store at once (see useFields). */
export function useScalingFields<K extends keyof ScalingState>(
  ...keys: K[]
): Pick<ScalingState, K> {
  return useFields(scalingStore, keys);
}
