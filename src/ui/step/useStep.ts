// The app's Step-mode store (created in ../stores.ts) and its typed hooks.

import { useStore } from 'zustand';
import { useFields } from '../useFields.ts';
import type { StepState } from '../../store/stepStore.ts';
import { stepStore } from '../stores.ts';

export { stepStore };

export function useStep<T>(selector: (s: StepState) => T): T {
  return useStore(stepStore, selector);
}

/** Several fields of the store at once (see useFields). */
export function useStepFields<K extends keyof StepState>(...keys: K[]): Pick<StepState, K> {
  return useFields(stepStore, keys);
}
