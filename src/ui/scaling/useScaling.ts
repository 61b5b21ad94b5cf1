// The app's one Scaling store (with the real worker runner) and its typed hook.

import { useStore } from 'zustand';
import { createScalingStore, type ScalingState } from '../../store/scalingStore.ts';
import { scalingRunner } from '../../workers/scalingBridge.ts';

export const scalingStore = createScalingStore(scalingRunner(navigator.hardwareConcurrency || 2));

export function useScaling<T>(selector: (s: ScalingState) => T): T {
  return useStore(scalingStore, selector);
}
