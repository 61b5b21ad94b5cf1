// The app's one course-progress store (kept in localStorage) and its typed hook; the store itself
// has no React in it (src/store/progressStore.ts).

import { useStore } from 'zustand';
import { createProgressStore, type ProgressState } from '../store/progressStore.ts';

export const progressStore = createProgressStore();

export function useProgress<T>(selector: (s: ProgressState) => T): T {
  return useStore(progressStore, selector);
}
