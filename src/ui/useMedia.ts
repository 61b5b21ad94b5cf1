import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, re-rendering when that changes. */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const m = matchMedia(query);
      m.addEventListener('change', changed);
      return () => {
        m.removeEventListener('change', changed);
      };
    },
    () => matchMedia(query).matches,
  );
}
