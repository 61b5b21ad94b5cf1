// Motion for the explaining charts: whether the user asked for reduced motion, and the durations
// every tween shares. React renders the final geometry; these tweens only animate from the
// previous geometry to it (d3-transition on refs, STYLE.md 6), and with reduced motion nothing
// moves: the final state is shown at once.

import { useSyncExternalStore } from 'react';
// d3-transition adds selection.transition() and .interrupt() as a side effect of its import; the
// d3 bundle declares itself free of side effects, so a build that only imports from 'd3' drops
// them. Importing the module here keeps them wherever the charts tween.
import 'd3-transition';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', onChange);
  return () => {
    mq.removeEventListener('change', onChange);
  };
}

/** True when the user prefers reduced motion (follows the setting as it changes). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}

/** A bar growing or shrinking with an add. */
export const GROW_MS = 350;
/** A fold's batch travelling from its CPU's bar to the global count. */
export const POUR_MS = 1100;
/** The sweep moving one slot on; going back to the start after a retry takes longer. */
export const SWEEP_MS = 350;
export const RETRY_MS = 800;
