// The app's one Step-mode store and its typed hook (the store itself has no React in it).

import { useStore } from 'zustand';
import { useFields } from '../useFields.ts';
import { createStepStore, type StepState } from '../../store/stepStore.ts';

export const stepStore = createStepStore();

export function useStep<T>(selector: (s: StepState) => T): T {
  return useStore(stepStore, selector);
}

/** Several fields of the store at once (see useFields). */
export function useStepFields<K extends keyof StepState>(...keys: K[]): Pick<StepState, K> {
  return useFields(stepStore, keys);
}
