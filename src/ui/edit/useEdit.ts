// The app's one editor store and its typed hook (the store itself has no React in it).

import { useStore } from 'zustand';
import { createEditStore, type EditState } from '../../store/editStore.ts';

export const editStore = createEditStore();

export function useEdit<T>(selector: (s: EditState) => T): T {
  return useStore(editStore, selector);
}
