// The app's one course-progress store (kept in localStorage) and its typed hook; the store itself
// has no React in it (src/store/progressStore.ts).

import { useStore } from 'zustand';
import { createProgressStore, PROGRESS_KEY, type ProgressState } from '../store/progressStore.ts';

export const progressStore = createProgressStore();

// Another tab's progress (a slide seen, a challenge solved, a reset) reaches this one, so that
// neither tab later saves a stale record over the other's work. The event fires only in the
// tabs that did not write; a null key means the other tab cleared all of this site's storage.
window.addEventListener('storage', (e) => {
  if (e.key === PROGRESS_KEY || e.key === null)
    progressStore.getState().storedElsewhere(e.key === null ? null : e.newValue);
});

export function useProgress<T>(selector: (s: ProgressState) => T): T {
  return useStore(progressStore, selector);
}
