// Reading several fields of a store in one hook, instead of one hook per field: one subscription
// whose selection is compared field by field (shallow), so a component still re-renders only when
// one of the fields it reads changes.

import { type StoreApi, useStore } from 'zustand';
import { useShallow } from 'zustand/shallow';

/** The fields `keys` of `store`'s state. */
export function useFields<S, K extends keyof S>(
  store: StoreApi<S>,
  keys: readonly K[],
): Pick<S, K> {
  return useStore(
    store,
    useShallow((s: S) => {
      const picked = {} as Pick<S, K>;
      for (const k of keys) picked[k] = s[k];
      return picked;
    }),
  );
}
