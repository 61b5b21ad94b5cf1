// How long each of the charts' motions takes. A leaf, because the charts that read these load at
// different moments: the store buffer (StoreBuffer.tsx, the Web Animations API) is on the page
// from the start, while the counter chart's tween (counterTween.ts) loads with d3's transitions
// at the first step (motion.ts).

/** A bar growing or shrinking with an add. */
export const GROW_MS = 350;
/** A fold's batch travelling from its CPU's bar to the global count. */
export const POUR_MS = 1100;
/** The sweep moving one slot on; going back to the start after a retry takes longer. */
export const SWEEP_MS = 350;
export const RETRY_MS = 800;
